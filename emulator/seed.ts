import { readFileSync } from "node:fs";
import { z } from "zod";
import {
  DEFAULT_COMPUTE,
  DEFAULT_DATABASE_NAME,
  DEFAULT_PG_VERSION,
  DEFAULT_REGION,
  DEFAULT_ROLE_NAME,
  projectCompute,
} from "./defaults";
import { putKey } from "./families/api-keys";
import { putBranch } from "./families/branches";
import { databaseRecord } from "./families/databases";
import { type EndpointSpec, putEndpoint } from "./families/endpoints";
import { putOrganization, putUser } from "./families/organizations";
import { type ProjectFields, putProject } from "./families/projects";
import { roleRecord } from "./families/roles";
import { ID_PATTERN, IdSource, newUuid, TOKEN_PATTERN } from "./ids";
import type { BranchRecord, ComputeSettings, OperationRecord, OrgRecord } from "./records";
import { computeSettings, INIT_SOURCES, PROVISIONERS, RESERVED_DATABASES, reservedRoleName } from "./rules";
import { Store } from "./state";

// The seed file format: a known account to start from (users, organizations with admin/member
// memberships, projects with their branches and endpoints, API keys of all three kinds with fixed
// tokens, and optionally a history of finished operations). JSON; documented in README.md. The
// records are made by the same family modules (families/) as the API's and the control API's.

const id = z.string().regex(ID_PATTERN, "must match ^[a-z0-9-]{1,60}$");
const timestamp = z.iso.datetime({ offset: true });

const computeUnit = z.number().min(0.25);
const computeSchema = z.object({
  autoscaling_limit_min_cu: computeUnit.optional(),
  autoscaling_limit_max_cu: computeUnit.optional(),
  suspend_timeout_seconds: z.number().int().min(-1).max(604_800).optional(),
});
const endpointSchema = computeSchema.extend({
  id,
  type: z.enum(["read_write", "read_only"]),
  provisioner: z.enum(PROVISIONERS as [string, ...string[]]).optional(),
});
const identifier = z.string().min(1).max(63);
// The API's refusals of reserved names (rules.ts) hold for seeds too: Postgres could not hold them.
const roleName = identifier.refine((name) => reservedRoleName(name) === undefined, {
  error: (issue) =>
    `role name ${JSON.stringify(issue.input)} is reserved: ${reservedRoleName(String(issue.input))}`,
});
const databaseName = identifier.refine((name) => !RESERVED_DATABASES.includes(name), {
  error: (issue) =>
    `database name ${JSON.stringify(issue.input)} is reserved (${RESERVED_DATABASES.join(", ")})`,
});
const branchSchema = z.object({
  id,
  name: z.string().min(1).max(256),
  parent_id: id.optional(),
  protected: z.boolean().optional(),
  created_at: timestamp.optional(),
  expires_at: timestamp.optional(),
  init_source: z.enum(INIT_SOURCES as [string, ...string[]]).optional(),
  endpoints: z.array(endpointSchema).default([]),
  /** Roles on the branch (default: the project's owner role); a password is generated when none is given. */
  roles: z
    .array(
      z.object({
        name: roleName,
        password: z.string().min(1).optional(),
        protected: z.boolean().optional(),
      }),
    )
    .optional(),
  /** Databases on the branch (default: the project's database, owned by its owner role). */
  databases: z.array(z.object({ name: databaseName, owner_name: identifier })).optional(),
});

