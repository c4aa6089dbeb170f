/**
 * The provider plugin `pulumi-resource-clouddb`: the engine starts it with its own address as the
 * last argument and reads the port the plugin serves on from its first line of stdout. Lines it
 * writes after that (progress of slow operations, see `host/progress.ts`) the engine shows as the
 * stack's info messages, as it does for the dynamic provider.
 */
import { watchEngineInHost } from "../resources/host/engineWatch";
import { serve } from "./server";

serve().then(
  ({ port }) => {
    process.stdout.write(`${port}\n`);
    watchEngineInHost("pulumi-resource-clouddb");
  },
  (err: unknown) => {
    process.stderr.write(`pulumi-resource-clouddb could not start its gRPC server: ${String(err)}\n`);
    process.exit(1);
  },
);
