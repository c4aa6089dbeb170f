// A review stack per pull request, for any CI system: `up <number>` makes or updates stack
// `pr-<number>` of ../pull-request-database/typescript (its config `projectId` from
// CLOUDDB_PROJECT_ID and `pullRequest`), refreshes it, runs `up`, and prints its non-secret outputs
// as one JSON object on stdout; `destroy <number>` destroys the stack and removes it. The engine's
// progress goes to stderr. The backend, the passphrase and the provider's key come from the
// environment as the `pulumi` CLI takes them (PULUMI_BACKEND_URL or `pulumi login`,
// PULUMI_CONFIG_PASSPHRASE, CLOUDDB_API_KEY); REVIEW_PROGRAM_DIR names another program folder.
import * as path from "node:path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";

/** The outputs printed after an `up`: none of them holds a credential. */
const PRINTED = ["branchId", "host", "expiresAt", "schemaDiff"] as const;

const USAGE = "usage: automation.ts up|destroy <pull request number>";

/** The program a review stack runs: REVIEW_PROGRAM_DIR, else the example's TypeScript program. */
function programDir(): string {
  return process.env.REVIEW_PROGRAM_DIR ?? path.join(__dirname, "..", "pull-request-database", "typescript");
}

/** Engine output, kept off stdout so that stdout holds only the outputs' JSON. */
const progress = { onOutput: (line: string) => process.stderr.write(line) };

/** Makes or updates the review stack of pull request `pr`; answers its printed outputs. Throws what the engine throws. */
async function up(pr: string): Promise<Record<string, unknown>> {
  const projectId = process.env.CLOUDDB_PROJECT_ID;
  if (projectId === undefined || projectId === "") throw new Error("CLOUDDB_PROJECT_ID is not set");
  const stack = await LocalWorkspace.createOrSelectStack({ stackName: `pr-${pr}`, workDir: programDir() });
  await stack.setAllConfig({ projectId: { value: projectId }, pullRequest: { value: pr } });
  // The branch may have expired or been deleted since the last run: the state learns it first.
  await stack.refresh(progress);
  const result = await stack.up(progress);
  const printed: Record<string, unknown> = {};
  for (const name of PRINTED) {
    const output = result.outputs[name];
    if (output !== undefined && !output.secret) printed[name] = output.value;
  }
  return printed;
}

/** Destroys the review stack of pull request `pr` and removes it. Throws when it has none. */
async function destroy(pr: string): Promise<void> {
  const stack: Stack = await LocalWorkspace.selectStack({ stackName: `pr-${pr}`, workDir: programDir() });
  await stack.destroy(progress);
  await stack.workspace.removeStack(stack.name);
}

async function main(argv: string[]): Promise<number> {
  const [command, pr] = argv;
  if (pr === undefined || !/^[0-9]+$/.test(pr) || (command !== "up" && command !== "destroy")) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (command === "up") process.stdout.write(`${JSON.stringify(await up(pr))}\n`);
  else await destroy(pr);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
