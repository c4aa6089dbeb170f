import { z } from "zod";
import type { CloudDbClient, Operation, ProjectCreateResponse, ProjectDetail } from "../client";
import type { ProjectSettings } from "../client/schemas";
import { ProjectCreateResponseSchema } from "../client/schemas";
import { ResourceError, unfinished } from "./errors";
import {
  adoptInput,
  DeleteProtectionInput,
  GeneratedNameInput,
  optionalFlag,
  optionalId,
  optionalText,
  TimeoutsInput,
} from "./inputs/common";
import {
  apiComputeSettings,
  COMPUTE_INPUTS,
  COMPUTE_SETTINGS,
  computeSettingsOf,
  withComputeRange,
} from "./inputs/compute";
import { AllowedIpInput } from "./inputs/network";
import {
  apiMaintenanceWindow,
  apiQuota,
  MaintenanceWindowInput,
  maintenanceWindowOf,
  ProjectQuotaInput,
  quotaOf,
  sameQuota,
  sameWindow,
} from "./inputs/projectSettings";
import { regionInput } from "./inputs/regions";
import { adoptLive } from "./lifecycle/adoption";
import {
  compact,
  createdSince,
  defineResource,
  type ResourceDefinition,
  type Same,
} from "./lifecycle/define";
import { openOperations } from "./lifecycle/openOperations";
import { CREATED_BY, markedName } from "./lifecycle/owner";
import {
  type DefaultEndpointSettings,
  PROJECT,
  type ProjectInputs,
  type ProjectOutputs,
} from "./public/project";

export type { ProjectInputs, ProjectOutputs } from "./public/project";

// ---------------------------------------------------------------- inputs

const PG_VERSIONS = "pgVersion must be a Postgres major version the service runs: 14, 15, 16, 17 or 18";
const RETENTION_MAX = 2_592_000;
const RETENTION = `historyRetentionSeconds must be a whole number of seconds from 0 to ${RETENTION_MAX} (30 days)`;

/** Compute settings the project gives every compute created without its own. */
export const DefaultEndpointSettingsInput = withComputeRange(z.object(COMPUTE_INPUTS));

/** Inputs as the provider sees them. */
export const ProjectInputsSchema = z.object({
  name: GeneratedNameInput,
  regionId: regionInput("regionId", "omit it for the service's default").optional(),
  pgVersion: z
    .number({ error: PG_VERSIONS })
    .int(PG_VERSIONS)
    .min(14, PG_VERSIONS)
    .max(18, PG_VERSIONS)
    .optional(),
  orgId: optionalId("orgId must be an organization id (org-...); omit it for a project of the key's owner"),
  historyRetentionSeconds: z
    .number({ error: RETENTION })
    .int(RETENTION)
    .min(0, RETENTION)
    .max(RETENTION_MAX, RETENTION)
    .optional(),
  defaultEndpointSettings: DefaultEndpointSettingsInput.optional(),
  allowedIps: z.array(AllowedIpInput, { error: "allowedIps must be a list of strings" }).optional(),
  allowedIpsProtectedBranchesOnly: optionalFlag("allowedIpsProtectedBranchesOnly"),
  blockPublicConnections: optionalFlag("blockPublicConnections"),
  blockVpcConnections: optionalFlag("blockVpcConnections"),
  enableLogicalReplication: optionalFlag("enableLogicalReplication"),
  maintenanceWindow: MaintenanceWindowInput.optional(),
  quota: ProjectQuotaInput.optional(),
  defaultBranchName: optionalText("defaultBranchName"),
  defaultRoleName: optionalText("defaultRoleName"),
  defaultDatabaseName: optionalText("defaultDatabaseName"),
  protectDefaultBranch: optionalFlag("protectDefaultBranch"),
  adoptExisting: adoptInput("project"),
  deleteProtection: DeleteProtectionInput,
  timeouts: TimeoutsInput,
});

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof ProjectInputsSchema>, ProjectInputs>;

// ---------------------------------------------------------------- API calls

/** The network access inputs: each left out is no opinion, the project keeps what it has. */
const NETWORK_INPUTS = [
  "allowedIps",
  "allowedIpsProtectedBranchesOnly",
  "blockPublicConnections",
  "blockVpcConnections",
] as const;

