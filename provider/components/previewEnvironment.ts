/**
 * What a `PreviewEnvironment` makes, written once for both places it is made: the TypeScript class
 * (children are this package's classes) and the provider plugin's `Construct` (children are the
 * package's resources, registered with the engine by type token). Each child is a resource of the
 * stack, so a preview shows it, a refresh reads it, and a run killed anywhere is finished by the next.
 */
import * as pulumi from "@pulumi/pulumi";
import { getConnectionUriOutput } from "../data/connectionUri";
import { getBranchesOutput, getDatabasesOutput } from "../data/lookups";
import { getSchemaDiffOutput } from "../data/schemaDiff";
import type { AppliedMigration } from "../resources/public/migrations";
import { MAX_EXPIRY_SECONDS, ttlSeconds } from "../resources/public/ttl";
import type { PreviewEnvironmentArgs } from "./previewEnvironment.declared";

/** A child resource. */
export type Child = pulumi.CustomResource;

/** The output `key` of a child (every declared output is an Output field of it). */
function out<T>(child: Child, key: string): pulumi.Output<T> {
  return (child as unknown as Record<string, pulumi.Output<T>>)[key] as pulumi.Output<T>;
}

/** How a child of a kind is made where the environment is made. */
export type MakeChild = (
  name: string,
  args: Record<string, unknown>,
  opts: pulumi.CustomResourceOptions,
) => Child;

/** The kinds an environment's children are of. */
export const CHILD_KINDS = [
  "Branch",
  "Role",
  "Database",
  "Endpoint",
  "RoleGrants",
  "BranchAuth",
  "DataApi",
  "Migrations",
] as const;

/** Each kind of {@link CHILD_KINDS} with how a child of it is made. */
export type Children = Record<(typeof CHILD_KINDS)[number], MakeChild>;

/** The outputs of an environment, as the component registers them. */
export interface PreviewEnvironmentOutputs {
  branchId: pulumi.Output<string>;
  endpointId: pulumi.Output<string>;
  host: pulumi.Output<string>;
  expiresAt: pulumi.Output<string | null>;
  databaseName: pulumi.Output<string>;
  ownerName: pulumi.Output<string>;
  runtimeRoleName: pulumi.Output<string>;
  migrationUri: pulumi.Output<string>;
  runtimeUri: pulumi.Output<string>;
  appliedMigrations: pulumi.Output<AppliedMigration[]>;
  schemaDiff: pulumi.Output<string>;
  dataApiUrl: pulumi.Output<string | undefined>;
  authBaseUrl: pulumi.Output<string | undefined>;
}

/** Why the plain inputs cannot make an environment, in the program's terms; undefined when they can. */
export function previewInputProblem(args: {
  ttl?: unknown;
  data?: unknown;
  maskingRules?: unknown;
  resetTrigger?: unknown;
}): string | undefined {
  if (typeof args.ttl === "string") {
    const seconds = ttlSeconds(args.ttl);
    if (seconds === undefined || seconds <= 0)
      return `ttl "${args.ttl}" is not a duration: give hours or days, e.g. "72h" or "3d"`;
    if (seconds > MAX_EXPIRY_SECONDS)
      return `ttl "${args.ttl}" is more than the 30 days a branch may live: give at most "720h"`;
  }
  const data = args.data ?? "schema-only";
  if (typeof data === "string" && !["schema-only", "data", "anonymized"].includes(data))
    return `data is "schema-only", "data" or "anonymized", not "${data}"`;
  if (Array.isArray(args.maskingRules) && args.maskingRules.length > 0 && data !== "anonymized")
    return `maskingRules apply to an anonymized copy only: set data: "anonymized", or remove maskingRules`;
  if (args.resetTrigger !== undefined && data === "schema-only")
    return `resetTrigger resets the branch from its parent's data, which a schema-only copy does not hold: set data: "data" or "anonymized", or remove resetTrigger`;
  return undefined;
}

const INIT_SOURCE = { "schema-only": "schema-only", data: "parent-data", anonymized: "anonymized" } as const;

/**
 * At up, what the program does once the branch answers, done instead while the engine makes it.
 * The owner and the database are registered from inside an `apply` then, and Pulumi takes a stack
 * trace of every resource it registers, mapped through the source maps of the files on the stack:
 * the first trace taken inside an `apply` parses the map of Pulumi's own `output.js` (about 10 ms,
 * where the next role's request waits). And the program reads once the compute exists (the owner's
 * connection string): the HTTP client and its transport are loaded now rather than on that path.
 */
