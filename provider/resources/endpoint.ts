import { z } from "zod";
import type { Endpoint as ApiEndpoint, CloudDbClient, EndpointOperations } from "../client";
import { type ENDPOINT_TYPES, EndpointOperationsSchema } from "../client/schemas";
import { unfinished } from "./errors";
import {
  adoptInput,
  DeleteProtectionInput,
  optionalFlag,
  ProjectOfBranchInput,
  requiredId,
  TimeoutsInput,
} from "./inputs/common";
import { apiComputeSettings, COMPUTE_INPUTS, EndpointTypeInput, withComputeRange } from "./inputs/compute";
import { adoptLive } from "./lifecycle/adoption";
import {
  compact,
  createdSince,
  defineResource,
  type ResourceDefinition,
  type Same,
  type Step,
} from "./lifecycle/define";
import { openOperations } from "./lifecycle/openOperations";
import { markedName } from "./lifecycle/owner";
import { changesOf, secretsOf } from "./public/declare";
import {
  type ComputeEndpointType,
  ENDPOINT,
  type EndpointInputs,
  type EndpointOutputs,
} from "./public/endpoint";

export type { EndpointInputs, EndpointOutputs } from "./public/endpoint";

// ---------------------------------------------------------------- inputs

const POOLER = "poolerEnabled must be true or false";

/** Inputs as the provider sees them. */
export const EndpointInputsSchema = withComputeRange(
  z.object({
    projectId: ProjectOfBranchInput,
    branchId: requiredId("branchId", "the branch the compute serves (br-...)"),
    type: EndpointTypeInput.optional(),
    ...COMPUTE_INPUTS,
    poolerEnabled: z.boolean({ error: POOLER }).optional(),
    disabled: optionalFlag("disabled"),
    adoptExisting: adoptInput("compute endpoint"),
    deleteProtection: DeleteProtectionInput,
    timeouts: TimeoutsInput,
  }),
);

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof EndpointInputsSchema>, EndpointInputs>;
true satisfies Same<(typeof ENDPOINT_TYPES)[number], ComputeEndpointType>;

/** How each input is applied when it changes (declared in `public/endpoint.ts`): the API's PATCH resizes, retimes and toggles the pooler. */
export const ENDPOINT_CHANGES = changesOf(ENDPOINT);

// ---------------------------------------------------------------- API calls

/** A compute endpoint of a branch: one read_write per branch, any number of read_only. */
export const endpointDefinition: ResourceDefinition<EndpointInputs, EndpointOutputs> = defineResource<
  EndpointInputs,
  EndpointOutputs
>({
  noun: "compute endpoint",
  inputs: EndpointInputsSchema,
  changes: ENDPOINT_CHANGES,
  secrets: secretsOf(ENDPOINT),
  // Left out, the API uses read_write and the project's default settings; left out later, the
  // compute keeps what it has.
  computed: [
    "type",
    "autoscalingLimitMinCu",
    "autoscalingLimitMaxCu",
    "suspendTimeoutSeconds",
    "poolerEnabled",
    "disabled",
  ],
  // A branch has one read_write compute: a replacement that stays one on the same branch deletes first.
  deleteBeforeReplace: (olds, news) =>
    (news.type ?? olds.type) === "read_write" &&
    news.projectId === olds.projectId &&
    news.branchId === olds.branchId,
  id: (outs) => outs.endpointId,
  // A compute that did not start or suspend stays usable: it starts on the next connection.
  survives: new Set(["start_compute", "suspend_compute"]),

  /** Creates the compute, named with the mark of its create key (`lifecycle/owner.ts`), and waits for it. */
  async create({ client, deadline, createKey }, inputs) {
    const made = await client.createEndpoint(
      inputs.projectId,
      {
        endpoint: {
          branch_id: inputs.branchId,
          type: inputs.type ?? "read_write",
          ...settingsOf(inputs),
          ...(createKey === undefined ? {} : { name: markedName(createKey) }),
        },
      },
      { deadline },
    );
    return refreshed(client, outputsOf(inputs, made));
  },

  /**
   * The compute a killed run made for this resource carries this create key's mark as its name:
   * its operations are awaited and it is taken. A compute without the mark is never taken.
   */
  async findOwn({ client, deadline }, inputs, key) {
    const name = markedName(key);
    const found = (await client.cached.listEndpoints(inputs.projectId)).find((e) => e.name === name);
    if (found === undefined) return undefined;
    const ops = await openOperations(client, inputs.projectId, (op) => op.endpoint_id === found.id);
    const outs = outputsOf(inputs, { endpoint: found, operations: ops });
    try {
      await client.waitForOperations(inputs.projectId, ops, { deadline });
    } catch (err) {
      throw unfinished("compute endpoint", found.id, inputs, outs, err, " by an interrupted run");
    }
    return refreshed(client, { ...outs, operationIds: [] });
  },

  created(inputs, response) {
    const made = EndpointOperationsSchema.safeParse(response);
    return made.success ? outputsOf(inputs, made.data) : undefined;
  },

  /** A branch has one read_write compute: one created since the request is the one the lost create made. */
  async findLost({ client }, inputs, startedAt) {
    if ((inputs.type ?? "read_write") !== "read_write") return undefined;
    const found = await client
      .listBranchEndpoints(inputs.projectId, inputs.branchId)
      .then((endpoints) => endpoints.find((e) => e.type === "read_write"))
      .catch(() => undefined);
    if (found === undefined || !(Date.parse(found.created_at ?? "") >= createdSince(startedAt)))
      return undefined;
    return outputsOf(inputs, { endpoint: found, operations: [] });
  },

  async adopt(step, inputs, endpointId): Promise<EndpointOutputs> {
    return adoptLive(endpointDefinition, step, inputs, endpointId, await existing(step, inputs, endpointId));
  },

  importId: ENDPOINT.importId,
  readExisting: (step, inputs, endpointId) => existing(step, inputs, endpointId),

  async read({ client }, endpointId, props) {
    if (props === undefined) return undefined;
    return { ...props, ...endpointFields(await client.getEndpoint(props.projectId, endpointId)) };
  },

  /** One PATCH of the settings that changed, then the compute as it is after its operations. */
  async update({ client, deadline }, endpointId, outs, olds, news) {
    const changed = compact({
      autoscalingLimitMinCu: differs(news.autoscalingLimitMinCu, olds.autoscalingLimitMinCu),
      autoscalingLimitMaxCu: differs(news.autoscalingLimitMaxCu, olds.autoscalingLimitMaxCu),
      suspendTimeoutSeconds: differs(news.suspendTimeoutSeconds, olds.suspendTimeoutSeconds),
      poolerEnabled: differs(news.poolerEnabled, olds.poolerEnabled),
      disabled: differs(news.disabled, olds.disabled ?? false),
    });
    if (Object.keys(changed).length === 0) return outs;
    const made = await client.updateEndpoint(
      olds.projectId,
      endpointId,
      { endpoint: settingsOf(changed) },
      { deadline },
    );
    return refreshed(client, { ...outs, ...endpointFields(made.endpoint) });
  },

  async remove({ client, deadline }, endpointId, props) {
    await client.deleteEndpoint(props.projectId, endpointId, { deadline });
  },
});

