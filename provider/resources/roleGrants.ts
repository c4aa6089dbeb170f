import { randomBytes } from "node:crypto";
import type { Client as PgClient } from "pg";
import { z } from "zod";
import { UsageError } from "../client/errors";
import { hostLine } from "./host/progress";
import { ProjectOfBranchInput, requiredId, sqlNameInput, TimeoutsInput } from "./inputs/common";
import { declaredInputs } from "./lifecycle/check";
import { defineResource, type Same, type Step } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import { ROLE_GRANTS, type RoleGrantsInputs, type RoleGrantsOutputs } from "./public/roleGrants";
import { wasRestoredHere } from "./restores";
import {
  asOwner,
  connectionUriOf,
  databaseLabel,
  ident,
  inTransaction,
  literal,
  withOwnerSession,
  withSession,
} from "./sqlSession";

export type { RoleGrantsInputs, RoleGrantsOutputs } from "./public/roleGrants";

// ---------------------------------------------------------------- inputs

/** Inputs as the provider sees them. */
export const RoleGrantsInputsSchema = z.object({
  projectId: ProjectOfBranchInput,
  branchId: requiredId("branchId", "the branch the database is on (br-...)"),
  databaseName: requiredId("databaseName", "the database whose schemas the privileges are on"),
  ownerName: requiredId("ownerName", "the role that owns the database's tables (its owner, say)"),
  roleName: sqlNameInput("roleName", "the role that receives the privileges").refine(
    (name) => !/^(pg_|neon_|cloud_admin$|neondb_owner$)/.test(name),
    {
      error: "roleName is a name the service reserves (pg_*, neon_*, cloud_admin): choose another, e.g. app",
    },
  ),
  createRole: z.boolean({ error: "createRole must be true or false" }).optional(),
  access: z
    .enum(["read-write", "read-only"], { error: 'access must be "read-write" or "read-only"' })
    .optional(),
  schemas: z
    .array(sqlNameInput("schemas[]", "a schema name"), { error: "schemas must be a list of schema names" })
    .min(1, { error: 'schemas must name at least one schema (default ["public"])' })
    .optional(),
  timeouts: TimeoutsInput,
});

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof RoleGrantsInputsSchema>, RoleGrantsInputs>;

// ---------------------------------------------------------------- privileges

/** The privileges this kind manages on tables and sequences, by access. */
const PRIVILEGES = {
  "read-write": { tables: ["SELECT", "INSERT", "UPDATE", "DELETE"], sequences: ["USAGE", "SELECT"] },
  "read-only": { tables: ["SELECT"], sequences: ["SELECT"] },
} as const;

/** Every privilege this kind may grant, by object type: what it revokes where it grants less. */
const MANAGED = PRIVILEGES["read-write"];

type Access = keyof typeof PRIVILEGES;

/** What the state's grants say, with the defaults filled in. */
interface Wanted {
  access: Access;
  schemas: string[];
}

const wantedOf = (inputs: Pick<RoleGrantsInputs, "access" | "schemas">): Wanted => ({
  access: inputs.access ?? "read-write",
  schemas: inputs.schemas ?? ["public"],
});

const target = asOwner;
const where = databaseLabel;

/** Whether the role exists in the cluster the session is on. */
async function roleExists(db: PgClient, role: string): Promise<boolean> {
  const { rowCount } = await db.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [role]);
  return (rowCount ?? 0) > 0;
}

