import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type Branch as ApiBranch,
  type Endpoint as ApiEndpoint,
  type ApiError,
  type CloudDbClient,
  isConflict,
  type Operation,
} from "../client";
import { BranchCreateResponseSchema } from "../client/schemas";
import { adoptInput, DeleteProtectionInput, nameInput, TimeoutsInput } from "./lifecycle/check";
import { compact, createdSince, defineResource, type Timeouts } from "./lifecycle/define";
import { ResourceError, unfinished } from "./lifecycle/errors";
import { lazyProvider } from "./lifecycle/lazyProvider";
import { moduleRef } from "./lifecycle/moduleRef";
import { ownerInput, seedOutputs, withSecrets } from "./lifecycle/props";

// ---------------------------------------------------------------- inputs

const ENDPOINT_TYPES = ["read_write", "read_only"] as const;
/** The annotation key marking a branch with the create key it was made with (`lifecycle/owner.ts`). */
const CREATED_BY = "pulumi-clouddb.create-key";
const PROJECT_REQUIRED = "projectId is required: the id of the project to branch in";

const endpointTypeError = (type: unknown) =>
  `endpoint type ${JSON.stringify(type ?? null)} is not one of ${ENDPOINT_TYPES.join(", ")}`;

// The state records whatever type the API reports, so the inputs refresh reports are plain strings.
const EndpointInput = z.object({
  type: z
    .string({ error: (issue) => endpointTypeError(issue.input) })
    .refine((type) => ENDPOINT_TYPES.some((known) => known === type), {
      error: (issue) => endpointTypeError(issue.input),
    }),
});

/** Inputs as the provider sees them. */
export const BranchInputsSchema = z.object({
  projectId: z.string({ error: PROJECT_REQUIRED }).min(1, PROJECT_REQUIRED),
  name: nameInput(256, "name must be a non-empty string; omit it for a generated name").optional(),
  parentId: z
    .string({ error: "parentId must be a branch id (br-...); omit it to branch from the default branch" })
    .min(1, "parentId must be a branch id (br-...); omit it to branch from the default branch")
    .optional(),
  endpoints: z
    .array(EndpointInput, { error: 'endpoints must be a list such as [{ type: "read_write" }]' })
    .superRefine((endpoints, ctx) => {
      const readWrite = endpoints.filter((ep) => ep.type === "read_write").length;
      if (readWrite > 1) {
        ctx.addIssue({
          code: "custom",
          message: `a branch can have only one read_write endpoint, ${readWrite} were given: keep one and make the others read_only`,
        });
      }
    })
    .optional(),
  adoptExisting: adoptInput("branch"),
  deleteProtection: DeleteProtectionInput,
  timeouts: TimeoutsInput,
});

/** The plain inputs as the provider sees them. */
export type BranchInputs = z.infer<typeof BranchInputsSchema>;

/** The two compute endpoint types the API accepts on a branch. */
export type EndpointType = (typeof ENDPOINT_TYPES)[number];

/** How each input is applied when it changes. */
export const BRANCH_CHANGES = {
  projectId: "replace",
  parentId: "replace",
  endpoints: "replace",
  name: "update",
  deleteProtection: "update",
  timeouts: "update",
  adoptExisting: "ignore",
} as const;

// ---------------------------------------------------------------- outputs

/** A compute endpoint of the branch, as last read (after create, update or refresh). */
export interface BranchEndpoint {
  id: string;
  /** `read_write` or `read_only`; a type the API adds later is recorded as it says. */
  type: EndpointType | (string & {});
  host: string | null;
  currentState: string | null;
}

/** Everything the state records of a branch. Never connection URIs, passwords, roles or databases. */
export interface BranchOutputs extends Omit<BranchInputs, "endpoints" | "name" | "parentId"> {
  branchId: string;
  name: string;
  parentId: string | null;
  default: boolean;
  currentState: string | null;
  createdAt: string | null;
  endpoints: BranchEndpoint[];
  /** Operations the create started. */
  operationIds: string[];
  /** Operations an earlier run stopped waiting for; the next `up` waits for them. */
  pendingOperationIds: string[];
}

// ---------------------------------------------------------------- API calls

/**
 * A branch's lifecycle. Create waits for every operation it starts (`create_branch`, one
 * `start_compute` per endpoint), reads the branch once more, and records a branch whose waits
 * failed; names are unique per project, so a replacement that keeps its name deletes first.
 */