/** The inputs sent in the project's `settings`: each left out is no opinion. */
type SettingsInput =
  | (typeof NETWORK_INPUTS)[number]
  | "enableLogicalReplication"
  | "maintenanceWindow"
  | "quota";

/**
 * A project: its default branch, compute, role and database come with it. Create waits for the
 * operations that start them; delete deletes the project and every branch, compute, role and
 * database in it.
 */
export const projectDefinition: ResourceDefinition<ProjectInputs, ProjectOutputs> = defineResource<
  ProjectInputs,
  ProjectOutputs
>(PROJECT, {
  inputs: ProjectInputsSchema,
  finds: (inputs) => [
    inputs.regionId === undefined
      ? undefined
      : { kind: "region", property: "regionId", regionId: inputs.regionId, orgId: inputs.orgId },
  ],
  review(olds, news) {
    if (
      news.enableLogicalReplication === undefined ||
      news.enableLogicalReplication === olds.enableLogicalReplication
    )
      return undefined;
    if (!news.enableLogicalReplication) {
      throw new ResourceError(
        "ChangeRefused",
        "enableLogicalReplication cannot be turned off: the service keeps logical replication on once it is on. " +
          "Set it back to true, or remove it (no opinion)",
      );
    }
    return "the update turns logical replication on, which restarts every compute of the project and cannot be undone";
  },
  same: {
    // Only the settings given are compared: the API fills in the rest.
    defaultEndpointSettings: (news, olds) => sameSettings(news, olds),
    maintenanceWindow: (news, olds) => sameWindow(news, olds),
    quota: (news, olds) => sameQuota(news, olds),
  },
  id: (outs) => outs.projectId,
  // A compute that did not start stays usable: it starts on the next connection.
  survives: new Set(["start_compute", "suspend_compute"]),

  /**
   * Creates the project, its default branch annotated with the create key (`lifecycle/owner.ts`);
   * left unnamed, it is named from the key, so a run after a killed one finds it among few.
   */
  async create({ client, deadline, createKey }, inputs) {
    const made = await client.createProject(
      {
        project: compact({
          name: inputs.name ?? (createKey === undefined ? undefined : markedName(createKey)),
          branch: defaultBranchOf(inputs, createKey),
          region_id: inputs.regionId,
          pg_version: inputs.pgVersion,
          org_id: inputs.orgId,
          history_retention_seconds: inputs.historyRetentionSeconds,
          default_endpoint_settings:
            inputs.defaultEndpointSettings === undefined
              ? undefined
              : apiComputeSettings(inputs.defaultEndpointSettings),
          settings: settingsChanges(inputs, {}),
        }),
      },
      { deadline },
    );
    const outs = createdOutputs(inputs, made, made.connection_uris?.[0]?.connection_uri ?? "");
    let protectedOuts: ProjectOutputs;
    try {
      protectedOuts = await withDefaultBranchProtection(client, deadline, outs, inputs.protectDefaultBranch);
    } catch (err) {
      // The project exists: recorded, the next `up` protects its branch (the connection string is read again then).
      const recorded: ProjectOutputs = { ...outs, connectionUri: "" };
      throw unfinished("project", outs.projectId, inputs, recorded, err);
    }
    return withConnectionUri(client, protectedOuts);
  },

  // The connection string never enters a partial failure's properties (they are stored before
  // secrets apply): the update that resumes reads it again.
  created(inputs, response) {
    const made = ProjectCreateResponseSchema.safeParse(response);
    return made.success ? createdOutputs(inputs, made.data, "") : undefined;
  },

  /**
   * The project a killed run made for this resource: of the name this create asks for, its default
   * branch annotated with this create key. Its operations are awaited and it is taken. A project
   * without the annotation is never taken, whatever its name.
   */
  async findOwn({ client, deadline }, inputs, key): Promise<ProjectOutputs | undefined> {
    const name = inputs.name ?? markedName(key);
    for await (const p of client.listProjects(compact({ search: name, orgId: inputs.orgId }))) {
      if (p.name !== name) continue;
      const { branches, annotations } = await client.listAnnotatedBranches(p.id);
      const root = branches.find((b) => b.default === true);
      if (root === undefined || annotations.get(root.id)?.[CREATED_BY] !== key) continue;
      const ops = await openOperations(client, p.id);
      return taken(client, deadline, p.id, inputs, ops, " by an interrupted run");
    }
    return undefined;
  },

  /**
   * Project names are not unique, but one project of this name made since the request (in the
   * declared organization) is the one the lost create made: its operations are awaited and it is
   * recorded. Unnamed, or several of the name: the original error stands.
   */
  async findLost({ client, deadline }, inputs, startedAt): Promise<ProjectOutputs | undefined> {
    if (inputs.name === undefined) return undefined;
    const since = createdSince(startedAt);
    const found: string[] = [];
    for await (const p of client.listProjects(compact({ search: inputs.name, orgId: inputs.orgId }))) {
      if (p.name === inputs.name && Date.parse(p.created_at) >= since) found.push(p.id);
    }
    const [projectId] = found;
    if (projectId === undefined || found.length > 1) return undefined;
    const ops: Operation[] = [];
    for await (const op of client.listOperations(projectId, { pageSize: 100, maxItems: 100 })) ops.push(op);
    return taken(client, deadline, projectId, inputs, ops, " (found by name after its answer was lost)");
  },

  async adopt(step, inputs, projectId): Promise<ProjectOutputs> {
    const live = await readDefaults(step.client, projectId, inputs);
    return adoptLive(projectDefinition, step, inputs, projectId, live);
  },

  readExisting: ({ client }, inputs, projectId) => readDefaults(client, projectId, inputs),

  async read({ client }, projectId, props) {
    if (props === undefined) return undefined;
    const read = {
      ...props,
      ...projectFields(await client.getProject(projectId), props.defaultEndpointSettings),
    };
    if (props.protectDefaultBranch === undefined || props.defaultBranchId === "") return read;
    // Declared: read the branch, so a protection changed elsewhere shows as drift.
    const { branch } = await client.getBranch(projectId, props.defaultBranchId);
    const live = branch.protected ?? false;
    return { ...read, protectDefaultBranch: live, defaultBranchProtected: live };
  },

  /** One PATCH of the changed in-place rows; a connection string never received is read again. */
  async update({ client, deadline }, projectId, outs, olds, news) {
    const settings = news.defaultEndpointSettings;
    const changed = compact({
      name: news.name !== undefined && news.name !== olds.name ? news.name : undefined,
      history_retention_seconds:
        news.historyRetentionSeconds !== undefined &&
        news.historyRetentionSeconds !== olds.historyRetentionSeconds
          ? news.historyRetentionSeconds
          : undefined,
      default_endpoint_settings:
        settings !== undefined && !sameSettings(settings, olds.defaultEndpointSettings)
          ? apiComputeSettings(settings)
          : undefined,
      settings: settingsChanges(news, olds),
    });
    let next = outs;
    if (Object.keys(changed).length > 0) {
      const { project } = await client.updateProject(projectId, { project: changed }, { deadline });
      next = { ...outs, ...projectFields(project, settings ?? olds.defaultEndpointSettings) };
    }
    next = await withDefaultBranchProtection(client, deadline, next, news.protectDefaultBranch);
    return withConnectionUri(client, next);
  },

  async remove({ client, deadline }, projectId) {
    await client.deleteProject(projectId, { deadline });
  },
});