function prepareForBranchAnswer(): void {
  pulumi.output(undefined).apply(() => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = Number.POSITIVE_INFINITY;
    try {
      void new Error().stack;
    } finally {
      Error.stackTraceLimit = limit;
    }
  });
  (require("../client") as typeof import("../client")).preloadTransport();
}

/**
 * Makes the environment's children under `parent` and answers its outputs. Plain inputs it can
 * judge are judged here, at preview; the parent's protection once its lookup answers.
 */
export function makePreviewEnvironment(
  parent: pulumi.Resource,
  name: string,
  args: PreviewEnvironmentArgs,
  make: Children,
): PreviewEnvironmentOutputs {
  const problem = previewInputProblem(args as Parameters<typeof previewInputProblem>[0]);
  if (problem !== undefined) throw new pulumi.RunError(`PreviewEnvironment ${name}: ${problem}`);
  const { projectId } = args;
  const opts = (dependsOn: pulumi.Input<pulumi.Resource[]> = []): pulumi.CustomResourceOptions => ({
    parent,
    dependsOn,
  });
  const databaseName = pulumi.output(args.databaseName ?? "app");
  const data = pulumi.output(args.data ?? "schema-only");

  // The parent: by id, by name, or the project's default branch; a `data` copy of a protected one is refused.
  const lookedUp = () =>
    pulumi
      .all([getBranchesOutput({ projectId }), args.parentBranch, data])
      .apply(([{ branches }, wanted, copied]) => {
        const found = branches.find((b) =>
          wanted === undefined || wanted === "" ? b.default : b.id === wanted || b.name === wanted,
        );
        if (found === undefined) {
          throw new pulumi.RunError(
            `PreviewEnvironment ${name}: the project has no branch "${wanted}": give parentBranch a branch's id or name, or leave it out for the default branch`,
          );
        }
        if (copied === "data" && found.protected) {
          throw new pulumi.RunError(
            `PreviewEnvironment ${name}: branch "${found.name}" is protected and data: "data" would copy its rows as they are: use data: "anonymized" with maskingRules, or "schema-only"`,
          );
        }
        return found;
      });
  // With no parent named and no copy of rows as they are to check, the branch is made of the
  // project's default branch (the API's own default) without waiting for a lookup, so no request
  // runs before the branch's own; else the lookup names the parent, and refuses it, first.
  const unchecked =
    args.parentBranch === undefined &&
    (args.data === undefined || (typeof args.data === "string" && args.data !== "data"));
  const named = unchecked ? undefined : lookedUp();

  const branch = make.Branch(
    `${name}-branch`,
    {
      projectId,
      parentId: named?.id,
      name: args.name,
      initSource: data.apply((d) => INIT_SOURCE[d as keyof typeof INIT_SOURCE] ?? "schema-only"),
      maskingRules: args.maskingRules,
      ttl: args.ttl ?? "168h",
      resetTrigger: args.resetTrigger,
      pullRequest: args.pullRequest,
      // No `endpoints`: the compute is the Endpoint below, made once the roles and the database exist.
    },
    opts(),
  );
  if (!pulumi.runtime.isDryRun()) setImmediate(prepareForBranchAnswer);
  const branchId = out<string>(branch, "branchId");
  // The parent's id: the lookup's; else, at up, the branch's own record of it once made (nothing is
  // read before the branch; a branch recorded before schema-only branches recorded the default
  // branch they were made of has none, and the default branch is looked up then), and at preview the
  // default branch looked up, so the preview shows every child the up makes.
  const parentId: pulumi.Output<string> =
    named !== undefined
      ? named.id
      : pulumi.runtime.isDryRun()
        ? lookedUp().id
        : out<string | null>(branch, "parentId").apply((id) =>
            id === null || id === undefined || id === "" ? lookedUp().id : pulumi.output(id),
          );

  // The parent's database of that name comes with the branch, its owner too; else both are made.
  // At up, whether it came is what the branch's create recorded (`inheritedDatabases`): nothing is
  // read between the branch and its roles, and a database the parent gains or drops later never
  // turns the ones made here into deletions. A branch recorded without it (made by an earlier
  // version, or found after an interrupted run) and a preview look at the parent's databases.
  type Copied = { name: string; ownerName?: string | null | undefined }[];
  const parentDatabases = (): pulumi.Output<Copied> =>
    getDatabasesOutput({ projectId, branchId: parentId }).apply(({ databases }) => databases as Copied);
  const copied: pulumi.Output<Copied> = pulumi.runtime.isDryRun()
    ? parentDatabases()
    : out<Copied | undefined | null>(branch, "inheritedDatabases").apply((recorded) =>
        recorded === undefined || recorded === null ? parentDatabases() : pulumi.output(recorded),
      );
  const parentDatabase = pulumi
    .all([copied, databaseName])
    .apply(([databases, wanted]) => databases.find((d) => d.name === wanted));
  const made = parentDatabase.apply((found) => {
    if (found !== undefined) return { ownerName: pulumi.output(found.ownerName ?? ""), resources: [] };
    const owner = make.Role(`${name}-owner`, { projectId, branchId }, opts());
    const database = make.Database(
      `${name}-database`,
      { projectId, branchId, name: databaseName, ownerName: out<string>(owner, "name") },
      opts(),
    );
    return { ownerName: out<string>(owner, "name"), resources: [owner, database] };
  });
  const ownerName = made.apply((m) => m.ownerName);
  const ownerResources = made.apply((m) => m.resources as pulumi.Resource[]);

  const compute = make.Endpoint(
    `${name}-compute`,
    { projectId, branchId, ...(args.compute ?? {}) } as Record<string, unknown>,
    opts(ownerResources),
  );

  const sql = { projectId, branchId, databaseName, ownerName };
  let migrations: Child | undefined;
  if (args.migrations !== undefined) {
    migrations = make.Migrations(`${name}-migrations`, { ...sql, folder: args.migrations }, opts([compute]));
  }
  const runtime = pulumi.output(args.runtime ?? {});
  const grants = make.RoleGrants(
    `${name}-runtime`,
    {
      ...sql,
      roleName: runtime.apply((r) => r.name ?? "app"),
      createRole: true,
      access: runtime.apply((r) => r.access ?? "read-write"),
      schemas: runtime.apply((r) => r.schemas ?? ["public"]),
    },
    opts(migrations === undefined ? [compute] : [compute, migrations]),
  );

  // Known at preview (a plain true or false), so the preview shows the children they add.
  const auth =
    args.auth === true
      ? make.BranchAuth(`${name}-auth`, { projectId, branchId, databaseName }, opts([compute]))
      : undefined;
  const dataApi =
    args.dataApi === true
      ? make.DataApi(
          `${name}-data-api`,
          { projectId, branchId, databaseName },
          opts(auth === undefined ? [compute] : [compute, auth]),
        )
      : undefined;

  const endpointId = out<string>(compute, "endpointId");
  // Read a macrotask after the compute answers, once the migrations and grants waiting on it have
  // gone to the engine: the program's first request costs it about 10 ms, which would otherwise
  // come before theirs and hold the migrations back.
  const migrationUri = getConnectionUriOutput({
    projectId,
    branchId,
    endpointId: endpointId.apply((id) => new Promise<string>((resolve) => setImmediate(resolve, id))),
    databaseName,
    roleName: ownerName,
  }).apply((r) => r.uri);
  const appliedMigrations =
    migrations === undefined
      ? pulumi.output([] as AppliedMigration[])
      : out<AppliedMigration[]>(migrations, "applied");
  // Compared once the migrations ran, with the parent's database when it has one.
  const schemaDiff = pulumi
    .all([parentDatabase, appliedMigrations, out<string>(grants, "roleName")])
    .apply(([found]) =>
      found === undefined
        ? pulumi.output("")
        : getSchemaDiffOutput({ projectId, branchId, databaseName, baseBranchId: parentId }).apply(
            (r) => r.diff,
          ),
    );

  return {
    branchId,
    endpointId,
    host: out<string>(compute, "host"),
    expiresAt: out<string | null>(branch, "expiresAt"),
    databaseName,
    ownerName,
    runtimeRoleName: out<string>(grants, "roleName"),
    migrationUri: pulumi.secret(migrationUri),
    runtimeUri: pulumi.secret(out<string>(grants, "connectionUri")),
    appliedMigrations,
    schemaDiff,
    dataApiUrl: dataApi === undefined ? pulumi.output(undefined) : out<string>(dataApi, "url"),
    authBaseUrl: auth === undefined ? pulumi.output(undefined) : out<string>(auth, "baseUrl"),
  };
}
