/**
 * Failures the resource layer raises itself, next to the client's `ApiError`s it passes through.
 *
 * Pulumi loads provider code from the state, so several copies of these classes can live in one
 * process: recognise them with `isResourceError` / `isPartialFailure` (a `Symbol.for` marker), never
 * `instanceof`. When the failure comes from an API answer, the error keeps that answer's status and
 * request id. Messages never hold a key: they are built from ids, names and the client's own
 * (already scrubbed) messages.
 */

import type { ApiError } from "../client/errors";
import { isApiError, isOperationFailed } from "../client/errors";
import { labelOf } from "./lifecycle/define";
import type { CommonState } from "./lifecycle/state";

/** Marker present (value `true`) on every error of the resource layer, across module copies. */
export const RESOURCE_ERROR_MARKER: unique symbol = Symbol.for("pulumi-clouddb.resourceError") as never;

/** What went wrong, as a word callers can switch on. */
export type ResourceErrorKind =
  /** The object exists but did not finish initializing; it is recorded in the state. */
  | "PartialFailure"
  /** `adoptExisting` names an object that is missing or differs from the declared inputs. */
  | "NotAdoptable"
  /** A read without state: the object cannot be imported. */
  | "NotImportable"
  /** An object the inputs name is not where they say (a snapshot of another project, an unassigned VPC endpoint). */
  | "Missing"
  /** The API refused the delete, or `deleteProtection` is on. */
  | "DeleteRefused"
  /**
   * A planned change the service cannot make (turning logical replication off): refused at preview;
   * or one on a branch a restore outside the stack replaced: refused before any write.
   */
  | "ChangeRefused"
  /** The API made something other than what was asked; it was undone. */
  | "UnexpectedObject"
  /** An operation the object depends on ended in failure: the object may be unusable. */
  | "Unusable"
  /** The operation that makes the object ended cancelled or in error: it was never made, and is deleted. */
  | "Unmade"
  /** A create's answer was lost; what it made was found and undone. */
  | "LostAnswer"
  /** A reset was asked of an object that has nothing to reset from. */
  | "NotResettable"
  /** The name is taken by an object this resource did not create. */
  | "NameTaken"
  /** The API refused the API key the run was given (401), and no other key was at hand. */
  | "KeyRefused"
  /** A create was asked of an unnamed object whose name `check` did not generate (no URN was sent). */
  | "NameMissing";

/** Base of the resource layer's errors. `cause` is the client error behind it, when there is one. */
export class ResourceError extends Error {
  readonly [RESOURCE_ERROR_MARKER] = true as const;
  readonly kind: ResourceErrorKind;
  /** HTTP status of the API answer behind the failure, when there was one. */
  readonly status: number | undefined;
  /** The API's request id of that answer, for support. */
  readonly requestId: string | undefined;

  constructor(kind: ResourceErrorKind, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = kind === "PartialFailure" ? "PartialFailure" : `${kind}Error`;
    this.kind = kind;
    this.status = isApiError(cause) ? cause.status : undefined;
    this.requestId = isApiError(cause) ? cause.requestId : undefined;
    // Pulumi's dynamic-provider host prints `${error}: ${error.stack}` for a failed check, diff, read
    // or delete. The message explains itself and stack frames point into this package's build, so
    // that line carries the name and the message once, and no frames.
    this.stack = "";
  }
}

/**
 * The object exists but did not finish initializing. Pulumi's dynamic provider host records `id` and
 * `properties` in the state (with `reasons` as initialization errors) instead of orphaning the object;
 * the next `pulumi up` calls `update`, which resumes. Only this error may carry an `id`: the host
 * treats any error with one as a partial failure.
 */
export class PartialFailure extends ResourceError {
  readonly id: string;
  readonly properties: Record<string, unknown>;
  readonly reasons: string[];
  constructor(id: string, properties: Record<string, unknown>, reasons: string[], cause?: unknown) {
    super("PartialFailure", reasons.join("; "), cause);
    this.id = id;
    this.properties = properties;
    this.reasons = reasons;
  }
}