/**
 * A project this resource made but never recorded, once `ops` (its operations) are awaited; a
 * failed wait records it as a partial failure, `how` saying how it was found.
 */
async function taken(
  client: CloudDbClient,
  deadline: number,
  projectId: string,
  inputs: ProjectInputs,
  ops: Operation[],
  how: string,
): Promise<ProjectOutputs> {
  const outs = { ...(await readDefaults(client, projectId, inputs)), operationIds: ops.map((op) => op.id) };
  try {
    await client.waitForOperations(projectId, ops, { deadline });
  } catch (err) {
    // The connection string never enters a partial failure's properties.
    const recorded: ProjectOutputs = { ...outs, connectionUri: "" };
    throw unfinished("project", projectId, inputs, recorded, err, how);
  }
  return outs;
}

/** The project's fields the state records; the default compute settings keep only the keys `keep` has, when it has any. */
function projectFields(project: ProjectDetail, keep: DefaultEndpointSettings | undefined) {
  const live = computeSettingsOf(project.default_endpoint_settings);
  return compact({
    projectId: project.id,
    name: project.name,
    regionId: project.region_id,
    pgVersion: project.pg_version,
    orgId: project.org_id ?? null,
    historyRetentionSeconds: project.history_retention_seconds ?? undefined,
    defaultEndpointSettings: keep === undefined ? live : pickKeys(live, keep),
    allowedIps: project.settings?.allowed_ips?.ips ?? [],
    allowedIpsProtectedBranchesOnly: project.settings?.allowed_ips?.protected_branches_only ?? false,
    blockPublicConnections: project.settings?.block_public_connections ?? false,
    blockVpcConnections: project.settings?.block_vpc_connections ?? false,
    enableLogicalReplication: project.settings?.enable_logical_replication ?? false,
    maintenanceWindow: maintenanceWindowOf(project.settings?.maintenance_window),
    quota: quotaOf(project.settings?.quota),
    createdAt: project.created_at,
  } satisfies Partial<ProjectOutputs>);
}