export const branchDefinition = defineResource<BranchInputs, BranchOutputs>({
  noun: "branch",
  inputs: BranchInputsSchema,
  changes: BRANCH_CHANGES,
  // Left out, the API picks a name, the default branch as parent, and no computes; left out later,
  // the branch keeps what it has.
  computed: ["name", "parentId", "endpoints"],
  same: {
    endpoints: (news, olds) => sameTypes(news ?? [], Array.isArray(olds) ? olds : []),
    deleteProtection: (news, olds) => (news ?? false) === (olds ?? false),
  },
  deleteBeforeReplace: (olds, news) =>
    news.projectId === olds.projectId && news.name !== undefined && news.name === olds.name,
  id: (outs) => outs.branchId,
  // A cancelled or failed compute operation leaves a usable branch: computes start on demand.
  survives: new Set(["start_compute", "suspend_compute"]),

  async create({ client, deadline, createKey }, inputs) {
    const branch = compact({ name: inputs.name, parent_id: inputs.parentId });
    const made = await client
      .createBranch(
        inputs.projectId,
        compact({
          branch: Object.keys(branch).length > 0 ? branch : undefined,
          endpoints: inputs.endpoints?.map((ep) => ({ type: ep.type })),
          annotation_value: createKey === undefined ? undefined : { [CREATED_BY]: createKey },
        }),
        { deadline },
      )
      .catch((err) => Promise.reject(isConflict(err) ? nameTaken(inputs, err) : err));
    const outs = outputsOf(inputs, made.branch, made.endpoints, opIds(made.operations));
    // The branch exists and its operations finished: a failed re-read must not orphan it.
    return refreshed(client, outs).catch(() => outs);
  },

  /**
   * The branch an interrupted run created for this resource carries its create key as an
   * annotation (set by `create` above): its operations are awaited (the branch is recorded even
   * if they fail) and it is taken. A branch without that annotation is never taken.
   */
  async findOwn({ client, deadline }, inputs, key) {
    const { branches, annotations } = await client.listAnnotatedBranches(inputs.projectId);
    const branch = branches.find((b) => annotations.get(b.id)?.[CREATED_BY] === key);
    if (branch === undefined) return undefined;
    const ops: Operation[] = [];
    for await (const op of client.listOperations(inputs.projectId, { pageSize: 100, maxItems: 1000 })) {
      if (op.branch_id === branch.id && op.status !== "finished" && op.status !== "skipped") ops.push(op);
    }
    const outs = outputsOf(inputs, branch, [], opIds(ops));
    try {
      await client.waitForOperations(inputs.projectId, ops, { deadline });
    } catch (err) {
      throw unfinished("branch", branch.id, inputs, outs, err, " by an interrupted run");
    }
    return refreshed(client, { ...outs, operationIds: [] });
  },

  created(inputs, response) {
    const made = BranchCreateResponseSchema.safeParse(response);
    return made.success
      ? outputsOf(inputs, made.data.branch, made.data.endpoints, opIds(made.data.operations))
      : undefined;
  },

  /**
   * Branch names are unique per project: a named branch created since the request is the one the
   * lost create made; its operations are awaited and it is recorded. Unnamed branches cannot be
   * told apart, so the original error stands.
   */
  async findLost({ client, deadline }, inputs, startedAt) {
    if (inputs.name === undefined) return undefined;
    const since = createdSince(startedAt);
    const branch = await client
      .listBranches(inputs.projectId)
      .then((branches) => branches.find((b) => b.name === inputs.name))
      .catch(() => undefined);
    if (branch === undefined || !(Date.parse(branch.created_at) >= since)) return undefined;
    const ops: Operation[] = [];
    for await (const op of client.listOperations(inputs.projectId, { pageSize: 100, maxItems: 100 })) {
      if (op.branch_id === branch.id && Date.parse(op.created_at) >= since) ops.push(op);
    }
    const outs = outputsOf(inputs, branch, [], opIds(ops));
    try {
      await client.waitForOperations(inputs.projectId, ops, { deadline });
    } catch (err) {
      throw unfinished(
        "branch",
        branch.id,
        inputs,
        outs,
        err,
        " (found by name after its response was lost)",
      );
    }
    return refreshed(client, outs).catch(() => outs);
  },

  /** Takes an existing branch under management, renaming it if a different name is declared. */
  async adopt({ client, deadline }, inputs, branchId) {
    const live = await readLive(client, inputs.projectId, branchId);
    if (inputs.parentId !== undefined && inputs.parentId !== live.parentId) {
      throw notAdoptable(branchId, `parent ${live.parentId ?? "none"}`, inputs.parentId, "parentId");
    }
    if (inputs.endpoints !== undefined && !sameTypes(inputs.endpoints, live.endpoints)) {
      const types = (list: { type: string }[]) => `[${list.map((ep) => ep.type).join(", ")}]`;
      const have = live.endpoints.length > 0 ? types(live.endpoints) : "[none]";
      throw notAdoptable(branchId, `endpoints ${have}`, types(inputs.endpoints), "endpoints");
    }
    const outs: BranchOutputs = { ...baseOutputs(inputs), ...live, operationIds: [] };
    if (inputs.name === undefined || inputs.name === live.name) return outs;
    const renamed = await client.updateBranch(
      inputs.projectId,
      branchId,
      { name: inputs.name },
      { deadline },
    );
    return { ...outs, ...branchFields(renamed.branch) };
  },

  async read({ client }, id, props) {
    if (props?.projectId === undefined) {
      throw new ResourceError(
        "NotImportable",
        `cannot read branch ${id} without its project: declare the branch with adoptExisting: "${id}" and its projectId instead`,
      );
    }
    return { ...props, ...(await readLive(client, props.projectId, id)) };
  },

  inputsOf: (outs) =>
    compact({
      projectId: outs.projectId,
      name: outs.name,
      parentId: outs.parentId ?? undefined,
      endpoints: outs.endpoints.map((ep) => ({ type: ep.type })),
      adoptExisting: outs.adoptExisting,
      deleteProtection: outs.deleteProtection,
      timeouts: outs.timeouts,
    }),

  /** Renames in place; the rest of the `update` rows are only recorded. */
  async update({ client, deadline }, id, outs, olds, news) {
    let next = outs;
    if (news.name !== undefined && news.name !== olds.name) {
      const renamed = await client.updateBranch(olds.projectId, id, { name: news.name }, { deadline });
      next = { ...next, ...branchFields(renamed.branch) };
    }
    return refreshed(client, next);
  },

  async remove({ client, deadline }, id, props) {
    await client.deleteBranch(props.projectId, id, { deadline });
  },

  /** The API's refusal status is not documented: the branch and its children, as read now, say why. */
  async refusal({ client }, id, props) {
    const live =
      props.default === true || props.parentId === null
        ? undefined
        : await client.getBranch(props.projectId, id);
    if (live === undefined || live.branch.default || live.branch.parent_id === undefined) {
      return {
        why: "it is the project's root/default branch, which the API never deletes",
        next: "To stop managing it without deleting it, run `pulumi state delete <urn>`.",
      };
    }
    const children = (await client.listBranches(props.projectId)).filter((b) => b.parent_id === id);
    if (children.length === 0) return undefined;
    return {
      why: "it still has child branches",
      next:
        "Delete the children first; in Pulumi, declare each child with parentId: parent.branchId so Pulumi " +
        "deletes children before their parent.",
    };
  },
});

