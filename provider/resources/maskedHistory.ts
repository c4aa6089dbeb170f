/**
 * Points of an anonymized branch's history (docs/api-rules.md §16). Such a branch is made as a copy
 * of its parent's data and masked afterwards, so its history holds that data unmasked until its
 * masking run completes (and again from a reset or restore until the next run). A child branch, a
 * snapshot or a restore taken there would hand it out, and the service does not refuse them: the
 * provider does, in `check` (a `rule` find, see `lifecycle/preflight.ts`), at preview when the
 * branch's id is known and otherwise when the engine checks the resource again at `up` with it,
 * before any create request. The first point known to be masked is the second after the last
 * successful run's `completed_at` (the status gives it to the second).
 */
import type { AnonymizedStatus, CloudDbClient } from "../client";
import { isApiError } from "../client";
import { sameRestore } from "./branchRestore";
import { messageOf, ResourceError } from "./errors";
import { ruleFind } from "./finds";
import { isUnknown } from "./lifecycle/check";
import { CREATED_BY, createKeyOf } from "./lifecycle/owner";
import type { Find } from "./lifecycle/preflight";
import type { BranchInputs, BranchRestore } from "./public/branch";
import { carrierIn } from "./restores";

/** A point of a branch's history: its head (neither), a time or an LSN. */
export interface HistoryPoint {
  timestamp?: string | undefined;
  lsn?: string | undefined;
}

/** How a refusal names what takes the point: its inputs, and what would be made from it. */
export interface PointUse {
  /** The input a failure names for the head, a time and an LSN (`parentId`, `parentTimestamp`, `parentLsn`). */
  head: string;
  timestamp: string;
  lsn: string;
  /** The top-level input every failure names instead, when the others are nested (`restore`). */
  property?: string;
  /** `a branch made from it`. */
  made: string;
  /** What to do instead of a point: `leave it out to branch from its head`. */
  instead: string;
}

/** A child branch's parent point. */
const CHILD: PointUse = {
  head: "parentId",
  timestamp: "parentTimestamp",
  lsn: "parentLsn",
  made: "a branch made from it",
  instead: "leave it out to branch from its head",
};
/** A reset of a child from its parent's head. */
const RESET: PointUse = { ...CHILD, head: "resetTrigger", made: "a reset from it" };
/** A restore of a branch from a point of its own history. */
const RESTORE: PointUse = {
  head: "restore",
  timestamp: "restore.timestamp",
  lsn: "restore.lsn",
  property: "restore",
  made: "a restore from it",
  instead: "restore from a snapshot taken after it",
};
/** A snapshot's point. */
export const SNAPSHOT_POINT: PointUse = {
  head: "branchId",
  timestamp: "timestamp",
  lsn: "lsn",
  made: "a snapshot of it",
  instead: "leave it out to snapshot its head",
};

/** The first point of the branch's history known to be masked, as RFC 3339; undefined when none is. */
export function firstSafePoint(status: AnonymizedStatus): string | undefined {
  if (status.state !== "anonymized") return undefined;
  const done = Date.parse(status.last_run?.completed_at ?? "");
  if (Number.isNaN(done)) return undefined;
  return new Date(Math.floor(done / 1000) * 1000 + 1000).toISOString().replace(/\.000Z$/, "Z");
}

/** The input that names `point` for `use`. */
function inputOf(point: HistoryPoint, use: PointUse): string {
  if (point.lsn !== undefined) return use.lsn;
  return point.timestamp !== undefined ? use.timestamp : use.head;
}

/** Why the branch's data is not masked now, from its status. */
function notMasked(status: AnonymizedStatus): string {
  const said = status.status_message === undefined ? "" : `: ${status.status_message}`;
  switch (status.state) {
    case "anonymizing":
      return `its masking run is still under way (${status.state}${said}); run \`pulumi up\` again once it has completed`;
    case "error":
    case "initialization_error":
      return (
        `its last masking run failed (${status.state}${said}); fix its maskingRules (or change its ` +
        "anonymizeTrigger) and run `pulumi up` so that a run completes"
      );
    default:
      return (
        `it has not been masked since it was made, reset or restored (${status.state}${said}); ` +
        "mask it (a new anonymizeTrigger) and run `pulumi up`"
      );
  }
}

