/**
 * Progress of operation waits as one line per state change, e.g.
 * `create_branch 5e0f… on br-damp-glitter-adqd4hk5: running (2s)`, for operations that take longer
 * than {@link QUIET_MS}.
 *
 * A dynamic provider has no logging channel of its own: Pulumi's engine shows each line the provider
 * process writes to stdout as an info message of the stack, live in a terminal and in a CI log alike
 * (`pulumi.log` there has no engine connection and only prefixes `info: [runtime]` to the same
 * output). The provider knows no resource URN, so a line names the operation and the object instead.
 *
 * A request waiting out the API's rate limit (429s) for longer than {@link QUIET_MS} gets one line
 * per route and spell of 429s, however many requests and retries wait in it, e.g.
 * `waiting for the API's rate limit on POST /organizations/{org_id}/api_keys (other clients share it)...`.
 *
 * The memory of what was reported is process-wide: several resources may wait on the same
 * operation (a queued create waiting out another's work), and each change is still reported once.
 */
import type { ClientEvent } from "../../client";
import { inProviderHost } from "./engineWatch";

/** Where lines go: stdout, or the engine's log (see {@link setHostLineWriter}). */
export type LineWriter = (line: string) => void;

interface Seen {
  /** Epoch ms the operation was first seen in this process. */
  since: number;
  /** The last state seen. */
  last: string;
  /** Whether a line was written for it. */
  shown: boolean;
}

/**
 * An operation that ends within this long gets no line: most finish in about a second, and a line
 * per state of each would bury the steps in a CI log. Past it, the current state is written, then
 * every change.
 */
export const QUIET_MS = 2_000;

/** A route with no rate-limited retry for this long has left its spell of 429s: the next long wait gets a line. */
export const RATE_LIMIT_SPELL_GAP_MS = 30_000;

/** Statuses after which an operation never changes again. */
const ENDED: ReadonlySet<string> = new Set(["finished", "skipped", "cancelled", "error"]);

const MEMORY = Symbol.for("pulumi-clouddb.progress");
/** A route's current spell of 429s: when its last rate-limited retry was, and whether it got its line. */
interface Spell {
  lastAt: number;
  shown: boolean;
}

type Memory = { operations: Map<string, Seen>; locked: Map<string, string>; limited: Map<string, Spell> };
type Holder = { [MEMORY]?: Memory };

function memory(): Memory {
  const holder = globalThis as Holder;
  holder[MEMORY] ??= { operations: new Map(), locked: new Map(), limited: new Map() };
  // A memory made by an older copy of this module lacks the newer maps.
  holder[MEMORY].limited ??= new Map();
  return holder[MEMORY];
}

/** Forgets what was reported (tests). */
export function forgetProgress(): void {
  memory().operations.clear();
  memory().locked.clear();
  memory().limited.clear();
}

const WRITER = Symbol.for("pulumi-clouddb.hostLineWriter");
type WriterHolder = { [WRITER]?: LineWriter | undefined };

/**
 * Sets where this process's lines for the user go: the provider plugin sends them to the engine's
 * `Log` (the engine keeps a resource plugin's stdout out of sight); the dynamic-provider host keeps
 * the default, stdout, which the engine shows as the stack's info messages.
 */
export function setHostLineWriter(write: LineWriter | undefined): void {
  (globalThis as WriterHolder)[WRITER] = write;
}

/** Writes `line` for the user, where {@link setHostLineWriter} says (stdout by default). */
export function hostLine(line: string): void {
  const write = (globalThis as WriterHolder)[WRITER];
  if (write !== undefined) write(line);
  else process.stdout.write(`${line}\n`);
}

/**
 * The progress listener for this process: lines for the user in a provider host (Pulumi's
 * dynamic-provider host or the provider plugin), where the engine shows them; none elsewhere (a
 * program's or a test's own process).
 */
export function hostProgressListener(): ((event: ClientEvent) => void) | undefined {
  return inProviderHost() ? progressListener(hostLine) : undefined;
}

/** An event listener writing one line per state change of an awaited operation (and per wait on a busy project). */
export function progressListener(
  write: LineWriter = (line) => process.stdout.write(`${line}\n`),
  now: () => number = Date.now,
): (event: ClientEvent) => void {
  return (event) => {
    const line = progressLine(event, now());
    if (line !== undefined) write(line);
  };
}

/** The line for `event` at `at` (epoch ms), or undefined when it changes nothing worth a line. */
export function progressLine(event: ClientEvent, at: number): string | undefined {
  if (event.type === "operation") {
    const state =
      event.failuresCount > 0 ? `${event.status}, ${event.failuresCount} failure(s) so far` : event.status;
    const { operations } = memory();
    const seen = operations.get(event.operationId);
    // A wait handed an older copy of an operation already ended says nothing new.
    if (seen !== undefined && ENDED.has(seen.last)) return undefined;
    const since = seen?.since ?? at;
    const show = seen?.shown === true ? seen.last !== state : at - since >= QUIET_MS;
    operations.set(event.operationId, { since, last: state, shown: (seen?.shown ?? false) || show });
    if (!show) return undefined;
    const on =
      event.endpointId !== undefined && event.branchId !== undefined
        ? `${event.endpointId} of ${event.branchId}`
        : (event.endpointId ?? event.branchId ?? `project ${event.projectId}`);
    return `${event.action} ${event.operationId} on ${on}: ${state} (${Math.floor((at - since) / 1000)}s)`;
  }
  if (event.type === "retry" && event.rule === "rate-limited") {
    const route = `${event.method} ${event.pathTemplate}`;
    const { limited } = memory();
    const spell = limited.get(route);
    const current = spell !== undefined && at - spell.lastAt < RATE_LIMIT_SPELL_GAP_MS ? spell : undefined;
    const show = current?.shown !== true && event.elapsedMs + event.delayMs >= QUIET_MS;
    limited.set(route, { lastAt: at, shown: (current?.shown ?? false) || show });
    if (!show) return undefined;
    return `waiting for the API's rate limit on ${route} (other clients share it)...`;
  }
  if (event.type === "locked-wait") {
    const waiting = event.pendingOperationIds.join(", ");
    const { locked } = memory();
    if (locked.get(event.projectId) === waiting) return undefined;
    locked.set(event.projectId, waiting);
    return `project ${event.projectId} is busy: waiting for ${event.pendingOperationIds.length} operation(s) to finish (${waiting})`;
  }
  return undefined;
}