type LiveBranch = ReturnType<typeof branchFields> & { endpoints: BranchEndpoint[] };

/** The branch and its computes as they are now (two GETs). Throws the client's not-found error when gone. */
async function readLive(client: CloudDbClient, projectId: string, branchId: string): Promise<LiveBranch> {
  const { branch } = await client.getBranch(projectId, branchId);
  const endpoints = await client.listBranchEndpoints(projectId, branchId);
  return { ...branchFields(branch), endpoints: endpoints.map(endpointFields) };
}

/** Reads the branch again after its operations finished, so `currentState` is current. */
async function refreshed(client: CloudDbClient, outs: BranchOutputs): Promise<BranchOutputs> {
  return { ...outs, ...(await readLive(client, outs.projectId, outs.branchId)) };
}

function branchFields(b: Pick<ApiBranch, "id" | "name"> & Partial<ApiBranch>) {
  return {
    branchId: b.id,
    name: b.name,
    parentId: b.parent_id ?? null,
    default: b.default ?? false,
    currentState: b.current_state ?? null,
    createdAt: b.created_at ?? null,
  };
}

function endpointFields(ep: ApiEndpoint): BranchEndpoint {
  return { id: ep.id, type: ep.type, host: ep.host, currentState: ep.current_state ?? null };
}

function baseOutputs(inputs: BranchInputs) {
  return compact({
    projectId: inputs.projectId,
    adoptExisting: inputs.adoptExisting,
    deleteProtection: inputs.deleteProtection,
    timeouts: inputs.timeouts,
    pendingOperationIds: [] as string[],
  });
}

function outputsOf(
  inputs: BranchInputs,
  branch: Pick<ApiBranch, "id" | "name"> & Partial<ApiBranch>,
  endpoints: ApiEndpoint[],
  operationIds: string[],
): BranchOutputs {
  return {
    ...baseOutputs(inputs),
    ...branchFields(branch),
    endpoints: endpoints.map(endpointFields),
    operationIds,
  };
}

function opIds(ops: readonly { id: string }[]): string[] {
  return ops.map((op) => op.id);
}

