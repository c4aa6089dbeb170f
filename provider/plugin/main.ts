/**
 * The provider plugin `pulumi-resource-clouddb`: the engine starts it with its own address as the
 * last argument and reads the port the plugin serves on from its first line of stdout. The engine
 * hides what a resource plugin writes after that, so lines for the user (progress of slow
 * operations, what a preview should know, see `host/progress.ts`) go to the engine's `Log`, shown
 * as the stack's info messages; warnings about a resource (an input sent as a field the API marks
 * deprecated) go there too, on the resource.
 */
import { engineAddress, watchEngineInHost } from "../resources/host/engineWatch";
import { setHostLineWriter } from "../resources/host/progress";
import { engineLog, engineWarning } from "./engineLog";
import { serve } from "./server";
import { setWarningWriter } from "./warnings";

serve().then(
  ({ port }) => {
    process.stdout.write(`${port}\n`);
    watchEngineInHost("pulumi-resource-clouddb");
    const address = engineAddress();
    if (address !== undefined) {
      setHostLineWriter(engineLog(address));
      setWarningWriter(engineWarning(address));
    }
  },
  (err: unknown) => {
    process.stderr.write(`pulumi-resource-clouddb could not start its gRPC server: ${String(err)}\n`);
    process.exit(1);
  },
);