/**
 * The `settings` a create or a PATCH sends for the settings inputs of `news` (network access,
 * logical replication, maintenance window, quota) that differ from `olds` (at create, `olds` is
 * empty), undefined when none does. The allow list travels whole, its switch with it, as the API
 * replaces `allowed_ips` as one object; logical replication is sent only to turn it on, as it
 * cannot be turned off.
 */
function settingsChanges(
  news: Pick<ProjectInputs, SettingsInput>,
  olds: Partial<Pick<ProjectOutputs, SettingsInput>>,
): ProjectSettings | undefined {
  const changed = (key: (typeof NETWORK_INPUTS)[number]) =>
    news[key] !== undefined && JSON.stringify(news[key]) !== JSON.stringify(olds[key]);
  const listChanged = changed("allowedIps") || changed("allowedIpsProtectedBranchesOnly");
  const settings = compact({
    allowed_ips: listChanged
      ? {
          ips: news.allowedIps ?? olds.allowedIps ?? [],
          protected_branches_only:
            news.allowedIpsProtectedBranchesOnly ?? olds.allowedIpsProtectedBranchesOnly ?? false,
        }
      : undefined,
    block_public_connections: changed("blockPublicConnections") ? news.blockPublicConnections : undefined,
    block_vpc_connections: changed("blockVpcConnections") ? news.blockVpcConnections : undefined,
    enable_logical_replication:
      news.enableLogicalReplication === true && olds.enableLogicalReplication !== true ? true : undefined,
    maintenance_window:
      news.maintenanceWindow !== undefined && !sameWindow(news.maintenanceWindow, olds.maintenanceWindow)
        ? apiMaintenanceWindow(news.maintenanceWindow)
        : undefined,
    quota:
      news.quota !== undefined && (olds.quota === undefined || !sameQuota(news.quota, olds.quota))
        ? apiQuota(news.quota)
        : undefined,
  });
  return Object.keys(settings).length > 0 ? settings : undefined;
}

/**
 * `outs` with the default branch protected or not as `wanted` says, with one PATCH of the branch
 * when it is not so already; left out (undefined), the branch stays as it is.
 */
async function withDefaultBranchProtection(
  client: CloudDbClient,
  deadline: number,
  outs: ProjectOutputs,
  wanted: boolean | undefined,
): Promise<ProjectOutputs> {
  if (wanted === undefined || wanted === (outs.defaultBranchProtected ?? false)) return outs;
  const { branch } = await client.updateBranch(
    outs.projectId,
    outs.defaultBranchId,
    { protected: wanted },
    { deadline },
  );
  return { ...outs, defaultBranchProtected: branch.protected ?? wanted };
}

/**
 * The default branch a create asks for: the names the program gives (the API picks the others), and
 * the create key's annotation (`lifecycle/owner.ts`); undefined when there is neither.
 */
