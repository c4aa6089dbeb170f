/**
 * The command line of `clouddb sweep`: what it parses into, and the usage text its errors end with.
 */

/** What a sweep is asked to do. */
export interface SweepOptions {
  /** The API project whose branches are swept. */
  projectId: string;
  /** The Pulumi backend the marks' stacks live in, as `PULUMI_BACKEND_URL` takes it. */
  backend: string;
  /** Delete what is found (default: a dry run, which only lists it). */
  delete: boolean;
  /** Where to write the JSON report, if anywhere. */
  report: string | undefined;
}

/** The usage line every argument error ends with. */
export const USAGE =
  "usage: clouddb sweep --project <project-id> --backend <backend-url> [--dry-run | --delete] [--report <file>]";

/** Thrown for a command line that cannot be run; its message says what to change. */
export class SweepUsageError extends Error {
  override readonly name = "SweepUsageError";
}

/** Parses `clouddb`'s arguments (`sweep` first); throws `SweepUsageError` naming the argument at fault. */
export function parseSweepArgs(argv: readonly string[]): SweepOptions {
  const [command, ...rest] = argv;
  if (command !== "sweep") {
    throw new SweepUsageError(
      `${command === undefined ? "no command given" : `unknown command "${command}"`}: clouddb's commands are sweep and from-terraform. ${USAGE}`,
    );
  }
  const given: Partial<Record<"project" | "backend" | "report", string>> = {};
  let remove = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=") ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    if (flag === "--delete") remove = true;
    else if (flag === "--dry-run") remove = false;
    else if (flag === "--project" || flag === "--backend" || flag === "--report") {
      const value = inline ?? rest[++i];
      if (value === undefined || value === "" || (inline === undefined && value.startsWith("--")))
        throw new SweepUsageError(`${flag} needs a value. ${USAGE}`);
      given[flag.slice(2) as "project" | "backend" | "report"] = value;
    } else throw new SweepUsageError(`unknown argument "${arg}". ${USAGE}`);
  }
  if (given.project === undefined)
    throw new SweepUsageError(
      `--project is required: the id of the project whose branches are swept. ${USAGE}`,
    );
  if (given.backend === undefined)
    throw new SweepUsageError(
      `--backend is required: the URL of the Pulumi backend the stacks live in (file://..., s3://..., https://api.pulumi.com). ${USAGE}`,
    );
  return { projectId: given.project, backend: given.backend, delete: remove, report: given.report };
}
