import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import sinon from "sinon";
import { DEMO } from "../../emulator";
import { PreviewEnvironment } from "../../provider";
import { createClient } from "../../provider/client";
import { previewInputProblem } from "../../provider/components/previewEnvironment";
import { useEmulator } from "./support";
import { type Registration, recordRegistrations } from "./support/mockMonitor";

// PreviewEnvironment in a TypeScript program, on Pulumi's mock monitor and the emulator's API (its
// lookups): the inputs refused before anything is made, the children it registers and in which
// order, and a copy of a protected parent's data refused.

/** Inputs a preview cannot make an environment from, each with what the message must say. */
const REFUSED: { inputs: Parameters<typeof previewInputProblem>[0]; says: RegExp }[] = [
  { inputs: { ttl: "800h" }, says: /more than the 30 days.*at most "720h"/ },
  { inputs: { ttl: "31d" }, says: /more than the 30 days/ },
  { inputs: { ttl: "soon" }, says: /not a duration.*"72h"/ },
  { inputs: { ttl: "0h" }, says: /not a duration/ },
  { inputs: { data: "everything" }, says: /"schema-only", "data" or "anonymized"/ },
  { inputs: { maskingRules: [{}] }, says: /anonymized copy only: set data: "anonymized"/ },
  { inputs: { data: "data", maskingRules: [{}] }, says: /anonymized copy only/ },
  {
    inputs: { resetTrigger: "2026-12-04" },
    says: /schema-only copy does not hold: set data: "data" or "anonymized", or remove resetTrigger/,
  },
];

/** Inputs it takes. */
const TAKEN: Parameters<typeof previewInputProblem>[0][] = [
  {},
  { ttl: "720h" },
  { ttl: "3d" },
  { ttl: "1d12h" },
  { ttl: "2w" },
  { ttl: "3600" },
  { data: "anonymized", maskingRules: [{}] },
  { data: "data" },
  { data: "anonymized", resetTrigger: "2026-12-04" },
];

/** What the mock's branch of a name records as the databases its create answered it came with. */
const INHERITED: Record<string, { name: string; ownerName: string | null }[]> = {
  "preview/pr-6": [{ name: "app", ownerName: "app_owner" }],
  "preview/pr-7": [],
};

function resolved<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    output.apply(resolve);
    // A failed apply rejects the output's promise: surface it to the test.
    (output as unknown as { promise(): Promise<T> }).promise().catch(reject);
  });
}

