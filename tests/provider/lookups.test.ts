import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import { isSecret } from "@pulumi/pulumi/output";
import { DEMO, demoSeed, type SeedFile } from "../../emulator";
import {
  getApiKeys,
  getBranch,
  getBranches,
  getBranchOutput,
  getBuckets,
  getConnectionUri,
  getDatabase,
  getDatabases,
  getEndpoint,
  getEndpoints,
  getFunctions,
  getOrganizationInvitations,
  getOrganizationMembers,
  getProject,
  getProjectOutput,
  getRole,
  getRolePassword,
  getRolePasswordOutput,
  getRoles,
  getSnapshots,
  getVpcEndpoints,
} from "../../provider";
import { createClient } from "../../provider/client";
import { isNotFound, isUsageError } from "../../provider/client/errors";
import { useEmulator } from "./support";

// The lookups find what exists by id or by the name users know, from the listings a refresh reads;
// what is not there fails naming what was looked for, where, and what there is.

const P = DEMO.projectId;
const TWIN = "twin-lake-55555555";

/** The demo account, plus a second personal project with the demo project's name, and a second branch with a read-only compute. */
function seed(): SeedFile {
  const base = demoSeed();
  const twin = {
    id: TWIN,
    name: "demo-twin",
    owner_user_id: DEMO.userId,
    region_id: "aws-us-east-2",
    pg_version: 17,
    created_at: "2025-11-21T10:00:00Z",
    default_branch: {
      id: `br-main-${TWIN}`,
      name: "main",
      endpoints: [{ id: "ep-twin-rw-00000001", type: "read_write" }],
    },
  };
  const dup = {
    ...twin,
    id: "twin-dup-66666666",
    default_branch: { ...twin.default_branch, id: "br-main-dup", endpoints: [] },
  };
  return { ...base, projects: [...(base.projects ?? []), twin, dup] } as SeedFile;
}

function resolved<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(error instanceof Error, "the lookup failed");
  return error;
}