/**
 * The reason to refuse `point` of anonymized branch `branchId` (whose status is `status`) for `use`;
 * undefined when the data there is known to be masked.
 */
export function unmaskedPointReason(
  status: AnonymizedStatus,
  branchId: string,
  point: HistoryPoint,
  use: PointUse,
): string | undefined {
  const branch = `anonymized branch ${branchId}`;
  const name = inputOf(point, use);
  const safe = firstSafePoint(status);
  const before = "before its masking run completed, it held its parent's data unmasked";
  if (status.state !== "anonymized") {
    return point.timestamp === undefined && point.lsn === undefined
      ? `${name}: ${branch}'s data is not masked now, and ${use.made} would get its parent's data unmasked: ${notMasked(status)}`
      : `${name}: no point of ${branch}'s history is known to be masked (${before}): ${notMasked(status)}; ` +
          `then give a ${use.timestamp} at or after the time that run completed, or ${use.instead}`;
  }
  if (point.timestamp === undefined && point.lsn === undefined) return undefined;
  if (safe === undefined) {
    return (
      `${name}: the service gives no completion time of ${branch}'s masking run, so no point of its history is known ` +
      `to be masked (${before}): ${use.instead}`
    );
  }
  if (point.lsn !== undefined) {
    return (
      `${use.lsn}: ${point.lsn} is a point of ${branch}'s history, and an LSN cannot be placed in time from the API, ` +
      `so whether its data was masked there cannot be told (${before}). Use ${use.timestamp} at or after ${safe}, ` +
      `the first safe point (its last masking run completed just before it), or ${use.instead}`
    );
  }
  if (!(Date.parse(point.timestamp ?? "") < Date.parse(safe))) return undefined;
  return (
    `${use.timestamp}: ${point.timestamp} is before ${safe}, the first point of ${branch}'s history whose data is ` +
    `known to be masked (${before}), and ${use.made} would get that data. Give a ${use.timestamp} at or after ` +
    `${safe}, or ${use.instead}`
  );
}

/**
 * The reason to refuse `point` of branch `branchId` for `use`, read from the service; undefined when
 * it may be taken. A branch the service keeps no status of (it refuses with a 4xx) is not anonymized;
 * a status that cannot be read (the client's retries spent) refuses: nothing is taken unless known masked.
 */
export async function maskedHistoryRefusal(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
  point: HistoryPoint,
  use: PointUse,
): Promise<string | undefined> {
  let status: AnonymizedStatus;
  try {
    status = await client.getAnonymizedStatus(projectId, branchId);
  } catch (err) {
    if (!isApiError(err)) throw err;
    const code = err.status ?? 0;
    if (code >= 400 && code < 500 && code !== 423 && code !== 429) return undefined;
    return (
      `${inputOf(point, use)}: whether branch ${branchId} is an anonymized branch whose data is masked there could ` +
      `not be read (${messageOf(err)}), and nothing is taken from one unless its data is known to be masked: run again`
    );
  }
  return unmaskedPointReason(status, branchId, point, use);
}

/** Whether every value is known (a value still unknown at preview is checked when `check` runs again at `up`). */
function allKnown(...values: (string | undefined)[]): boolean {
  return values.every((value) => value === undefined || (value !== "" && !isUnknown(value)));
}