/** `wanted` when it is given and differs from `had`. */
function differs<T>(wanted: T | undefined, had: T): T | undefined {
  return wanted !== undefined && wanted !== had ? wanted : undefined;
}

type Settings = Pick<
  EndpointInputs,
  "autoscalingLimitMinCu" | "autoscalingLimitMaxCu" | "suspendTimeoutSeconds" | "poolerEnabled" | "disabled"
>;

/** The API's names for the compute settings given. */
function settingsOf(settings: Settings) {
  return {
    ...apiComputeSettings(settings),
    ...compact({ pooler_enabled: settings.poolerEnabled, disabled: settings.disabled }),
  };
}

/** The host with `-pooler` at the end of its first label: where the connection pooler listens. */
export function pooledHostOf(host: string): string {
  const dot = host.indexOf(".");
  return dot < 0 ? `${host}-pooler` : `${host.slice(0, dot)}-pooler${host.slice(dot)}`;
}

/** The compute's fields the state records, as the API reports them. */
function endpointFields(ep: ApiEndpoint) {
  return {
    endpointId: ep.id,
    branchId: ep.branch_id,
    type: ep.type,
    autoscalingLimitMinCu: ep.autoscaling_limit_min_cu ?? 0.25,
    autoscalingLimitMaxCu: ep.autoscaling_limit_max_cu ?? ep.autoscaling_limit_min_cu ?? 0.25,
    suspendTimeoutSeconds: ep.suspend_timeout_seconds ?? 0,
    poolerEnabled: ep.pooler_enabled ?? false,
    disabled: ep.disabled ?? false,
    host: ep.host,
    pooledHost: pooledHostOf(ep.host),
    currentState: ep.current_state ?? null,
    regionId: ep.region_id ?? null,
    createdAt: ep.created_at ?? null,
  } satisfies Partial<EndpointOutputs>;
}

/** A compute as it is now. */
async function existing(
  { client }: Step,
  inputs: EndpointInputs,
  endpointId: string,
): Promise<EndpointOutputs> {
  return outputsOf(inputs, {
    endpoint: await client.getEndpoint(inputs.projectId, endpointId),
    operations: [],
  });
}

function outputsOf(
  inputs: EndpointInputs,
  made: Pick<EndpointOperations, "endpoint" | "operations">,
): EndpointOutputs {
  return {
    ...compact({
      adoptExisting: inputs.adoptExisting,
      deleteProtection: inputs.deleteProtection,
      timeouts: inputs.timeouts,
    }),
    projectId: inputs.projectId,
    ...endpointFields(made.endpoint),
    operationIds: made.operations.map((op) => op.id),
    pendingOperationIds: [],
  };
}

/** Reads the compute again after its operations finished, so `currentState` is current; a failed read keeps `outs`. */
async function refreshed(client: CloudDbClient, outs: EndpointOutputs): Promise<EndpointOutputs> {
  return client
    .getEndpoint(outs.projectId, outs.endpointId)
    .then((ep) => ({ ...outs, ...endpointFields(ep) }))
    .catch(() => outs);
}
