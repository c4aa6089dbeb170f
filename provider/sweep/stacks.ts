/**
 * The stacks of a Pulumi backend, read through the `pulumi` CLI (`stack ls`, `stack export`) with
 * `PULUMI_BACKEND_URL` set, so any backend the CLI reaches works and no backend file is parsed here.
 */
import { execFile } from "node:child_process";
import { tmpdir } from "node:os";

/** A stack the backend lists: its full name and the project and stack it names. */
export interface BackendStack {
  /** As `pulumi stack ls` names it: `org/project/stack`, or `stack` in a backend without projects. */
  name: string;
  project: string | undefined;
  stack: string;
}

/** What a stack's export says of the branches it holds. */
export interface HeldBranches {
  /** The ids of its Branch resources. */
  ids: Set<string>;
  /** Whether a run of it was cut off with an operation pending on a Branch: it may take back a branch it has not recorded. */
  unsettled: boolean;
}

/** The type tokens a Branch has in a state: the Node.js class's (a dynamic resource) and the plugin's. */
const BRANCH_TYPES = new Set(["pulumi-nodejs:dynamic/clouddb:Branch", "clouddb:index:Branch"]);

/** Thrown when the `pulumi` CLI fails; the message names the command, the backend and what to do. */
export class BackendError extends Error {
  override readonly name = "BackendError";
}

/** `url` without the user and password it may carry, for messages. */
export function shownBackend(url: string): string {
  return url.replace(/^([a-z0-9+.-]+:\/\/)[^@/]*@/i, "$1");
}

/**
 * The Go runtime's settings for the CLI's runs, unless the environment gives its own: no garbage
 * collection below 128 MiB of heap. Each run here is a fraction of a second, most of it the
 * CLI's start, whose collections cost about a third of its CPU time; a sweep starts one per stack.
 */
const GO_RUNTIME = { GOGC: "off", GOMEMLIMIT: "128MiB" };

/** Runs `pulumi <args>` against `backend` and answers its stdout; throws `BackendError` when it fails. */
function pulumi(backend: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "pulumi",
      [...args],
      {
        // Outside any project folder, so a Pulumi.yaml's own backend setting cannot apply.
        cwd: tmpdir(),
        env: {
          ...(process.env.GOGC === undefined && process.env.GOMEMLIMIT === undefined ? GO_RUNTIME : {}),
          ...process.env,
          PULUMI_BACKEND_URL: backend,
          PULUMI_SKIP_UPDATE_CHECK: "true",
        },
        maxBuffer: 512 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        if (err === null) return resolve(stdout);
        const missing = (err as NodeJS.ErrnoException).code === "ENOENT";
        const said = stderr.trim().split("\n").slice(-3).join(" ");
        reject(
          new BackendError(
            missing
              ? "the pulumi CLI was not found: install it (https://www.pulumi.com/docs/install/) and put it on PATH"
              : `\`pulumi ${args.join(" ")}\` failed on backend ${shownBackend(backend)}: ${said || err.message}. ` +
                  "Check --backend, the backend's credentials, and PULUMI_CONFIG_PASSPHRASE for a passphrase-encrypted backend",
          ),
        );
      },
    );
  });
}

/** Every stack of `backend` (`pulumi stack ls --all --json`). */
export async function listStacks(backend: string): Promise<BackendStack[]> {
  const text = await pulumi(backend, ["stack", "ls", "--all", "--json"]);
  let listed: unknown;
  try {
    listed = JSON.parse(text);
  } catch {
    throw new BackendError(
      `\`pulumi stack ls --all --json\` on backend ${shownBackend(backend)} printed no JSON: update the pulumi CLI`,
    );
  }
  if (!Array.isArray(listed)) return [];
  return listed.flatMap((entry) => {
    const name = (entry as { name?: unknown }).name;
    if (typeof name !== "string") return [];
    const parts = name.split("/");
    const stack = parts[parts.length - 1] as string;
    return [{ name, project: parts.length >= 2 ? parts[parts.length - 2] : undefined, stack }];
  });
}

/** The Branch resources of stack `name`'s state (`pulumi stack export`), by id. */
export async function heldBranches(backend: string, name: string): Promise<HeldBranches> {
  const text = await pulumi(backend, ["stack", "export", "--stack", name]);
  let state: {
    deployment?: {
      resources?: { type?: string; id?: string; outputs?: { branchId?: unknown } }[];
      pending_operations?: { resource?: { type?: string } }[];
    };
  };
  try {
    state = JSON.parse(text);
  } catch {
    throw new BackendError(`the export of stack ${name} is not JSON: update the pulumi CLI`);
  }
  const ids = new Set<string>();
  for (const resource of state.deployment?.resources ?? []) {
    if (!BRANCH_TYPES.has(resource.type ?? "")) continue;
    if (typeof resource.id === "string" && resource.id !== "") ids.add(resource.id);
    if (typeof resource.outputs?.branchId === "string") ids.add(resource.outputs.branchId);
  }
  const unsettled = (state.deployment?.pending_operations ?? []).some((op) =>
    BRANCH_TYPES.has(op.resource?.type ?? ""),
  );
  return { ids, unsettled };
}

/**
 * How many `pulumi stack export` run at once. An export is mostly the CLI's start (on a file
 * backend) or a wait on the backend (on a remote one): a few at once keep a small machine's cores
 * busy, where one at a time leaves them idle and one per stack starts hundreds of processes.
 */
export const STATE_READERS = 8;

/**
 * `read` (a stack's `heldBranches`) made to read each stack once and at most `readers` stacks at a
 * time (a counter and a queue of waiting reads: too little for a dependency).
 */
export function stateReader(
  read: (name: string) => Promise<HeldBranches>,
  readers = STATE_READERS,
): (name: string) => Promise<HeldBranches> {
  const states = new Map<string, Promise<HeldBranches>>();
  const waiting: (() => void)[] = [];
  let running = 0;
  const start = (): Promise<void> => {
    if (running < readers) {
      running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  // A finished read hands its place to the next waiting one.
  const finish = () => {
    const next = waiting.shift();
    if (next === undefined) running--;
    else next();
  };
  return (name) => {
    let state = states.get(name);
    if (state === undefined) {
      state = start().then(() => read(name).finally(finish));
      states.set(name, state);
    }
    return state;
  };
}
