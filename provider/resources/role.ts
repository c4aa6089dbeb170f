import { z } from "zod";
import type { Role as ApiRole, CloudDbClient } from "../client";
import { isApiError, isConflict } from "../client/errors";
import { RoleOperationsSchema } from "../client/schemas";
import { nameOf, ResourceError, unprovenNameConflict } from "./errors";
import {
  adoptInput,
  DeleteProtectionInput,
  optionalFlag,
  optionalTrigger,
  ProjectOfBranchInput,
  postgresNameInput,
  requiredId,
  TimeoutsInput,
} from "./inputs/common";
import { declaredInputs } from "./lifecycle/check";
import { compact, createdSince, defineResource, type Same, type Step } from "./lifecycle/define";
import { isGeneratedWith } from "./lifecycle/owner";
import { ROLE, type RoleInputs, type RoleOutputs } from "./public/role";
import { carrierOf, wasRestoredHere } from "./restores";

export type { RoleInputs, RoleOutputs } from "./public/role";

// ---------------------------------------------------------------- inputs

/** Inputs as the provider sees them. */
export const RoleInputsSchema = z
  .object({
    projectId: ProjectOfBranchInput,
    branchId: requiredId("branchId", "the branch the role is on (br-...)"),
    name: postgresNameInput("role"),
    passwordResetTrigger: optionalTrigger("passwordResetTrigger"),
    noLogin: optionalFlag("noLogin"),
    adoptExisting: adoptInput("role (its name on the branch)"),
    deleteProtection: DeleteProtectionInput,
    timeouts: TimeoutsInput,
  })
  .superRefine((inputs, ctx) => {
    if (inputs.noLogin === true && inputs.passwordResetTrigger !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["passwordResetTrigger"],
        message: "a noLogin role has no password to reset: remove passwordResetTrigger, or noLogin",
      });
    }
  });

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof RoleInputsSchema>, RoleInputs>;

// ---------------------------------------------------------------- API calls

/** A Postgres role of a branch. Its password is received at create and reset only, and kept as a secret. */
export const roleDefinition = defineResource<RoleInputs, RoleOutputs>(ROLE, {
  onBranch: ({ projectId, branchId }) => ({ projectId, branchId }),
  inputs: RoleInputsSchema,
  // Left out, the name is generated from the resource's name and create key (`lifecycle/owner.ts`).
  generatesName: true,
  id: (outs) => `${outs.branchId}/${outs.name}`,

  /**
   * Creates the role. A name generated with this create key that is taken was taken by a killed
   * run of this resource: that role is taken, with a new password (the first one was never
   * received). A name the program gave carries no such proof, so it is refused with what to do.
   */
  async create({ client, deadline, createKey }, inputs) {
    const name = nameOf("role", inputs);
    try {
      const made = await client.createRole(
        inputs.projectId,
        inputs.branchId,
        { role: compact({ name, no_login: inputs.noLogin === true ? true : undefined }) },
        { deadline },
      );
      return outputsOf(inputs, made.role, made.role.password ?? "", made.operations);
    } catch (err) {
      if (!isConflict(err)) throw err;
      if (createKey === undefined || !isGeneratedWith(name, createKey))
        throw unprovenNameConflict("role", inputs, err);
    }
    return renewed({ client, deadline }, inputs, name);
  },

  // The password never enters a partial failure's properties (they are stored before secrets apply):
  // the update that resumes reads it again.
  created(inputs, response) {
    const made = RoleOperationsSchema.safeParse(response);
    return made.success ? outputsOf(inputs, made.data.role, "", made.data.operations) : undefined;
  },

  /** Role names are unique per branch: a role of this name created since the request is ours; it gets a new password. */
  async findLost({ client, deadline }, inputs, startedAt) {
    const name = nameOf("role", inputs);
    const role = await client
      .listRoles(inputs.projectId, inputs.branchId)
      .then((roles) => roles.find((r) => r.name === name))
      .catch(() => undefined);
    if (role === undefined || !(Date.parse(role.created_at ?? "") >= createdSince(startedAt)))
      return undefined;
    return renewed({ client, deadline }, inputs, name);
  },

  /** Takes the branch's role `name` under management, with its current password; the names must match. */
  async adopt({ client }, inputs, name) {
    if (name !== inputs.name) {
      throw new ResourceError(
        "NotAdoptable",
        `adoptExisting: role ${name} is not the role named ${inputs.name}; a role cannot be renamed, so set name: "${name}"`,
      );
    }
    return existing(client, inputs, name);
  },

  readExisting: ({ client }, inputs, name) => existing(client, inputs, name),

  /**
   * The role on the branch that carries its branch now (a restore outside the stack may have
   * swapped it), with the password it has now: a restore gives a role the password it had at the
   * restore point, and a reset outside the stack a new one (docs/api-rules.md §9).
   */
  async read({ client }, _id, props) {
    if (props === undefined) return undefined;
    const branchId = await carrierOf(client, props.projectId, props.branchId);
    const role = (await client.cached.listRoles(props.projectId, branchId)).find(
      (r) => r.name === props.name,
    );
    if (role === undefined) return undefined;
    return {
      ...props,
      branchId,
      password: await livePassword(client, { ...props, branchId }),
      protected: role.protected ?? false,
      createdAt: role.created_at ?? props.createdAt,
    };
  },

  stale: (olds) => wasRestoredHere(olds.branchId),

  /**
   * A new `passwordResetTrigger` resets the password; a password never received is read again.
   * After this run restored the branch, the role is read again: made anew when the restore removed
   * it, else with the password the restore gave it.
   */
  async update({ client, deadline }, _id, current, olds, news) {
    const outs = wasRestoredHere(current.branchId) ? await afterRestore(client, current, deadline) : current;
    if ((news.passwordResetTrigger ?? null) !== (olds.passwordResetTrigger ?? null)) {
      const reset = await client.resetRolePassword(outs.projectId, outs.branchId, outs.name, { deadline });
      return { ...outs, password: reset.role.password ?? outs.password };
    }
    if (outs.password !== "" || outs.noLogin === true) return outs;
    return { ...outs, password: await client.revealRolePassword(outs.projectId, outs.branchId, outs.name) };
  },

  async remove({ client, deadline }, _id, props) {
    await client.deleteRole(props.projectId, props.branchId, props.name, { deadline });
  },
});