const seedSchema = z.object({
  users: z
    .array(
      z.object({
        id: z.uuid(),
        name: z.string().min(1),
        email: z.string().min(3),
        image: z.string().default(""),
      }),
    )
    .default([]),
  organizations: z
    .array(
      z.object({
        id,
        name: z.string().min(1),
        created_at: timestamp.optional(),
        members: z.array(z.object({ user_id: z.uuid(), role: z.enum(["admin", "member"]) })).default([]),
        // What a plain member holds on the organization's projects without an explicit role ("none": unassigned).
        member_project_permission: z.enum(["VIEWER", "EDITOR", "ADMIN", "none"]).optional(),
      }),
    )
    .default([]),
  projects: z
    .array(
      z.object({
        id,
        name: z.string().min(1).max(256),
        owner_user_id: z.uuid().optional(),
        org_id: id.optional(),
        region_id: z.string().default(DEFAULT_REGION),
        pg_version: z.number().int().min(14).max(18).default(DEFAULT_PG_VERSION),
        created_at: timestamp.optional(),
        role_name: roleName.default(DEFAULT_ROLE_NAME),
        database_name: databaseName.default(DEFAULT_DATABASE_NAME),
        default_endpoint_settings: computeSchema.optional(),
        history_retention_seconds: z.number().int().min(0).max(2_592_000).optional(),
        default_branch: branchSchema.omit({ parent_id: true }),
        branches: z.array(branchSchema).default([]),
        operations: z
          .array(
            z.object({
              action: z.string().min(1),
              branch_id: id.optional(),
              endpoint_id: id.optional(),
              created_at: timestamp.optional(),
              duration_ms: z.number().int().min(0).default(1000),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
  api_keys: z
    .array(
      z.object({
        id: z.number().int().positive(),
        kind: z.enum(["personal", "organization", "project"]),
        name: z.string().min(1).max(64),
        token: z.string().regex(TOKEN_PATTERN, "must be napi_ followed by 64 lowercase alphanumerics"),
        user_id: z.uuid(),
        org_id: id.optional(),
        project_id: id.optional(),
        created_at: timestamp.optional(),
      }),
    )
    .default([]),
  /** Back the endpoints with a real Postgres (as the `postgres` option). */
  postgres: z.boolean().optional(),
  /** Hand out ids from this seed's sequence (as the `seedIds` option): the same requests get the same ids. */
  seed_ids: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});

/** A seed file, as written (optional fields may be left out). */
export type SeedFile = z.input<typeof seedSchema>;

/** The seed with defaults applied. */
type Seed = z.output<typeof seedSchema>;

/** Reads and validates a seed file from disk; throws with the file name and the first problems. */
export function readSeedFile(path: string): SeedFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read seed file ${path}: ${(error as Error).message}`);
  }
  return parseSeed(parsed, path) as SeedFile;
}

function parseSeed(value: unknown, where: string): Seed {
  const result = seedSchema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
      .join("; ");
    throw new Error(`invalid seed (${where}): ${issues}`);
  }
  return result.data;
}

function seedCompute(
  base: ComputeSettings,
  changes: { [K in keyof ComputeSettings]?: number | undefined },
  where: string,
): ComputeSettings {
  try {
    return computeSettings(base, changes, "");
  } catch (error) {
    throw new Error(`invalid seed: ${where}: ${(error as Error).message}`);
  }
}

/**
 * Builds a fresh store from a seed; `nowMs` dates objects without a `created_at` (one day earlier).
 * Its ids come from the seed's `seed_ids`, else from `seedIds`, else at random.
 */
export function storeFromSeed(input: SeedFile, nowMs: number, seedIds?: number): Store {
  const seed = parseSeed(input, "seed object");
  const store = new Store();
  const idSeed = seed.seed_ids ?? seedIds;
  if (idSeed !== undefined) store.ids = IdSource.seeded(idSeed);
  const fallback = nowMs - 86_400_000;
  const at = (value: string | undefined) => (value === undefined ? fallback : Date.parse(value));
  const fail = (message: string): never => {
    throw new Error(`invalid seed: ${message}`);
  };
  const unique = new Set<string>();
  const claim = (kind: string, value: string) => {
    if (unique.has(value)) fail(`duplicate ${kind} id ${value}`);
    unique.add(value);
  };

  for (const u of seed.users) {
    claim("user", u.id);
    putUser(store, { id: u.id, name: u.name, email: u.email, image: u.image });
  }
  for (const o of seed.organizations) {
    claim("organization", o.id);
    const members: OrgRecord["members"] = {};
    for (const m of o.members) {
      if (!store.users.has(m.user_id)) fail(`organization ${o.id} lists unknown user ${m.user_id}`);
      members[m.user_id] = m.role;
    }
    const permission = o.member_project_permission;
    putOrganization(store, {
      id: o.id,
      name: o.name,
      created_at_ms: at(o.created_at),
      members,
      ...(permission === undefined
        ? {}
        : { member_project_permission: permission === "none" ? null : permission }),
    });
  }
  for (const p of seed.projects) {
    claim("project", p.id);
    if ((p.owner_user_id === undefined) === (p.org_id === undefined)) {
      fail(`project ${p.id} needs exactly one of owner_user_id, org_id`);
    }
    if (p.owner_user_id !== undefined && !store.users.has(p.owner_user_id)) {
      fail(`project ${p.id} has unknown owner ${p.owner_user_id}`);
    }
    if (p.org_id !== undefined && !store.orgs.has(p.org_id))
      fail(`project ${p.id} has unknown org ${p.org_id}`);
    const created = at(p.created_at);
    const fields: ProjectFields = {
      id: p.id,
      name: p.name,
      region_id: p.region_id,
      pg_version: p.pg_version,
      creation_source: "console",
      default_branch_id: p.default_branch.id,
      ...(p.default_endpoint_settings === undefined
        ? {}
        : {
            default_endpoint_settings: seedCompute(
              DEFAULT_COMPUTE,
              p.default_endpoint_settings,
              `project ${p.id}`,
            ),
          }),
      ...(p.history_retention_seconds === undefined
        ? {}
        : { history_retention_seconds: p.history_retention_seconds }),
      ...(p.owner_user_id === undefined ? {} : { owner_user_id: p.owner_user_id }),
      ...(p.org_id === undefined ? {} : { org_id: p.org_id }),
    };
    const project = putProject(store, fields, created);
    const all = [
      { ...p.default_branch, parent_id: undefined, isDefault: true },
      ...p.branches.map((b) => ({ ...b, isDefault: false })),
    ];
    for (const b of all) {
      claim("branch", b.id);
      const bCreated = b.created_at === undefined ? created : Date.parse(b.created_at);
      const branch = putBranch(
        store,
        {
          id: b.id,
          project_id: p.id,
          name: b.name,
          default: b.isDefault,
          protected: b.protected ?? false,
          creation_source: "console",
          roles: (b.roles ?? [{ name: p.role_name }]).map((r) =>
            roleRecord(r.name, bCreated, {
              protected: "protected" in r ? r.protected : undefined,
              password: "password" in r ? r.password : undefined,
            }),
          ),
          databases: (b.databases ?? [{ name: p.database_name, owner_name: p.role_name }]).map((d) =>
            databaseRecord(store, d.name, d.owner_name, bCreated),
          ),
          init_source: b.init_source ?? "parent-data",
        },
        bCreated,
      );
      for (const d of branch.databases) {
        if (!branch.roles.some((r) => r.name === d.owner_name))
          fail(`database ${d.name} on branch ${b.id} is owned by unknown role ${d.owner_name}`);
      }
      if (b.expires_at !== undefined) branch.expires_at_ms = Date.parse(b.expires_at);
      if (b.parent_id !== undefined) branch.parent_id = b.parent_id;
      let readWrite = 0;
      for (const e of b.endpoints) {
        claim("endpoint", e.id);
        if (e.type === "read_write" && ++readWrite > 1)
          fail(`branch ${b.id} has more than one read_write endpoint`);
        const spec: EndpointSpec = {
          type: e.type,
          compute: seedCompute(projectCompute(project), e, `endpoint ${e.id}`),
        };
        if (e.provisioner !== undefined) spec.provisioner = e.provisioner;
        putEndpoint(store, e.id, project, branch, spec, "console", bCreated);
      }
    }
    for (const b of p.branches) {
      const parent = store.branches.get(b.parent_id ?? p.default_branch.id);
      if (!parent || parent.project_id !== p.id) fail(`branch ${b.id} has a parent outside project ${p.id}`);
      if (b.parent_id === undefined)
        (store.branches.get(b.id) as BranchRecord).parent_id = p.default_branch.id;
    }
    let queueEnd = created;
    p.operations.forEach((o, i) => {
      const createdMs = o.created_at === undefined ? created + i * 1000 : Date.parse(o.created_at);
      const op: OperationRecord = {
        id: newUuid(store.ids),
        project_id: p.id,
        branch_id: o.branch_id ?? p.default_branch.id,
        action: o.action,
        created_us: createdMs * 1000 + i,
        start_ms: createdMs,
        duration_ms: o.duration_ms,
        outcome: { kind: "finish" },
        initiator: "console",
      };
      if (o.endpoint_id !== undefined) {
        const endpoint = store.endpoints.get(o.endpoint_id);
        if (!endpoint || endpoint.project_id !== p.id)
          fail(`operation endpoint ${o.endpoint_id} is not in ${p.id}`);
        op.endpoint_id = o.endpoint_id;
        endpoint?.op_ids.push(op.id);
      }
      store.insertOperation(op);
      store.lastUs = Math.max(store.lastUs, op.created_us);
      queueEnd = Math.max(queueEnd, createdMs + o.duration_ms);
    });
    project.queue_end_ms = queueEnd;
    store.projectOps.get(p.id)?.sort((a, b) => a.created_us - b.created_us);
  }
  for (const k of seed.api_keys) {
    if (store.keys.has(k.id)) fail(`duplicate API key id ${k.id}`);
    if (!store.users.has(k.user_id)) fail(`API key ${k.id} has unknown user ${k.user_id}`);
    if (k.kind !== "personal" && (k.org_id === undefined || !store.orgs.has(k.org_id))) {
      fail(`API key ${k.id} (${k.kind}) needs a known org_id`);
    }
    if (k.kind === "project") {
      const project = store.projects.get(k.project_id ?? "");
      if (!project || project.org_id !== k.org_id)
        fail(`API key ${k.id} needs a project_id owned by ${k.org_id}`);
    }
    if (store.keyForToken(k.token)) fail(`API key ${k.id} reuses another key's token`);
    putKey(
      store,
      {
        kind: k.kind,
        name: k.name,
        user_id: k.user_id,
        ...(k.kind !== "personal" && k.org_id !== undefined ? { org_id: k.org_id } : {}),
        ...(k.kind === "project" && k.project_id !== undefined ? { project_id: k.project_id } : {}),
        created_at_ms: at(k.created_at),
      },
      k.token,
      k.id,
    );
  }
  return store;
}