describe("PreviewEnvironment (Pulumi mock monitor, the emulator's API)", () => {
  const harness = useEmulator();
  let registered: Registration[];

  for (const { inputs, says } of REFUSED) {
    it(`refuses ${JSON.stringify(inputs)} before making anything`, () => {
      assert.match(previewInputProblem(inputs) ?? "", says);
    });
  }
  it("takes a ttl up to 30 days, and masking rules with an anonymized copy", () => {
    for (const inputs of TAKEN) assert.equal(previewInputProblem(inputs), undefined, JSON.stringify(inputs));
  });

  before(async () => {
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => ({
          id: `${args.name}-id`,
          state: {
            ...args.inputs,
            branchId: `br-${args.name}`,
            name: args.inputs.name ?? `${args.name}_x`,
            // A branch made with no parent named is the project's default branch's child, as the API makes it.
            ...(args.type.endsWith("clouddb:Branch")
              ? {
                  parentId: args.inputs.parentId ?? DEMO.branchId,
                  ...(INHERITED[String(args.inputs.name)] === undefined
                    ? {}
                    : { inheritedDatabases: INHERITED[String(args.inputs.name)] }),
                }
              : {}),
          },
        }),
        call: () => ({}),
      },
      "clouddb-test",
      "unit",
    );
  });
  beforeEach(() => {
    registered = [];
    recordRegistrations(registered);
  });
  afterEach(() => sinon.restore());

  it("makes the branch, its owner and database, then the compute, then the runtime role's grants, all its children", async () => {
    const env = new PreviewEnvironment("pr-1", {
      projectId: DEMO.projectId,
      name: "preview/pr-1",
      pullRequest: "1",
    });
    await resolved(env.runtimeUri);
    const children = registered.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"));
    const kind = (r: { type: string }) => r.type.replace("pulumi-nodejs:dynamic/clouddb:", "");
    assert.deepEqual(children.map(kind).sort(), ["Branch", "Database", "Endpoint", "Role", "RoleGrants"]);
    const component = registered.find((r) => r.type === "clouddb:index:PreviewEnvironment");
    assert.ok(component);
    for (const child of children) assert.match(child.parent, /PreviewEnvironment::pr-1$/, child.name);
    const named = (k: string) => children.find((c) => kind(c) === k)!;
    assert.equal(named("Branch").inputs.initSource, "schema-only");
    assert.equal(named("Branch").inputs.ttl, "168h");
    // The pull request goes to the branch, whose create records it in the branch's annotation.
    assert.equal(named("Branch").inputs.pullRequest, "1");
    // No parent named: the API's default, the project's default branch, with no lookup before it.
    assert.equal(named("Branch").inputs.parentId, undefined);
    assert.equal(named("Branch").inputs.endpoints, undefined, "no compute with the branch");
    assert.equal(named("Database").inputs.name, "app");
    // The compute is made once the owner and the database are (fewest operations).
    const endpointDeps = named("Endpoint").dependsOn.join(" ");
    assert.match(endpointDeps, /Role::pr-1-owner/);
    assert.match(endpointDeps, /Database::pr-1-database/);
    assert.deepEqual(
      [
        named("RoleGrants").inputs.roleName,
        named("RoleGrants").inputs.createRole,
        named("RoleGrants").inputs.access,
      ],
      ["app", true, "read-write"],
    );
  });

  it("uses the parent's database of that name and its owner rather than making them; resetTrigger is the branch's", async () => {
    const env = new PreviewEnvironment("pr-2", {
      projectId: DEMO.projectId,
      databaseName: "neondb",
      data: "data",
      resetTrigger: "build-41",
    });
    await resolved(env.ownerName);
    const kinds = registered.map((r) => r.type.replace("pulumi-nodejs:dynamic/clouddb:", "")).sort();
    assert.ok(!kinds.includes("Role") && !kinds.includes("Database"), kinds.join());
    assert.equal(await resolved(env.ownerName), "neondb_owner");
    const branch = registered.find((r) => r.type.endsWith("clouddb:Branch"));
    assert.deepEqual([branch?.inputs.initSource, branch?.inputs.resetTrigger], ["parent-data", "build-41"]);
  });

  it("takes whether the database came with the branch from what the branch's create recorded, reading nothing", async () => {
    harness.emulator.control.clearRequests();
    const env = new PreviewEnvironment("pr-6", { projectId: DEMO.projectId, name: "preview/pr-6" });
    await resolved(env.runtimeUri);
    const kinds = registered.map((r) => r.type.replace("pulumi-nodejs:dynamic/clouddb:", ""));
    assert.ok(!kinds.includes("Role") && !kinds.includes("Database"), kinds.join());
    assert.equal(await resolved(env.ownerName), "app_owner");
    assert.deepEqual(
      harness.log().filter((line) => /\/branches(\/[^/]+\/databases)?$/.test(line)),
      [],
      "no lookup of the parent or of its databases",
    );
  });

  it("makes its database when the branch came without it, though the parent has one of that name now", async () => {
    const env = new PreviewEnvironment("pr-7", {
      projectId: DEMO.projectId,
      name: "preview/pr-7",
      databaseName: "neondb",
    });
    await resolved(env.runtimeUri);
    const kinds = registered.map((r) => r.type.replace("pulumi-nodejs:dynamic/clouddb:", ""));
    assert.ok(kinds.includes("Role") && kinds.includes("Database"), kinds.join());
  });

  it("adds Auth and the Data API when asked, the Data API after Auth and the compute", async () => {
    const env = new PreviewEnvironment("pr-5", { projectId: DEMO.projectId, auth: true, dataApi: true });
    await resolved(env.dataApiUrl);
    const kind = (r: Registration) => r.type.replace("pulumi-nodejs:dynamic/clouddb:", "");
    const auth = registered.find((r) => kind(r) === "BranchAuth");
    const dataApi = registered.find((r) => kind(r) === "DataApi");
    assert.equal(auth?.inputs.databaseName, "app");
    assert.match(auth?.dependsOn.join(" ") ?? "", /Endpoint::pr-5-compute/);
    const after = dataApi?.dependsOn.join(" ") ?? "";
    assert.match(after, /Endpoint::pr-5-compute/);
    assert.match(after, /BranchAuth::pr-5-auth/);
  });

  it("refuses a copy of a protected parent's data as it is, naming anonymized", async () => {
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });
    await client.updateBranch(DEMO.projectId, DEMO.branchId, { protected: true });
    try {
      const env = new PreviewEnvironment("pr-3", { projectId: DEMO.projectId, data: "data" });
      await assert.rejects(
        resolved(env.branchId),
        /protected and data: "data" would copy its rows.*"anonymized"/,
      );
    } finally {
      await client.updateBranch(DEMO.projectId, DEMO.branchId, { protected: false });
    }
  });

  it("refuses a parent branch the project does not have", async () => {
    const env = new PreviewEnvironment("pr-4", { projectId: DEMO.projectId, parentBranch: "nope" });
    await assert.rejects(resolved(env.branchId), /no branch "nope": give parentBranch a branch's id or name/);
  });
});