/**
 * The branch's role `name` as it is now, with its current password. A role that cannot log in has
 * none: the API refuses to reveal one (412), and the role is recorded as `noLogin`.
 */
async function existing(client: CloudDbClient, inputs: RoleInputs, name: string): Promise<RoleOutputs> {
  const role = await client.getRole(inputs.projectId, inputs.branchId, name);
  if (inputs.noLogin === true) return outputsOf({ ...inputs, name }, role, "", []);
  try {
    const password = await client.revealRolePassword(inputs.projectId, inputs.branchId, name);
    return outputsOf({ ...inputs, name }, role, password, []);
  } catch (err) {
    if (!isApiError(err) || err.status !== 412) throw err;
    return outputsOf({ ...inputs, name, noLogin: true }, role, "", []);
  }
}

/** Role `outs` after a restore of its branch: as the restore left it, or made again when it removed it. */
async function afterRestore(
  client: CloudDbClient,
  outs: RoleOutputs,
  deadline: number,
): Promise<RoleOutputs> {
  const live = (await client.listRoles(outs.projectId, outs.branchId)).find((r) => r.name === outs.name);
  if (live !== undefined) return { ...outs, password: await livePassword(client, outs) };
  const made = await client.createRole(
    outs.projectId,
    outs.branchId,
    { role: compact({ name: outs.name, no_login: outs.noLogin === true ? true : undefined }) },
    { deadline },
  );
  return { ...outs, password: made.role.password ?? "", createdAt: made.role.created_at ?? null };
}

/**
 * The password role `outs` has now, revealed when the state holds one (one request); the state's
 * when the API keeps no password to reveal (412), and none for a role that cannot log in.
 */
async function livePassword(client: CloudDbClient, outs: RoleOutputs): Promise<string> {
  if (outs.password === "" || outs.noLogin === true) return outs.password;
  try {
    return await client.revealRolePassword(outs.projectId, outs.branchId, outs.name);
  } catch (err) {
    if (!isApiError(err) || err.status !== 412) throw err;
    return outs.password;
  }
}

/**
 * A role of this resource that a killed run (or a lost answer) made: its password was never
 * received, so it gets a new one; a `noLogin` role has none and is taken as it is.
 */
async function renewed(
  step: Pick<Step, "client" | "deadline">,
  inputs: RoleInputs,
  name: string,
): Promise<RoleOutputs> {
  const { client, deadline } = step;
  if (inputs.noLogin === true) {
    return outputsOf(inputs, await client.getRole(inputs.projectId, inputs.branchId, name), "", []);
  }
  const reset = await client.resetRolePassword(inputs.projectId, inputs.branchId, name, { deadline });
  return outputsOf(inputs, reset.role, reset.role.password ?? "", reset.operations);
}

function outputsOf(
  inputs: RoleInputs,
  role: ApiRole,
  password: string,
  operations: readonly { id: string }[],
): RoleOutputs {
  return {
    ...declaredInputs<RoleInputs>(RoleInputsSchema, inputs),
    name: role.name,
    password,
    protected: role.protected ?? false,
    createdAt: role.created_at ?? null,
    operationIds: operations.map((op) => op.id),
    pendingOperationIds: [],
  };
}