/** True for any error of the resource layer (any copy of it). */
export function isResourceError(e: unknown): e is ResourceError {
  return (
    typeof e === "object" && e !== null && (e as Record<PropertyKey, unknown>)[RESOURCE_ERROR_MARKER] === true
  );
}

/** True for a partial failure: the object exists and is recorded, but did not finish. */
export function isPartialFailure(e: unknown): e is PartialFailure {
  return isResourceError(e) && e.kind === "PartialFailure";
}

/**
 * The 404 of a call whose object the inputs name, when the 404 means `what` (its real cause), not an
 * object deleted outside Pulumi; `next` says what to change. Other errors pass through.
 */
export function missingNamed(err: unknown, what: string, next: string): unknown {
  if (!isApiError(err) || err.status !== 404) return err;
  const id = err.requestId === undefined ? "" : `, request id ${err.requestId}`;
  return new ResourceError("Missing", `${what} (404 Not Found${id}): ${next}`, err);
}

/** The message of any thrown value. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The partial failure for an object that was created (`outs`) while a later step failed (`err`): its
 * started operations become pending, and the reason says how the next `up` goes on.
 */
export function unfinished(
  noun: string,
  id: string,
  inputs: object,
  outs: CommonState,
  err: unknown,
  how = "",
): PartialFailure {
  const where = outs.projectId === undefined ? "" : ` in project ${outs.projectId}`;
  // An operation that ended (cancelled, error) is never waited for again: the next run judges it.
  const next = isOperationFailed(err)
    ? "the next `pulumi up` looks at its operations again: it finishes the " +
      `${noun} if it works without the failed one, and otherwise says what it did and what to run`
    : "the next `pulumi up` waits for its operations again";
  return new PartialFailure(
    id,
    { ...inputs, ...outs, pendingOperationIds: outs.operationIds ?? [] },
    [
      `${labelOf(noun, id, outs)} was created${where}${how} but did not finish: ${messageOf(err)}. ` +
        `It is recorded in the state; ${next}.`,
    ],
    err,
  );
}

/**
 * The 409 of a role, database or bucket whose name the program gave: the API cannot mark such an object,
 * so one of that name is never taken. It may be this resource's own, made by a create that a killed
 * run cut off before recording it (then `adoptExisting` takes it), or someone else's.
 */
export function unprovenNameConflict(
  noun: "role" | "database" | "bucket",
  inputs: { projectId: string; branchId: string; name?: string | undefined },
  err: ApiError,
): ResourceError {
  const name = inputs.name ?? "";
  const id = err.requestId === undefined ? "" : `; request id ${err.requestId}`;
  return new ResourceError(
    "NameTaken",
    `a ${noun} named "${name}" already exists on branch ${inputs.branchId} in project ${inputs.projectId}, ` +
      `and nothing proves this resource made it (a ${noun} named in the program carries no mark): either ` +
      `it was made outside this stack, or by an earlier run of this resource that was killed before ` +
      `recording it. If it is this resource's, add adoptExisting: "${name}" and run \`pulumi up\` again; ` +
      `otherwise give this resource another name, or omit name for a generated one (API: ${err.message}${id})`,
    err,
  );
}

/** The name of a role, database, bucket or trigger: the program's, or the one `check` generated from its URN. */
export function nameOf(
  noun: "role" | "database" | "bucket" | "trigger",
  inputs: { name?: string | undefined },
): string {
  return givenOrGenerated(noun, "name", inputs.name);
}

/** The value of the input `field` that names an object: the program's, or the one `check` generated. */
export function givenOrGenerated(noun: string, field: "name" | "slug", value: string | undefined): string {
  if (value !== undefined) return value;
  throw new ResourceError(
    "NameMissing",
    `the ${noun} has no ${field}, and none was generated because the resource's URN was not sent: give it a ${field}`,
  );
}