function defaultBranchOf(inputs: ProjectInputs, createKey: string | undefined) {
  const branch = compact({
    name: inputs.defaultBranchName,
    role_name: inputs.defaultRoleName,
    database_name: inputs.defaultDatabaseName,
    annotations: createKey === undefined ? undefined : { [CREATED_BY]: createKey },
  });
  return Object.keys(branch).length > 0 ? branch : undefined;
}

function createdOutputs(
  inputs: ProjectInputs,
  made: ProjectCreateResponse,
  connectionUri: string,
): ProjectOutputs {
  const database = made.databases[0];
  const endpoint = made.endpoints.find((e) => e.type === "read_write") ?? made.endpoints[0];
  return {
    ...compact({
      adoptExisting: inputs.adoptExisting,
      deleteProtection: inputs.deleteProtection,
      timeouts: inputs.timeouts,
    }),
    ...projectFields(made.project, inputs.defaultEndpointSettings),
    defaultBranchId: made.branch.id,
    defaultBranchName: made.branch.name,
    defaultBranchProtected: made.branch.protected ?? false,
    defaultEndpointId: endpoint?.id ?? null,
    defaultRoleName: database?.owner_name ?? made.roles[0]?.name ?? null,
    defaultDatabaseName: database?.name ?? null,
    host: endpoint?.host ?? null,
    connectionUri,
    operationIds: made.operations.map((op) => op.id),
    pendingOperationIds: [],
  };
}

/** A project found by id (adoption, or refresh without state): the project, then its default branch's compute, role and database. */
async function readDefaults(
  client: CloudDbClient,
  projectId: string,
  inputs: Pick<ProjectInputs, "adoptExisting" | "deleteProtection" | "timeouts">,
): Promise<ProjectOutputs> {
  const project = await client.getProject(projectId);
  const branches = await client.listBranches(projectId);
  const branch = branches.find((b) => b.default === true) ?? branches.find((b) => b.parent_id == null);
  const endpoints = branch === undefined ? [] : await client.listBranchEndpoints(projectId, branch.id);
  const endpoint = endpoints.find((e) => e.type === "read_write");
  const database = branch === undefined ? undefined : (await client.listDatabases(projectId, branch.id))[0];
  return withConnectionUri(client, {
    ...compact({
      adoptExisting: inputs.adoptExisting,
      deleteProtection: inputs.deleteProtection,
      timeouts: inputs.timeouts,
    }),
    ...projectFields(project, undefined),
    defaultBranchId: branch?.id ?? "",
    ...compact({ defaultBranchName: branch?.name, defaultBranchProtected: branch?.protected ?? undefined }),
    defaultEndpointId: endpoint?.id ?? null,
    defaultRoleName: database?.owner_name ?? null,
    defaultDatabaseName: database?.name ?? null,
    host: endpoint?.host ?? null,
    connectionUri: "",
    operationIds: [],
    pendingOperationIds: [],
  });
}

/** `outs` with its connection string, read from the API when it was not received (and can be). */
async function withConnectionUri(client: CloudDbClient, outs: ProjectOutputs): Promise<ProjectOutputs> {
  const { defaultRoleName: roleName, defaultDatabaseName: databaseName } = outs;
  if (
    outs.connectionUri !== "" ||
    roleName === null ||
    databaseName === null ||
    outs.defaultEndpointId === null
  )
    return outs;
  const connectionUri = await client.getConnectionUri(outs.projectId, {
    roleName,
    databaseName,
    branchId: outs.defaultBranchId,
    endpointId: outs.defaultEndpointId,
  });
  return { ...outs, connectionUri };
}

function pickKeys(live: DefaultEndpointSettings, keep: DefaultEndpointSettings): DefaultEndpointSettings {
  const out: DefaultEndpointSettings = {};
  for (const key of COMPUTE_SETTINGS) {
    const value = live[key];
    if (keep[key] !== undefined && value !== undefined) out[key] = value;
  }
  return out;
}

/** Whether every setting `wanted` gives has that value in `had`. */
function sameSettings(wanted: DefaultEndpointSettings | undefined, had: unknown): boolean {
  const have = (had ?? {}) as Record<string, unknown>;
  return COMPUTE_SETTINGS.every((key) => wanted?.[key] === undefined || wanted[key] === have[key]);
}
