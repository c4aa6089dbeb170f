/**
 * The public part of {@link Snapshot}: its declaration, and the class and types derived from it. The
 * definition (inputs schema, API calls) is `../snapshot.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { TIMEOUTS_INPUT } from "./common";
import { arrayOf, BOOLEAN, declareResource, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf } from "./shapes";

/** A snapshot of a branch, declared. */
export const SNAPSHOT = declareResource({
  type: "Snapshot",
  noun: "snapshot",
  family: "snapshots",
  importId: ["projectId", "snapshotId"],
  inputs: {
    /** The project of the branch. Changing it replaces the snapshot. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** The branch the snapshot is taken of. Changing it takes a new snapshot. */
    branchId: { type: STRING, required: true, change: "replace" },
    /** The snapshot's name (the service stores it with a short mark of the resource after ` #`); changes in place. */
    name: { type: STRING, required: true, change: "update" },
    /** Take it at this point of the branch's history (RFC 3339) instead of now. Changing it takes a new snapshot. */
    timestamp: { type: STRING, change: "replace" },
    /** Take it at this LSN of the branch's history instead of now. Changing it takes a new snapshot. */
    lsn: { type: STRING, change: "replace" },
    /** When the service deletes the snapshot (RFC 3339); changes in place. Left out, it is kept until deleted. */
    expiresAt: { type: STRING, change: "update" },
    /** When true, deleting the snapshot fails until it is set back to false. */
    deleteProtection: { type: BOOLEAN, change: "update" },
    /** Bounds on operation waits, in seconds; default `clouddb:operationTimeoutSeconds`, else 20 minutes. */
    timeouts: TIMEOUTS_INPUT,
  },
  outputs: {
    /** The project id. */
    projectId: { type: STRING },
    /** The branch that carries the snapshot's branch now (a finalized restore may have swapped it). */
    branchId: { type: STRING },
    /** The snapshot's name, as declared. */
    name: { type: STRING },
    /** The snapshot's id (`snap-...`), what a restore names. */
    snapshotId: { type: STRING },
    /** The point of the branch's history it holds, as an LSN (null when the API did not say). */
    takenAtLsn: { type: STRING, nullable: true },
    /** The point of the branch's history it holds, as a time (null when the API did not say). */
    takenAt: { type: STRING, nullable: true },
    /** When the service deletes it; null when it is kept until deleted. */
    expiresAt: { type: STRING, nullable: true },
    /** Creation time, ISO 8601 UTC. */
    createdAt: { type: STRING },
    /** Ids of the operations the create started. */
    operationIds: { type: arrayOf(STRING) },
    /** Operations an earlier run stopped waiting for; the next `up` waits for them. */
    pendingOperationIds: { type: arrayOf(STRING) },
  },
});

/** Inputs of a {@link Snapshot}. */
export interface SnapshotArgs extends ArgsOf<typeof SNAPSHOT> {}

/** The plain inputs as the provider sees them. */
export interface SnapshotInputs extends InputsOf<typeof SNAPSHOT> {}

/** Everything the state records of a snapshot. */
export interface SnapshotOutputs extends StateOf<typeof SNAPSHOT> {}

/** The dynamic provider of {@link Snapshot}: it loads `snapshot` when called (see `lazyProvider`). */
export const snapshotProvider: pulumi.dynamic.ResourceProvider<SnapshotInputs, SnapshotOutputs> =
  lazyProvider(SNAPSHOT.type);

// The class's fields: one Output per declared output.
export interface Snapshot extends OutputFields<typeof SNAPSHOT> {}

/**
 * A snapshot of a branch (now, or at a point of its history), kept until deleted or until it
 * expires; a Branch's `restore: { snapshotId }` restores it in place.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class Snapshot extends DynamicResource {
  constructor(name: string, args: SnapshotArgs, opts?: pulumi.CustomResourceOptions) {
    super(SNAPSHOT, name, args, opts);
  }
}