/** The statements that grant `wanted` to the role and revoke the rest of what this kind manages. */
function grantStatements(props: RoleGrantsInputs, wanted: Wanted, dropped: string[]): string[] {
  const role = ident(props.roleName);
  const owner = ident(props.ownerName);
  const given = PRIVILEGES[wanted.access];
  const withheld = {
    tables: MANAGED.tables.filter((p) => !(given.tables as readonly string[]).includes(p)),
    sequences: MANAGED.sequences.filter((p) => !(given.sequences as readonly string[]).includes(p)),
  };
  const statements: string[] = [];
  for (const name of wanted.schemas) {
    const schema = ident(name);
    const defaults = `ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA ${schema}`;
    statements.push(
      `GRANT USAGE ON SCHEMA ${schema} TO ${role}`,
      `GRANT ${given.tables.join(", ")} ON ALL TABLES IN SCHEMA ${schema} TO ${role}`,
      `GRANT ${given.sequences.join(", ")} ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role}`,
      `${defaults} GRANT ${given.tables.join(", ")} ON TABLES TO ${role}`,
      `${defaults} GRANT ${given.sequences.join(", ")} ON SEQUENCES TO ${role}`,
    );
    if (withheld.tables.length > 0) {
      statements.push(
        `REVOKE ${withheld.tables.join(", ")} ON ALL TABLES IN SCHEMA ${schema} FROM ${role}`,
        `${defaults} REVOKE ${withheld.tables.join(", ")} ON TABLES FROM ${role}`,
      );
    }
    if (withheld.sequences.length > 0) {
      statements.push(
        `REVOKE ${withheld.sequences.join(", ")} ON ALL SEQUENCES IN SCHEMA ${schema} FROM ${role}`,
        `${defaults} REVOKE ${withheld.sequences.join(", ")} ON SEQUENCES FROM ${role}`,
      );
    }
  }
  for (const name of dropped) statements.push(...revokeStatements(props, name));
  return statements;
}

/** The statements that revoke what this kind manages on schema `name`. */
function revokeStatements(props: RoleGrantsInputs, name: string): string[] {
  const role = ident(props.roleName);
  const schema = ident(name);
  const defaults = `ALTER DEFAULT PRIVILEGES FOR ROLE ${ident(props.ownerName)} IN SCHEMA ${schema}`;
  return [
    `REVOKE ${MANAGED.tables.join(", ")} ON ALL TABLES IN SCHEMA ${schema} FROM ${role}`,
    `REVOKE ${MANAGED.sequences.join(", ")} ON ALL SEQUENCES IN SCHEMA ${schema} FROM ${role}`,
    `${defaults} REVOKE ${MANAGED.tables.join(", ")} ON TABLES FROM ${role}`,
    `${defaults} REVOKE ${MANAGED.sequences.join(", ")} ON SEQUENCES FROM ${role}`,
    `REVOKE USAGE ON SCHEMA ${schema} FROM ${role}`,
  ];
}

/** The schemas of `names` the database lacks. */
async function absentSchemas(db: PgClient, names: string[]): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    "SELECT nspname AS name FROM pg_namespace WHERE nspname = ANY($1)",
    [names],
  );
  const present = new Set(rows.map((r) => r.name));
  return names.filter((n) => !present.has(n));
}

/**
 * Makes the role when this resource makes it, grants `wanted` and revokes the rest, in one
 * transaction on a session of the owner; `dropped` are schemas an earlier state granted on.
 */
async function apply(
  db: PgClient,
  props: RoleGrantsInputs,
  wanted: Wanted,
  password: string,
  dropped: string[],
): Promise<void> {
  const absent = await absentSchemas(db, wanted.schemas);
  if (absent.length > 0) {
    throw new UsageError(
      "InvalidArgument",
      `schema "${absent[0]}" does not exist in ${where(props)}: create it (in a migration, say) before granting on it, or leave it out of schemas`,
    );
  }
  const exists = await roleExists(db, props.roleName);
  if (!exists && props.createRole !== true) {
    throw new UsageError(
      "InvalidArgument",
      `role "${props.roleName}" does not exist on branch ${props.branchId}: set createRole: true to have these grants make it, or declare the role first`,
    );
  }
  const role = ident(props.roleName);
  const statements: string[] = [];
  if (props.createRole === true) {
    statements.push(
      exists ? `ALTER ROLE ${role} WITH LOGIN` : `CREATE ROLE ${role} WITH LOGIN`,
      `ALTER ROLE ${role} WITH PASSWORD ${literal(password)}`,
    );
  }
  // A schema dropped since holds no grants left to revoke.
  const absentDropped = new Set(await absentSchemas(db, dropped));
  statements.push(
    ...grantStatements(
      props,
      wanted,
      dropped.filter((s) => !absentDropped.has(s)),
    ),
  );
  await inTransaction(
    db,
    statements,
    `granting ${wanted.access} to role "${props.roleName}" on ${where(props)}`,
  );
}

