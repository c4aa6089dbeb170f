import { z } from "zod";
import type { Database as ApiDatabase } from "../client";
import { isConflict } from "../client/errors";
import { DatabaseOperationsSchema } from "../client/schemas";
import { nameOf, unprovenNameConflict } from "./errors";
import {
  adoptInput,
  DeleteProtectionInput,
  ProjectOfBranchInput,
  postgresNameInput,
  requiredId,
  TimeoutsInput,
} from "./inputs/common";
import { declaredInputs } from "./lifecycle/check";
import { compact, createdSince, defineResource, type Same, type Step } from "./lifecycle/define";
import { isGeneratedWith } from "./lifecycle/owner";
import { DATABASE, type DatabaseInputs, type DatabaseOutputs } from "./public/database";
import { carrierOf, wasRestoredHere } from "./restores";

export type { DatabaseInputs, DatabaseOutputs } from "./public/database";

// ---------------------------------------------------------------- inputs

/** Inputs as the provider sees them. */
export const DatabaseInputsSchema = z.object({
  projectId: ProjectOfBranchInput,
  branchId: requiredId("branchId", "the branch the database is on (br-...)"),
  name: postgresNameInput("database"),
  ownerName: requiredId("ownerName", "the role that owns the database (declare it with a Role)"),
  adoptExisting: adoptInput("database (its name on the branch)"),
  deleteProtection: DeleteProtectionInput,
  timeouts: TimeoutsInput,
});

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof DatabaseInputsSchema>, DatabaseInputs>;

// ---------------------------------------------------------------- API calls

/** A Postgres database on a branch, owned by a role. */
export const databaseDefinition = defineResource<DatabaseInputs, DatabaseOutputs>(DATABASE, {
  onBranch: ({ projectId, branchId }) => ({ projectId, branchId }),
  inputs: DatabaseInputsSchema,
  // Left out, the name is generated from the resource's name and create key (`lifecycle/owner.ts`).
  generatesName: true,
  // The API addresses a database by name, which changes in place: the state's id is the numeric one.
  id: (outs) => (outs.databaseId === null ? `${outs.branchId}/${outs.name}` : String(outs.databaseId)),

  /**
   * Creates the database. A name generated with this create key that is taken was taken by a
   * killed run of this resource: that database is taken (its owner brought to the declared one). A
   * name the program gave carries no such proof, so it is refused with what to do.
   */
  async create(step, inputs) {
    const { client, deadline, createKey } = step;
    const name = nameOf("database", inputs);
    try {
      const made = await client.createDatabase(
        inputs.projectId,
        inputs.branchId,
        { database: { name, owner_name: inputs.ownerName } },
        { deadline },
      );
      return outputsOf(inputs, made.database, made.operations);
    } catch (err) {
      if (!isConflict(err)) throw err;
      if (createKey === undefined || !isGeneratedWith(name, createKey))
        throw unprovenNameConflict("database", inputs, err);
    }
    const found = await client.getDatabase(inputs.projectId, inputs.branchId, name);
    const wanted = outputsOf(inputs, found, []);
    return renamed(step, wanted, { ...wanted, ownerName: found.owner_name ?? "" });
  },

  created(inputs, response) {
    const made = DatabaseOperationsSchema.safeParse(response);
    return made.success ? outputsOf(inputs, made.data.database, made.data.operations) : undefined;
  },

  /** Database names are unique per branch: one of this name created since the request is ours. */
  async findLost({ client }, inputs, startedAt) {
    const found = await client
      .listDatabases(inputs.projectId, inputs.branchId)
      .then((databases) => databases.find((d) => d.name === nameOf("database", inputs)))
      .catch(() => undefined);
    if (found === undefined || !(Date.parse(found.created_at ?? "") >= createdSince(startedAt)))
      return undefined;
    return outputsOf(inputs, found, []);
  },

  /** Takes the branch's database `name` under management; a different `name` or owner is applied in place. */
  async adopt(step, inputs, name) {
    const found = await step.client.getDatabase(inputs.projectId, inputs.branchId, name);
    const wanted = outputsOf(inputs, found, []);
    return renamed(step, wanted, { ...wanted, name: found.name, ownerName: found.owner_name ?? "" });
  },

  /** The branch's database `name` as it is now. */
  async readExisting({ client }, inputs, name) {
    const found = await client.getDatabase(inputs.projectId, inputs.branchId, name);
    return outputsOf({ ...inputs, ownerName: found.owner_name ?? "" }, found, []);
  },

  /**
   * Finds the database by id among the branch's (a rename elsewhere keeps it), else by name, on
   * the branch that carries its branch now (a restore outside the stack may have swapped it).
   */
  async read({ client }, _id, props) {
    if (props === undefined) return undefined;
    const branchId = await carrierOf(client, props.projectId, props.branchId);
    const databases = await client.cached.listDatabases(props.projectId, branchId);
    const found =
      databases.find((d) => props.databaseId !== null && d.id === props.databaseId) ??
      databases.find((d) => d.name === props.name);
    if (found === undefined) return undefined;
    return {
      ...props,
      branchId,
      databaseId: found.id ?? props.databaseId,
      name: found.name,
      ownerName: found.owner_name ?? props.ownerName,
    };
  },

  stale: (olds) => wasRestoredHere(olds.branchId),

  /**
   * Renames and changes the owner in place. After this run restored the branch, the database is
   * looked up again by name (a restore gives it a new id), and made again when the restore removed it.
   */
  async update(step, _id, outs, olds) {
    if (!wasRestoredHere(olds.branchId)) return renamed(step, outs, olds);
    const { client, deadline } = step;
    const live = (await client.listDatabases(olds.projectId, olds.branchId)).find(
      (d) => d.name === olds.name,
    );
    if (live !== undefined)
      return renamed(
        step,
        { ...outs, databaseId: live.id ?? null },
        { ...olds, databaseId: live.id ?? null },
      );
    const made = await client.createDatabase(
      outs.projectId,
      outs.branchId,
      { database: { name: outs.name, owner_name: outs.ownerName } },
      { deadline },
    );
    return {
      ...outs,
      databaseId: made.database.id ?? null,
      operationIds: made.operations.map((op) => op.id),
    };
  },

  async remove({ client, deadline }, _id, props) {
    await client.deleteDatabase(props.projectId, props.branchId, props.name, { deadline });
  },
});

/** Renames and changes the owner of the database `olds` names to what `outs` says, with one PATCH. */
async function renamed(
  { client, deadline }: Step,
  outs: DatabaseOutputs,
  olds: DatabaseOutputs,
): Promise<DatabaseOutputs> {
  if (outs.name === olds.name && outs.ownerName === olds.ownerName) return outs;
  const changed = await client.updateDatabase(
    olds.projectId,
    olds.branchId,
    olds.name,
    {
      database: compact({
        name: outs.name === olds.name ? undefined : outs.name,
        owner_name: outs.ownerName,
      }),
    },
    { deadline },
  );
  return { ...outs, name: changed.database.name, ownerName: changed.database.owner_name ?? outs.ownerName };
}

function outputsOf(
  inputs: DatabaseInputs,
  database: ApiDatabase,
  operations: readonly { id: string }[],
): DatabaseOutputs {
  return {
    ...declaredInputs<DatabaseInputs>(DatabaseInputsSchema, inputs),
    name: database.name,
    databaseId: database.id ?? null,
    createdAt: database.created_at ?? null,
    operationIds: operations.map((op) => op.id),
    pendingOperationIds: [],
  };
}