/** The find that refuses taking `point` of branch `branchId` for `use` when it is not known to be masked. */
export function maskedPointFind(
  projectId: string,
  branchId: string | undefined,
  point: HistoryPoint,
  use: PointUse,
): Find | undefined {
  if (branchId === undefined || !allKnown(projectId, branchId, point.timestamp, point.lsn)) return undefined;
  return ruleFind({
    property: use.property ?? inputOf(point, use),
    key: `masked history ${projectId} ${branchId} ${use.head} ${point.timestamp ?? ""} ${point.lsn ?? ""}`,
    about: `branch ${branchId}`,
    ids: [projectId, branchId, point.timestamp, point.lsn],
    read: (client) => maskedHistoryRefusal(client, projectId, branchId, point, use),
  });
}

/**
 * The finds of a planned Branch create or update (`olds` empty for a create) that take a point of
 * an anonymized branch's history: a child at its parent's head or a point of it, a reset of a child
 * from its parent, and a restore of the branch from a point of its own history.
 */
export function branchHistoryFinds(inputs: BranchInputs, olds: Partial<BranchInputs>): (Find | undefined)[] {
  const create = Object.keys(olds).length === 0;
  const { projectId, parentId } = inputs;
  const finds: (Find | undefined)[] = [];
  if (create) {
    finds.push(
      maskedPointFind(
        projectId,
        parentId,
        { timestamp: inputs.parentTimestamp, lsn: inputs.parentLsn },
        CHILD,
      ),
    );
  } else if (inputs.resetTrigger !== undefined && inputs.resetTrigger !== olds.resetTrigger) {
    finds.push(maskedPointFind(projectId, parentId, {}, RESET));
  }
  const restore = inputs.restore;
  if (
    !create &&
    restore !== undefined &&
    restore.snapshotId === undefined &&
    !sameRestore(restore, olds.restore)
  ) {
    finds.push(restoreFind(projectId, inputs, olds, restore));
  }
  return finds;
}

/**
 * A restore from a point of the branch's own history. `check` is not given the branch's id, so the
 * read finds it as a create after a killed run does: by its create key's mark (following a restore
 * finalized outside), else the id it was adopted by, else its name; one not found is checked by the
 * update itself (`refuseUnmaskedRestore`).
 */
function restoreFind(
  projectId: string,
  inputs: BranchInputs,
  olds: Partial<BranchInputs>,
  restore: BranchRestore,
): Find | undefined {
  const key = createKeyOf(olds);
  const name = olds.name ?? inputs.name;
  if (!allKnown(projectId, key, olds.adoptExisting, name, restore.timestamp, restore.lsn)) return undefined;
  const point = { timestamp: restore.timestamp, lsn: restore.lsn };
  return ruleFind({
    property: "restore",
    key: `masked history restore ${projectId} ${key ?? ""} ${olds.adoptExisting ?? ""} ${name ?? ""} ${point.timestamp ?? ""} ${point.lsn ?? ""}`,
    about: `the branches of project ${projectId}`,
    ids: [projectId, key, olds.adoptExisting, name, point.timestamp, point.lsn],
    read: async (client) => {
      const { branches, annotations } = await client.listAnnotatedBranches(projectId);
      const marked =
        key === undefined ? undefined : branches.find((b) => annotations.get(b.id)?.[CREATED_BY] === key);
      const id = marked?.id ?? olds.adoptExisting ?? branches.find((b) => b.name === name)?.id;
      if (id === undefined) return undefined;
      return maskedHistoryRefusal(client, projectId, carrierIn(branches, id), point, RESTORE);
    },
  });
}

/**
 * Refuses, before anything is sent, a restore of branch `id` from a point of its own history that
 * is not known to be masked (the check `check` makes, for a branch it could not find).
 */
export async function refuseUnmaskedRestore(
  client: CloudDbClient,
  projectId: string,
  id: string,
  restore: BranchRestore,
): Promise<void> {
  if (restore.snapshotId !== undefined) return;
  const reason = await maskedHistoryRefusal(
    client,
    projectId,
    id,
    { timestamp: restore.timestamp, lsn: restore.lsn },
    RESTORE,
  );
  if (reason !== undefined) throw new ResourceError("ChangeRefused", reason);
}