/** What the catalogs lack of `wanted`, and what they hold beyond it, in words (`INSERT on public.orders`). */
async function missingGrants(db: PgClient, props: RoleGrantsInputs, wanted: Wanted): Promise<string[]> {
  if (!(await roleExists(db, props.roleName))) return [`role ${props.roleName}`];
  const given = PRIVILEGES[wanted.access];
  const missing: string[] = [];
  for (const schema of await absentSchemas(db, wanted.schemas)) missing.push(`schema ${schema}`);
  // Only what the owner can grant: tables and sequences it owns (or holds the owning role of).
  const privileges = (relkinds: string[], names: readonly string[]) =>
    db.query<{ schema: string; name: string; privilege: string; held: boolean }>(
      `SELECT n.nspname AS schema, c.relname AS name, p.privilege,
              CASE WHEN c.relkind = 'S' THEN has_sequence_privilege($1, c.oid, p.privilege)
                   ELSE has_table_privilege($1, c.oid, p.privilege) END AS held
         FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
         CROSS JOIN unnest($3::text[]) AS p(privilege)
        WHERE n.nspname = ANY($2) AND c.relkind = ANY($4::"char"[])
          AND pg_has_role(current_user, c.relowner, 'MEMBER')
        ORDER BY 1, 2, 3`,
      [props.roleName, wanted.schemas, [...names], relkinds],
    );
  const compare = (
    rows: { schema: string; name: string; privilege: string; held: boolean }[],
    wantedPrivileges: readonly string[],
  ) => {
    for (const r of rows) {
      const wants = wantedPrivileges.includes(r.privilege);
      if (wants && !r.held) missing.push(`${r.privilege} on ${r.schema}.${r.name}`);
      if (!wants && r.held) missing.push(`${r.privilege} on ${r.schema}.${r.name} (beyond ${wanted.access})`);
    }
  };
  compare((await privileges(["r", "p", "v", "m", "f"], MANAGED.tables)).rows, given.tables);
  compare((await privileges(["S"], MANAGED.sequences)).rows, given.sequences);
  const usage = await db.query<{ schema: string; held: boolean }>(
    `SELECT s AS schema, has_schema_privilege($1, s, 'USAGE') AS held
       FROM unnest($2::text[]) AS s WHERE s IN (SELECT nspname FROM pg_namespace)`,
    [props.roleName, wanted.schemas],
  );
  for (const r of usage.rows) if (!r.held) missing.push(`USAGE on schema ${r.schema}`);
  const defaults = await db.query<{ schema: string; type: string; privilege: string }>(
    `SELECT n.nspname AS schema, d.defaclobjtype AS type, a.privilege_type AS privilege
       FROM pg_default_acl d
       JOIN pg_namespace n ON n.oid = d.defaclnamespace
       CROSS JOIN LATERAL aclexplode(d.defaclacl) a
      WHERE d.defaclrole = (SELECT oid FROM pg_roles WHERE rolname = $1)
        AND a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $2)
        AND n.nspname = ANY($3)`,
    [props.ownerName, props.roleName, wanted.schemas],
  );
  const held = new Set(defaults.rows.map((r) => `${r.schema}/${r.type}/${r.privilege}`));
  for (const schema of wanted.schemas) {
    for (const [type, noun, privileges] of [
      ["r", "tables", given.tables],
      ["S", "sequences", given.sequences],
    ] as const) {
      for (const privilege of privileges) {
        if (!held.has(`${schema}/${type}/${privilege}`))
          missing.push(`${privilege} on new ${noun} in ${schema}`);
      }
    }
  }
  return missing;
}

/**
 * Drops the role this resource made. One that still holds what was granted elsewhere (objects of
 * another database depend on it: SQLSTATE 2BP01) stays, and a line says so: those grants are not
 * this resource's to revoke.
 */
async function dropRole(db: PgClient, props: RoleGrantsInputs): Promise<void> {
  try {
    await db.query(`DROP ROLE ${ident(props.roleName)}`);
  } catch (err) {
    if ((err as { code?: string }).code !== "2BP01") {
      throw new Error(
        `dropping role "${props.roleName}" on branch ${props.branchId} failed: ${(err as Error).message}`,
      );
    }
    hostLine(
      `role "${props.roleName}" on branch ${props.branchId} keeps privileges granted outside these grants, so it stays: revoke them and drop it over SQL if it is no longer used`,
    );
  }
}

// ---------------------------------------------------------------- the kind

/** A connection string of the role the resource made, through the branch's pooler. */
async function roleUri(step: Step, props: RoleGrantsInputs, password: string): Promise<string> {
  if (props.createRole !== true) return "";
  const owner = await connectionUriOf(step.client, target(props), true);
  if (owner === undefined) return "";
  const url = new URL(owner);
  url.username = props.roleName;
  url.password = password;
  return url.href;
}