describe("lookups against the emulator", () => {
  const harness = useEmulator({ seed: seed() });
  beforeEach(() => harness.emulator.control.clearRequests());

  describe("find an object by id and by the name users know", () => {
    const FINDS: [string, () => Promise<unknown>, (found: unknown) => void][] = [
      [
        "getProject by name",
        () => getProject({ name: "demo-personal" }),
        (r) =>
          assert.deepEqual(pick(r, "project", ["id", "name", "regionId"]), {
            id: P,
            name: "demo-personal",
            regionId: "aws-us-east-2",
          }),
      ],
      [
        "getProject by id",
        () => getProject({ projectId: P }),
        (r) => assert.equal(pick(r, "project", ["name"]).name, "demo-personal"),
      ],
      [
        "getBranch by name",
        () => getBranch({ projectId: P, name: "main" }),
        (r) =>
          assert.deepEqual(pick(r, "branch", ["id", "projectId", "name", "default", "protected"]), {
            id: DEMO.branchId,
            projectId: P,
            name: "main",
            default: true,
            protected: false,
          }),
      ],
      [
        "getBranch by id",
        () => getBranch({ projectId: P, branchId: DEMO.branchId }),
        (r) => assert.equal(pick(r, "branch", ["name"]).name, "main"),
      ],
      [
        "getEndpoint: a branch's read-write compute",
        () => getEndpoint({ projectId: P, branchId: DEMO.branchId }),
        (r) =>
          assert.deepEqual(pick(r, "endpoint", ["id", "branchId", "type", "disabled"]), {
            id: DEMO.endpointId,
            branchId: DEMO.branchId,
            type: "read_write",
            disabled: false,
          }),
      ],
      [
        "getEndpoint by id, with its host",
        () => getEndpoint({ projectId: P, endpointId: DEMO.endpointId }),
        (r) => assert.match(String(pick(r, "endpoint", ["host"]).host), new RegExp(`^${DEMO.endpointId}\\.`)),
      ],
      [
        "getRole by name, with no password",
        () => getRole({ projectId: P, branchId: DEMO.branchId, name: "neondb_owner" }),
        (r) => {
          assert.deepEqual(pick(r, "role", ["name", "branchId", "protected"]), {
            name: "neondb_owner",
            branchId: DEMO.branchId,
            protected: false,
          });
          assert.ok(!JSON.stringify(r).includes("password"));
        },
      ],
      [
        "getDatabase by name",
        () => getDatabase({ projectId: P, branchId: DEMO.branchId, name: "neondb" }),
        (r) =>
          assert.deepEqual(pick(r, "database", ["name", "ownerName", "branchId"]), {
            name: "neondb",
            ownerName: "neondb_owner",
            branchId: DEMO.branchId,
          }),
      ],
      [
        "getBranches",
        () => getBranches({ projectId: P }),
        (r) => assert.deepEqual(names(r, "branches", "name"), ["main"]),
      ],
      [
        "getEndpoints of a branch",
        () => getEndpoints({ projectId: P, branchId: DEMO.branchId }),
        (r) => assert.deepEqual(names(r, "endpoints", "id"), [DEMO.endpointId]),
      ],
      [
        "getRoles",
        () => getRoles({ projectId: P, branchId: DEMO.branchId }),
        (r) => assert.deepEqual(names(r, "roles", "name"), ["neondb_owner"]),
      ],
      [
        "getDatabases",
        () => getDatabases({ projectId: P, branchId: DEMO.branchId }),
        (r) => assert.deepEqual(names(r, "databases", "name"), ["neondb"]),
      ],
    ];
    for (const [name, lookup, check] of FINDS) it(name, async () => check(await lookup()));
  });

  describe("list what a project, a branch or an organization holds", () => {
    before(async () => {
      const client = createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });
      await client.createSnapshot(P, DEMO.branchId, { name: "before-migration" });
      await client.createBucket(P, DEMO.branchId, { name: "uploads" });
      await client.inviteOrgMembers(DEMO.orgId, [{ email: "new@example.com", role: "member" }]);
    });
    const LISTS: [string, () => Promise<unknown>, (found: unknown) => void][] = [
      [
        "getSnapshots of a branch",
        () => getSnapshots({ projectId: P, branchId: DEMO.branchId }),
        (r) => assert.deepEqual(names(r, "snapshots", "name"), ["before-migration"]),
      ],
      [
        "getApiKeys: the personal keys, never a secret",
        () => getApiKeys(),
        (r) => {
          assert.ok(names(r, "apiKeys", "name").includes("demo-personal-key"));
          assert.ok(!JSON.stringify(r).includes("napi_"), "a key's secret is in a listing");
        },
      ],
      [
        "getApiKeys of an organization, by name, with the project a scoped key is for",
        () => getApiKeys({ orgId: DEMO.orgId, name: "demo-project-key" }),
        (r) => {
          assert.deepEqual(names(r, "apiKeys", "name"), ["demo-project-key"]);
          assert.deepEqual(names(r, "apiKeys", "projectId"), [DEMO.orgProjectId]);
        },
      ],
      [
        "getOrganizationMembers by email, in any case",
        () => getOrganizationMembers({ orgId: DEMO.orgId, email: "Casey@Example.com" }),
        (r) => assert.deepEqual(names(r, "members", "userId"), [DEMO.memberUserId]),
      ],
      [
        "getOrganizationMembers, all",
        () => getOrganizationMembers({ orgId: DEMO.orgId }),
        (r) => assert.deepEqual(names(r, "members", "role").sort(), ["admin", "member"]),
      ],
      [
        "getOrganizationInvitations",
        () => getOrganizationInvitations({ orgId: DEMO.orgId }),
        (r) => assert.deepEqual(names(r, "invitations", "email"), ["new@example.com"]),
      ],
      [
        "getBuckets",
        () => getBuckets({ projectId: P, branchId: DEMO.branchId }),
        (r) => assert.deepEqual(names(r, "buckets", "name"), ["uploads"]),
      ],
      [
        "getFunctions of a branch with none",
        () => getFunctions({ projectId: P, branchId: DEMO.branchId }),
        (r) => assert.deepEqual(r, { functions: [] }),
      ],
      [
        "getVpcEndpoints of a project with none",
        () => getVpcEndpoints({ projectId: P }),
        (r) => assert.deepEqual(r, { vpcEndpoints: [] }),
      ],
    ];
    for (const [name, lookup, check] of LISTS) it(name, async () => check(await lookup()));

    it("getRolePassword reads the role's password, a secret in its Output form", async () => {
      const { password } = await getRolePassword({
        projectId: P,
        branchId: DEMO.branchId,
        roleName: "neondb_owner",
      });
      const { uri } = await getConnectionUri({
        projectId: P,
        databaseName: "neondb",
        roleName: "neondb_owner",
      });
      assert.equal(decodeURIComponent(new URL(uri).password), password);
      const output = getRolePasswordOutput({
        projectId: P,
        branchId: DEMO.branchId,
        roleName: "neondb_owner",
      });
      assert.equal(await isSecret(output), true);
    });

    it("names the place that does not exist, with the API's request id", async () => {
      const error = await failure(getBuckets({ projectId: P, branchId: "br-gone-00000000" }));
      assert.ok(isNotFound(error));
      assert.match(
        error.message,
        /^branch br-gone-00000000 of project hidden-river-50598307 does not exist \(or this API key cannot see it\): .*request id [0-9a-f-]{36}/,
      );
    });
  });

  it("reads each listing once for the lookups of one run (the refresh's shared listings)", async () => {
    await Promise.all([
      getBranch({ projectId: P, name: "main" }),
      getBranches({ projectId: P }),
      getEndpoint({ projectId: P, branchId: DEMO.branchId }),
      getEndpoints({ projectId: P }),
    ]);
    const gets = harness.emulator.control.requests({ method: "GET" }).map((r) => r.path);
    assert.deepEqual(gets.sort(), [`/projects/${P}/branches`, `/projects/${P}/endpoints`].sort());
  });

  describe("fail naming what was looked for, where, and what there is", () => {
    const REFUSALS: [string, () => Promise<unknown>, "NotFound" | "InvalidArgument", RegExp][] = [
      [
        "a branch name the project lacks",
        () => getBranch({ projectId: P, name: "mian" }),
        "NotFound",
        /project hidden-river-50598307 has no branch with name "mian" \(its branches: "main"\)/,
      ],
      [
        "a project name no project has",
        () => getProject({ name: "nope" }),
        "NotFound",
        /no project with name "nope" among the projects this API key can see/,
      ],
      [
        "a project name two projects have",
        () => getProject({ name: "demo-twin" }),
        "InvalidArgument",
        /2 projects are named "demo-twin" .*\((?:twin-lake-55555555, twin-dup-66666666|twin-dup-66666666, twin-lake-55555555)\); give projectId instead/,
      ],
      [
        "a branch with no read-write compute",
        () => getEndpoint({ projectId: "twin-dup-66666666", branchId: "br-main-dup" }),
        "NotFound",
        /branch br-main-dup of project twin-dup-66666666 has no read-write compute \(it has no compute at all\)/,
      ],
      [
        "a role the branch lacks",
        () => getRole({ projectId: P, branchId: DEMO.branchId, name: "app" }),
        "NotFound",
        /has no role "app" \(its roles: "neondb_owner"\)/,
      ],
      [
        "a database the branch lacks",
        () => getDatabase({ projectId: P, branchId: DEMO.branchId, name: "app" }),
        "NotFound",
        /has no database "app" \(its databases: "neondb"\)/,
      ],
      [
        "a branch that does not exist, for its roles",
        () => getRoles({ projectId: P, branchId: "br-gone-00000000" }),
        "NotFound",
        /branch br-gone-00000000 of project hidden-river-50598307 does not exist \(or this API key cannot see it\)/,
      ],
      [
        "both a name and an id",
        () => getBranch({ projectId: P, name: "main", branchId: DEMO.branchId }),
        "InvalidArgument",
        /getBranch: give branchId or name, not both/,
      ],
      [
        "neither a name nor an id",
        () => getProject({}),
        "InvalidArgument",
        /getProject: give projectId or name, not neither/,
      ],
    ];
    for (const [name, lookup, kind, message] of REFUSALS) {
      it(name, async () => {
        const error = await failure(lookup());
        assert.ok(kind === "NotFound" ? isNotFound(error) : isUsageError(error), `${kind}: ${error}`);
        assert.match(error.message, message);
      });
    }
  });

  it("gives the same in the Output form", async () => {
    assert.equal((await resolved(getBranchOutput({ projectId: P, name: "main" }))).branch.id, DEMO.branchId);
    assert.equal((await resolved(getProjectOutput({ projectId: P }))).project.name, "demo-personal");
  });
});

function pick(result: unknown, key: string, fields: string[]): Record<string, unknown> {
  const object = (result as Record<string, Record<string, unknown>>)[key] ?? {};
  return Object.fromEntries(fields.map((f) => [f, object[f]]));
}

function names(result: unknown, key: string, field: string): unknown[] {
  return ((result as Record<string, Record<string, unknown>[]>)[key] ?? []).map((o) => o[field]);
}
