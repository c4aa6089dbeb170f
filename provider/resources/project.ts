/**
 * A Project's definition: the one object the lifecycle runs for a project, each step with its API
 * calls. What its steps call lives beside it: `projectInputs.ts`, `projectOutputs.ts` and
 * `projectRequests.ts`.
 */
import { isNotFound, type Operation } from "../client";
import { ProjectCreateResponseSchema } from "../client/schemas";
import { ResourceError, unfinished } from "./errors";
import { recoverableFind, regionFind, transferFind } from "./finds";
import { apiComputeSettings } from "./inputs/compute";
import { sameQuota, sameWindow } from "./inputs/projectSettings";
import { adoptLive } from "./lifecycle/adoption";
import { isUnknown } from "./lifecycle/check";
import { compact, createdSince, defineResource, type ResourceDefinition } from "./lifecycle/define";
import { openOperations } from "./lifecycle/openOperations";
import { CREATED_BY, markedName } from "./lifecycle/owner";
import { ProjectInputsSchema } from "./projectInputs";
import {
  createdOutputs,
  projectFields,
  readDefaults,
  sameSettings,
  taken,
  withConnectionUri,
} from "./projectOutputs";
import {
  defaultBranchOf,
  moveProject,
  placeOf,
  recovered,
  settingsChanges,
  transferFix,
  withDefaultBranchProtection,
} from "./projectRequests";
import { PROJECT, type ProjectInputs, type ProjectOutputs } from "./public/project";

export type { ProjectInputs, ProjectOutputs } from "./public/project";

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
  finds: (inputs, olds) => [
    inputs.regionId === undefined ? undefined : regionFind("regionId", inputs.regionId, inputs.orgId),
    // A move out of a declared organization: the key must be one of its admins' (see `moveProject`).
    typeof olds.orgId === "string" && inputs.orgId !== undefined && inputs.orgId !== olds.orgId
      ? transferFind("orgId", olds.orgId, inputs.orgId, transferFix(olds.orgId, inputs.orgId))
      : undefined,
    // Adopting a deleted project recovers it: the preview says so.
    inputs.adoptExisting === undefined || Object.keys(olds).length > 0
      ? undefined
      : recoverableFind("adoptExisting", inputs.adoptExisting, inputs.orgId),
  ],
  review(olds, news) {
    const lines = [
      oneWayReview("enableLogicalReplication", olds, news),
      oneWayReview("hipaa", olds, news),
      moveReview(olds, news),
    ].filter((l) => l !== undefined);
    return lines.length === 0 ? undefined : lines.join("; ");
  },
  same: {
    // Only the settings given are compared: the API fills in the rest.
    defaultEndpointSettings: (news, olds) => sameSettings(news, olds),
    maintenanceWindow: (news, olds) => sameWindow(news, olds),
    quota: (news, olds) => sameQuota(news, olds),
  },
  id: (outs) => outs.projectId,
  marksStack: true,
  // A compute that did not start stays usable: it starts on the next connection.
  survives: new Set(["start_compute", "suspend_compute"]),

  /**
   * Creates the project, its default branch annotated with the create key and the stack's marks (`lifecycle/owner.ts`);
   * left unnamed, it is named from the key, so a run after a killed one finds it among few.
   */
  async create({ client, deadline, createKey, owner }, inputs) {
    const made = await client.createProject(
      {
        project: compact({
          name: inputs.name ?? (createKey === undefined ? undefined : markedName(createKey)),
          branch: defaultBranchOf(inputs, createKey, owner),
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
    try {
      const protectedOuts = await withDefaultBranchProtection(
        client,
        deadline,
        outs,
        inputs.protectDefaultBranch,
      );
      return await withConnectionUri(client, protectedOuts);
    } catch (err) {
      // The project exists: recorded, the next `up` protects its branch and reads the connection string.
      const recorded: ProjectOutputs = { ...outs, connectionUri: "" };
      throw unfinished("project", outs.projectId, inputs, recorded, err);
    }
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

  /**
   * Takes the project as it is; a project deleted less than 7 days ago is recovered first, with its
   * branches and computes (one the service cannot recover fails with the read's not-found error).
   */
  async adopt(step, inputs, projectId): Promise<ProjectOutputs> {
    const { client } = step;
    const live = await readDefaults(client, projectId, inputs).catch(async (err: unknown) => {
      if (!isNotFound(err) || !(await recovered(client, projectId))) throw err;
      return readDefaults(client, projectId, inputs);
    });
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

  /**
   * One PATCH of the changed in-place rows, then one of the default branch when its protection
   * changes; a connection string never received is read again.
   */
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
    if (moves(olds, news)) {
      await moveProject(client, projectId, olds.orgId, news.orgId);
      next = { ...next, orgId: news.orgId };
    }
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

/** The switches the service never turns off again: what each is called, and what turning it on does. */
const ONE_WAY = {
  enableLogicalReplication: {
    what: "logical replication",
    on: "the update turns logical replication on, which restarts every compute of the project and cannot be undone",
  },
  hipaa: {
    what: "HIPAA compliance",
    on: "the update turns HIPAA compliance on (audit logging included), which restarts every compute of the project and cannot be undone",
  },
} as const;

/** Refuses turning a one-way switch off, and says turning it on cannot be undone (a state without it reads as off). */
function oneWayReview(
  key: keyof typeof ONE_WAY,
  olds: ProjectOutputs,
  news: ProjectInputs,
): string | undefined {
  const wanted = news[key];
  if (wanted === undefined || wanted === (olds[key] ?? false)) return undefined;
  const { what, on } = ONE_WAY[key];
  if (!wanted) {
    throw new ResourceError(
      "ChangeRefused",
      `${key} cannot be turned off: the service keeps ${what} on once it is on. ` +
        "Set it back to true, or remove it (no opinion)",
    );
  }
  return on;
}

/** Whether the update moves the project to the organization `news` declares (known, and not where it is). */
function moves(olds: ProjectOutputs, news: ProjectInputs): news is ProjectInputs & { orgId: string } {
  return news.orgId !== undefined && !isUnknown(news.orgId) && news.orgId !== olds.orgId;
}

/** Says the update moves the project between organizations, and what that changes. */
function moveReview(olds: ProjectOutputs, news: ProjectInputs): string | undefined {
  if (!moves(olds, news)) return undefined;
  const keys =
    olds.orgId === null || olds.orgId === undefined
      ? ""
      : `; project-scoped API keys of organization ${olds.orgId} stop working for good`;
  return (
    `the update moves the project from ${placeOf(olds.orgId)} to organization ${news.orgId} in place ` +
    `(a transfer: its id, branches, computes and data stay${keys})`
  );
}