/** The state of grants applied as `inputs` say. */
async function outputsOf(step: Step, inputs: RoleGrantsInputs, password: string): Promise<RoleGrantsOutputs> {
  const wanted = wantedOf(inputs);
  return {
    ...declaredInputs<RoleGrantsInputs>(RoleGrantsInputsSchema, inputs),
    createRole: inputs.createRole ?? false,
    access: wanted.access,
    schemas: wanted.schemas,
    missingGrants: [],
    password,
    connectionUri: await roleUri(step, inputs, password),
  };
}

/** Applies `inputs` on a session of the owner; fails naming the branch when the API has no such database. */
async function applied(
  step: Step,
  inputs: RoleGrantsInputs,
  password: string,
  dropped: string[] = [],
): Promise<RoleGrantsOutputs> {
  await withOwnerSession(step.client, inputs, (db) => apply(db, inputs, wantedOf(inputs), password, dropped));
  return outputsOf(step, inputs, password);
}

/** The privileges a role holds on a database's schemas, applied over SQL. */
export const roleGrantsDefinition = defineResource<RoleGrantsInputs, RoleGrantsOutputs>(ROLE_GRANTS, {
  inputs: RoleGrantsInputsSchema,
  id: (outs) => `${outs.projectId}/${outs.branchId}/${outs.databaseName}/${outs.roleName}`,
  onBranch: ({ projectId, branchId }) => ({ projectId, branchId }),
  // A grant the catalogs lack (revoked outside, undone by a reset) shows as a change of `access`.
  same: {
    createRole: (news, olds) => (news ?? false) === (olds ?? false),
    schemas: (news, olds) => JSON.stringify(news ?? ["public"]) === JSON.stringify(olds ?? ["public"]),
    access: (news, olds, { olds: state }) =>
      (news ?? "read-write") === (olds ?? "read-write") && (state.missingGrants ?? []).length === 0,
  },
  // After this run reset or restored the branch, its catalogs are the source's: grant again.
  stale: (olds) => wasRestoredHere(olds.branchId),

  /** Makes the role when asked (a fresh password), then grants; a role a killed run made is taken, its password set anew. */
  async create(step, inputs) {
    const password = inputs.createRole === true ? randomBytes(24).toString("base64url") : "";
    return applied(step, inputs, password);
  },

  /** The grants as the catalogs hold them now; gone with the branch, database or owner. */
  async read({ client }, _id, props) {
    if (props === undefined) return undefined;
    const missing = await withSession(client, target(props), (db) =>
      missingGrants(db, props, wantedOf(props)),
    );
    if (missing === undefined) return undefined;
    return { ...props, missingGrants: missing };
  },

  /** Grants as the inputs say now, revoking what they no longer give and the schemas they left. */
  async update(step, _id, outs, olds) {
    const dropped = wantedOf(olds).schemas.filter((s) => !wantedOf(outs).schemas.includes(s));
    return applied(step, outs, olds.password, dropped);
  },

  /** The grants of an existing role, for `pulumi import`: the catalogs say what is missing. */
  async readExisting(step, inputs) {
    const outs = await outputsOf(step, { ...inputs, createRole: false }, "");
    const missing = await withSession(step.client, target(inputs), (db) =>
      missingGrants(db, inputs, wantedOf(inputs)),
    );
    if (missing === undefined) {
      throw new UsageError(
        "InvalidArgument",
        `the API has no database "${inputs.databaseName}" on branch ${inputs.branchId}`,
      );
    }
    return { ...outs, missingGrants: missing };
  },

  /** Revokes what the grants gave, and drops the role when this resource made it; gone with the branch is done. */
  async remove({ client }, _id, props) {
    await withSession(client, target(props), async (db) => {
      if (!(await roleExists(db, props.roleName))) return;
      const { schemas } = wantedOf(props);
      const absent = new Set(await absentSchemas(db, schemas));
      const statements = schemas.filter((s) => !absent.has(s)).flatMap((s) => revokeStatements(props, s));
      await inTransaction(
        db,
        statements,
        `revoking the grants of role "${props.roleName}" on ${where(props)}`,
      );
      if (props.createRole) await dropRole(db, props);
    });
  },
});

export const { configure, check, diff, create, read, update, remove } = providerMethods(roleGrantsDefinition);
