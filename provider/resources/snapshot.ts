import { z } from "zod";
import type { Snapshot as ApiSnapshot } from "../client";
import { NotFoundError } from "../client/errors";
import { SnapshotCreateResponseSchema } from "../client/schemas";
import { expiresAtInput, sameInstant } from "./expiry";
import { DeleteProtectionInput, idInput, ProjectOfBranchInput, TimeoutsInput } from "./inputs/common";
import { lsnInput, pastTimestampInput } from "./inputs/history";
import { declaredInputs } from "./lifecycle/check";
import { createdSince, defineResource, type Same, type Step } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import { openOperations } from "./lifecycle/openOperations";
import { createKeyOf, markedLabel } from "./lifecycle/owner";
import { maskedPointFind, SNAPSHOT_POINT } from "./maskedHistory";
import { SNAPSHOT, type SnapshotInputs, type SnapshotOutputs } from "./public/snapshot";
import { carrierOf } from "./restores";

export type { SnapshotInputs, SnapshotOutputs } from "./public/snapshot";

// ---------------------------------------------------------------- inputs

/** Inputs as the provider sees them. */
export const SnapshotInputsSchema = z
  .object({
    projectId: ProjectOfBranchInput,
    branchId: idInput("branchId", "branch", "the branch to snapshot (br-...)"),
    name: z
      .string({ error: "name must be a non-empty string: the snapshot's name" })
      .trim()
      .min(1, "name must be a non-empty string: the snapshot's name"),
    timestamp: pastTimestampInput("timestamp", "give a point in the branch's past, or leave it out for now"),
    lsn: lsnInput("lsn"),
    expiresAt: expiresAtInput("snapshots", {
      instead: "set a later time, or leave expiresAt out for a snapshot kept until it is deleted",
    }),
    deleteProtection: DeleteProtectionInput,
    timeouts: TimeoutsInput,
  })
  .refine((inputs) => inputs.timestamp === undefined || inputs.lsn === undefined, {
    path: ["lsn"],
    message:
      "give either timestamp or lsn, not both: both pick the point in the branch's history to snapshot",
  });

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof SnapshotInputsSchema>, SnapshotInputs>;

// ---------------------------------------------------------------- API calls

