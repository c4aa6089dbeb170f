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
import {
  type ComputeEndpointType,
  ENDPOINT,
  type EndpointInputs,
  type EndpointOutputs,
} from "./public/endpoint";

export type { EndpointInputs, EndpointOutputs } from "./public/endpoint";

// ---------------------------------------------------------------- inputs

const POOLER = "poolerEnabled must be true or false";
const POOLER_MODE_RULE = "poolerMode must be transaction";
/** A Postgres parameter name: an identifier, or two joined by a dot (an extension's own). */
const PG_SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

const SERVED_POOLER_MODES: readonly string[] = ["transaction"];

/** `poolerMode`: the service's pooler runs in transaction mode only (docs/api-rules.md §7). */
const PoolerModeInput = z
  .string({ error: POOLER_MODE_RULE })
  .refine((mode) => SERVED_POOLER_MODES.includes(mode), {
    error: (issue) =>
      issue.input === "session"
        ? `${POOLER_MODE_RULE}: the service runs its connection pooler in transaction mode only; for session semantics connect to the compute's host instead of the pooled one`
        : `${POOLER_MODE_RULE}, not ${JSON.stringify(issue.input)}`,
  });

/** `name`: 1 to 64 characters, as the API takes it. */
const EndpointNameInput = z
  .string({ error: "name must be a string of 1 to 64 characters" })
  .min(1, { error: "name must not be empty" })
  .max(64, { error: (issue) => `name must be at most 64 characters, got ${String(issue.input).length}` });

/** `pgSettings`: Postgres parameter names to string values (docs/api-rules.md §7). */
const PgSettingsInput = z
  .record(
    z.string(),
    z.string({ error: "each pgSettings value must be a string (Postgres reads every setting as text)" }),
  )
  .superRefine((settings, ctx) => {
    for (const name of Object.keys(settings)) {
      if (!PG_SETTING_NAME.test(name)) {
        ctx.addIssue({
          code: "custom",
          message: `pgSettings: ${JSON.stringify(name)} is not a Postgres parameter name (letters, digits and _, an extension's with one dot)`,
        });
      }
    }
  });

/** Inputs as the provider sees them. */
export const EndpointInputsSchema = withComputeRange(
  z.object({
    projectId: ProjectOfBranchInput,
    branchId: requiredId("branchId", "the branch the compute serves (br-...)"),
    type: EndpointTypeInput.optional(),
    ...COMPUTE_INPUTS,
    poolerEnabled: z.boolean({ error: POOLER }).optional(),
    disabled: optionalFlag("disabled"),
    poolerMode: PoolerModeInput.optional(),
    name: EndpointNameInput.optional(),
    pgSettings: PgSettingsInput.optional(),
    adoptExisting: adoptInput("compute endpoint"),
    deleteProtection: DeleteProtectionInput,
    timeouts: TimeoutsInput,
  }),
);

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof EndpointInputsSchema>, EndpointInputs>;
true satisfies Same<(typeof ENDPOINT_TYPES)[number], ComputeEndpointType>;

// ---------------------------------------------------------------- API calls

/** A compute endpoint of a branch: one read_write per branch, any number of read_only. */
export const endpointDefinition: ResourceDefinition<EndpointInputs, EndpointOutputs> = defineResource<
  EndpointInputs,
  EndpointOutputs
>(ENDPOINT, {
  onBranch: ({ projectId, branchId }) => ({ projectId, branchId }),
  inputs: EndpointInputsSchema,
  // A branch has one read_write compute: a replacement that stays one on the same branch deletes first.
  deleteBeforeReplace: (olds, news) =>
    (news.type ?? olds.type) === "read_write" &&
    news.projectId === olds.projectId &&
    news.branchId === olds.branchId,
  id: (outs) => outs.endpointId,
  // A compute that did not start or suspend stays usable: it starts on the next connection.
  survives: new Set(["start_compute", "suspend_compute"]),

  /**
   * Creates the compute, named with the mark of its create key (`lifecycle/owner.ts`), and waits
   * for it; a declared `name` replaces the mark once the compute is there (docs/api-rules.md §7).
   */
  async create({ client, deadline, createKey }, inputs) {
    const { name, ...settings } = settingsOf(inputs);
    const made = await client.createEndpoint(
      inputs.projectId,
      {
        endpoint: {
          branch_id: inputs.branchId,
          type: inputs.type ?? "read_write",
          ...settings,
          ...(createKey === undefined ? compact({ name }) : { name: markedName(createKey) }),
        },
      },
      { deadline },
    );
    return named(client, deadline, inputs, outputsOf(inputs, made));
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
    return named(client, deadline, inputs, { ...outs, operationIds: [] });
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
      poolerMode: differs(news.poolerMode, olds.poolerMode),
      name: differs(news.name, olds.name),
      pgSettings: sameSettings(news.pgSettings, olds.pgSettings) ? undefined : news.pgSettings,
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
  | "autoscalingLimitMinCu"
  | "autoscalingLimitMaxCu"
  | "suspendTimeoutSeconds"
  | "poolerEnabled"
  | "disabled"
  | "poolerMode"
  | "name"
  | "pgSettings"
>;

/** The API's names for the compute settings given. */
function settingsOf(settings: Settings) {
  return {
    ...apiComputeSettings(settings),
    ...compact({
      pooler_enabled: settings.poolerEnabled,
      disabled: settings.disabled,
      pooler_mode: settings.poolerMode,
      name: settings.name,
      settings: settings.pgSettings === undefined ? undefined : { pg_settings: settings.pgSettings },
    }),
  };
}

/** Whether `wanted` asks for nothing new: left out, or the same settings as `had`. */
function sameSettings(
  wanted: Record<string, string> | undefined,
  had: Record<string, string> | undefined,
): boolean {
  if (wanted === undefined) return true;
  const current = had ?? {};
  const names = Object.keys(wanted);
  return names.length === Object.keys(current).length && names.every((n) => current[n] === wanted[n]);
}

/** The compute as it is after its operations, renamed to the declared `name` when it has another (the create's mark). */
async function named(
  client: CloudDbClient,
  deadline: number | undefined,
  inputs: EndpointInputs,
  outs: EndpointOutputs,
): Promise<EndpointOutputs> {
  if (inputs.name === undefined || inputs.name === outs.name) return refreshed(client, outs);
  try {
    const made = await client.updateEndpoint(
      outs.projectId,
      outs.endpointId,
      { endpoint: { name: inputs.name } },
      { deadline },
    );
    return refreshed(client, { ...outs, ...endpointFields(made.endpoint) });
  } catch (err) {
    throw unfinished("compute endpoint", outs.endpointId, inputs, outs, err, " while naming it");
  }
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
    poolerMode: ep.pooler_mode ?? undefined,
    name: ep.name ?? undefined,
    pgSettings: ep.settings?.pg_settings ?? {},
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