function sameTypes(wanted: readonly { type: string }[], have: readonly { type: string }[]): boolean {
  const a = wanted.map((e) => e.type).sort();
  const b = have.map((e) => e.type).sort();
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

/** A 409 on create: the name belongs to a branch this resource did not make (`findOwn` found none of its own). */
function nameTaken(inputs: BranchInputs, err: ApiError): ResourceError {
  return new ResourceError(
    "NameTaken",
    `a branch named "${inputs.name ?? ""}" already exists in project ${inputs.projectId} and was not created by this ` +
      "resource (it carries no mark of it), so it is not taken over: choose another name, or manage that branch with " +
      `adoptExisting: "<its id>" (API: ${err.message}${err.requestId ? `; request id ${err.requestId}` : ""})`,
    err,
  );
}

function notAdoptable(branchId: string, has: string, wanted: string, input: string): ResourceError {
  return new ResourceError(
    "NotAdoptable",
    `adoptExisting: branch ${branchId} has ${has}, not ${wanted}; fix ${input} (or remove it) so adopting ` +
      "does not replace the branch",
  );
}

// ---------------------------------------------------------------- resource

/** Inputs of a {@link Branch}. */
export interface BranchArgs {
  /** The project the branch belongs to. Changing it replaces the branch. */
  projectId: pulumi.Input<string>;
  /** Branch name, unique in the project (1-256 characters). Omit for a generated name; changing it renames in place. */
  name?: pulumi.Input<string>;
  /** Parent branch id; omit for the project's default branch. Changing it replaces the branch. */
  parentId?: pulumi.Input<string>;
  /** Compute endpoints to create with the branch: at most one `read_write`, any number of `read_only`. Changing them replaces the branch. */
  endpoints?: pulumi.Input<pulumi.Input<{ type: pulumi.Input<EndpointType> }>[]>;
  /** An existing branch id to take under management instead of creating one (dynamic resources cannot be `pulumi import`ed). */
  adoptExisting?: pulumi.Input<string>;
  /** When true, deleting the branch (destroy, replace, removal from the program) fails until it is set back to false. */
  deleteProtection?: pulumi.Input<boolean>;
  /** Bounds on operation waits, in seconds; default `clouddb:operationTimeoutSeconds`, else 20 minutes. */
  timeouts?: pulumi.Input<BranchTimeouts>;
}

/** Waits bounded per resource, in seconds (Pulumi's `customTimeouts` do not reach dynamic providers). */
export type BranchTimeouts = Timeouts;

/** The dynamic provider of {@link Branch}: it loads `branchMethods` when called (see `lazyProvider`). */
export const branchProvider: pulumi.dynamic.ResourceProvider<BranchInputs, BranchOutputs> = lazyProvider(
  moduleRef(require.resolve("./branchMethods")),
);

/**
 * A database branch. Create waits for every operation it starts (`create_branch`, one
 * `start_compute` per endpoint), survives `423 Locked`, and queues behind other work on the same
 * project. A child branch (`parentId: parent.branchId`) is created after and deleted before its parent.
 */
export class Branch extends pulumi.dynamic.Resource {
  /** The branch id, `br-...`. */
  declare readonly branchId: pulumi.Output<string>;
  /** The project id. */
  declare readonly projectId: pulumi.Output<string>;
  /** The branch name. */
  declare readonly name: pulumi.Output<string>;
  /** The parent branch id (null for a root branch). */
  declare readonly parentId: pulumi.Output<string | null>;
  /** Whether this is the project's default branch. */
  declare readonly default: pulumi.Output<boolean>;
  /** The branch state as last read, e.g. `ready`. */
  declare readonly currentState: pulumi.Output<string | null>;
  /** Creation time, ISO 8601 UTC. */
  declare readonly createdAt: pulumi.Output<string | null>;
  /** The compute endpoints: id, type, host, state. */
  declare readonly endpoints: pulumi.Output<BranchEndpoint[]>;
  /** Ids of the operations the create started. */
  declare readonly operationIds: pulumi.Output<string[]>;
  /** Operations still to wait for after an interrupted run. */
  declare readonly pendingOperationIds: pulumi.Output<string[]>;
  /** Whether delete is refused. */
  declare readonly deleteProtection: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: BranchArgs, opts?: pulumi.CustomResourceOptions) {
    const props = {
      ...seedOutputs<BranchOutputs>(args, [
        "branchId",
        "projectId",
        "name",
        "parentId",
        "default",
        "currentState",
        "createdAt",
        "endpoints",
        "operationIds",
        "pendingOperationIds",
        "deleteProtection",
      ]),
      ...ownerInput(name, "Branch", opts),
    };
    super(branchProvider, name, props, withSecrets(opts, branchDefinition.secrets), "clouddb", "Branch");
    // The id is known during a preview of an in-place update (a rename), where outputs are not: a
    // child's parentId then stays known and its preview shows no replacement the update will not do.
    this.branchId = this.id;
  }
}