/** A snapshot of a branch, now or at a point of its history. */
export const snapshotDefinition = defineResource<SnapshotInputs, SnapshotOutputs>(SNAPSHOT, {
  // A snapshot outlives its branch, but a program that snapshots a Branch depends on it, so the
  // engine deletes the snapshot first: a destroy refused at the branch must not have lost it.
  onBranch: ({ projectId, branchId }) => ({ projectId, branchId }),
  inputs: SnapshotInputsSchema,
  id: (outs) => outs.snapshotId,
  // A point of an anonymized branch's history is taken only where its data is known to be masked.
  finds: (inputs, olds) =>
    Object.keys(olds).length > 0
      ? []
      : [
          maskedPointFind(
            inputs.projectId,
            inputs.branchId,
            { timestamp: inputs.timestamp, lsn: inputs.lsn },
            SNAPSHOT_POINT,
          ),
        ],

  /** Takes the snapshot under the name and this resource's mark, and waits for its operations. */
  async create({ client, deadline, createKey }, inputs) {
    const made = await client.createSnapshot(
      inputs.projectId,
      inputs.branchId,
      {
        name: markedLabel(inputs.name, createKey),
        timestamp: inputs.timestamp,
        lsn: inputs.lsn,
        expires_at: inputs.expiresAt,
      },
      { deadline },
    );
    return outputsOf(inputs, inputs.branchId, made.snapshot, made.operations);
  },

  // The snapshot was taken but the wait for its operation failed: recorded, the next `up` waits again.
  created(inputs, response) {
    const made = SnapshotCreateResponseSchema.safeParse(response);
    return made.success
      ? outputsOf(inputs, inputs.branchId, made.data.snapshot, made.data.operations)
      : undefined;
  },

  /** The snapshot a killed run took for this resource carries its mark: it is taken, never a second one. */
  async findOwn({ client, deadline }, inputs, key) {
    const found = (await client.listSnapshots(inputs.projectId)).find(
      (s) => s.name === markedLabel(inputs.name, key) && s.source_branch_id === inputs.branchId,
    );
    if (found === undefined) return undefined;
    const ops = await openOperations(client, inputs.projectId, (op) => op.branch_id === inputs.branchId);
    await client.waitForOperations(inputs.projectId, ops, { deadline });
    return outputsOf(inputs, inputs.branchId, found, []);
  },

  /** Snapshots are not unique by name: the one of this name on the branch taken since the request is ours. */
  async findLost({ client, createKey }, inputs, startedAt) {
    const found = (await client.listSnapshots(inputs.projectId).catch(() => [])).find(
      (s) =>
        s.name === markedLabel(inputs.name, createKey) &&
        s.source_branch_id === inputs.branchId &&
        Date.parse(s.created_at) >= createdSince(startedAt),
    );
    return found === undefined ? undefined : outputsOf(inputs, inputs.branchId, found, []);
  },

  /** The project's snapshot `snapshotId` as it is now, named as the service names it. */
  async readExisting({ client }, inputs, snapshotId) {
    const found = await findSnapshot(client, inputs.projectId, snapshotId);
    const branchId = await carrierOf(client, inputs.projectId, found.source_branch_id ?? "");
    return outputsOf({ ...inputs, branchId, name: found.name }, branchId, found, []);
  },

  /** The snapshot as it is; its branch is the one that carries the snapshot's branch now. */
  async read({ client }, snapshotId, props) {
    if (props === undefined) return undefined;
    const found = (await client.cached.listSnapshots(props.projectId)).find((s) => s.id === snapshotId);
    if (found === undefined) return undefined;
    const branchId = await carrierOf(client, props.projectId, props.branchId);
    const declared = markedLabel(props.name, createKeyOf(props));
    return {
      ...props,
      branchId,
      name: found.name === declared ? props.name : found.name,
      expiresAt: found.expires_at ?? null,
    };
  },

  /** One PATCH of the name and expiry; left out, an expiry stays as it is. */
  async update({ client, createKey }, snapshotId, outs, olds, news) {
    const name = news.name === olds.name ? undefined : markedLabel(news.name, createKeyOf(olds) ?? createKey);
    const expires =
      news.expiresAt !== undefined && !sameInstant(news.expiresAt, olds.expiresAt)
        ? news.expiresAt
        : undefined;
    if (name === undefined && expires === undefined) return outs;
    const changed = await client.updateSnapshot(outs.projectId, snapshotId, {
      snapshot: { name, expires_at: expires },
    });
    return { ...outs, expiresAt: changed.expires_at ?? null };
  },

  async remove({ client, deadline }, snapshotId, props) {
    await client.deleteSnapshot(props.projectId, snapshotId, { deadline });
  },
});

/** The project's snapshot `snapshotId`; the client's not-found error when there is none. */
async function findSnapshot(
  client: Step["client"],
  projectId: string,
  snapshotId: string,
): Promise<ApiSnapshot> {
  const found = (await client.listSnapshots(projectId)).find((s) => s.id === snapshotId);
  if (found !== undefined) return found;
  throw new NotFoundError(
    `snapshot ${snapshotId} is not among project ${projectId}'s snapshots: check the id (snap-...) with \`neonctl snapshots list\``,
  );
}

function outputsOf(
  inputs: SnapshotInputs,
  branchId: string,
  snapshot: ApiSnapshot,
  operations: readonly { id: string }[],
): SnapshotOutputs {
  return {
    ...declaredInputs<SnapshotInputs>(SnapshotInputsSchema, inputs),
    branchId,
    snapshotId: snapshot.id,
    takenAtLsn: snapshot.lsn ?? null,
    takenAt: snapshot.timestamp ?? null,
    expiresAt: snapshot.expires_at ?? null,
    createdAt: snapshot.created_at,
    operationIds: operations.map((op) => op.id),
    pendingOperationIds: [],
  };
}

// The provider's methods, which the kinds' table (`methodsTable.ts`) serves.
export const { configure, check, diff, create, read, update, remove } = providerMethods(snapshotDefinition);
