import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import { DEMO } from "../../emulator";
import { createClient } from "../../provider/client";
import { storedName } from "../../provider/resources/apiKey";
import { forgetFirstListings } from "../../provider/resources/lifecycle/firstListings";
import { isGeneratedWith } from "../../provider/resources/lifecycle/owner";
import { type ApiKeyOutputs, apiKeyProvider } from "../../provider/resources/public/apiKey";
import { branchProvider } from "../../provider/resources/public/branch";
import { type DatabaseOutputs, databaseProvider } from "../../provider/resources/public/database";
import { type EndpointOutputs, endpointProvider } from "../../provider/resources/public/endpoint";
import { type ProjectOutputs, projectProvider } from "../../provider/resources/public/project";
import { type RoleOutputs, roleProvider } from "../../provider/resources/public/role";
import { PROVIDER_TEXT, projectIdle, useEmulator } from "./support";

// A create after a killed run: the run made the object but never recorded it, and the next run's
// create (same URN, so same create key) must take that object and make no second one, while an
// object without this resource's mark is never taken. The killed run is played by a first create
// whose answer is dropped: the state never hears of it.

const P = DEMO.projectId;
const B = DEMO.branchId;
const urn = (type: string, name: string) =>
  `urn:pulumi:dev::app::pulumi-nodejs:dynamic/clouddb:${type}::${name}`;

// biome-ignore lint/suspicious/noExplicitAny: each provider has its own input and output types.
type Provider = pulumi.dynamic.ResourceProvider<any, any>;
// biome-ignore lint/suspicious/noExplicitAny: inputs as the engine passes them, to any provider.
type Inputs = any;

/** Inputs as the engine passes them to `create` without a `check` (no URN, so no create key). */
const unchecked = (args: Inputs): Inputs => ({ ...args, __provider: PROVIDER_TEXT });

/** The inputs `check` gives a new resource of `type` named `name` (create key and generated name included). */
async function checked(
  provider: Provider,
  type: string,
  name: string,
  args: Record<string, unknown>,
): Promise<Inputs> {
  const news = { ...args, __owner: urn(type, name), __provider: PROVIDER_TEXT };
  const result = await provider.check!({}, news);
  assert.deepEqual(result.failures ?? [], []);
  return result.inputs as Inputs;
}

describe("creates after a killed run take the object that run made, and only that", () => {
  const harness = useEmulator();
  const posts = (route: string) =>
    harness.emulator.control.requests({ route }).filter((r) => r.method === "POST" && r.status === 201)
      .length;
  const dumpState = () => harness.emulator.control.dumpState();
  const api = () => createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });

  it("takes the branch an earlier run made with its create key, listing the project's branches once per run", async () => {
    const first = await branchProvider.create(
      await checked(branchProvider, "Branch", "feature", { projectId: P }),
    );
    await projectIdle(harness.emulator, P);
    // The next run: a new provider process.
    forgetFirstListings();
    harness.emulator.control.clearRequests();
    const again = await branchProvider.create(
      await checked(branchProvider, "Branch", "feature", { projectId: P }),
    );
    assert.equal(again.id, first.id);
    const other = await branchProvider.create(
      await checked(branchProvider, "Branch", "other", { projectId: P }),
    );
    assert.notEqual(other.id, first.id);
    assert.equal(posts("POST /projects/{project_id}/branches"), 1);
    assert.equal(
      harness.emulator.control.requests({ route: "GET /projects/{project_id}/branches" }).length,
      1,
    );
  });

  it("takes the branch a killed run made under the name its create gave it after the program renamed it, and renames it", async () => {
    const first = await branchProvider.create(
      await checked(branchProvider, "Branch", "feature", { projectId: P, name: "app" }),
    );
    await projectIdle(harness.emulator, P);
    forgetFirstListings();
    harness.emulator.control.clearRequests();
    const again = await branchProvider.create(
      await checked(branchProvider, "Branch", "feature", { projectId: P, name: "app-2" }),
    );
    assert.equal(again.id, first.id);
    assert.equal(again.outs?.name, "app-2");
    assert.deepEqual(
      dumpState()
        .branches.filter((b) => b.deleted_at_ms === undefined && b.name.startsWith("app"))
        .map((b) => [b.id, b.name]),
      [[first.id, "app-2"]],
    );
    assert.equal(posts("POST /projects/{project_id}/branches"), 0);
  });

  it("takes a marked branch made before its create's name was recorded only under the declared name", async () => {
    const inputs = await checked(branchProvider, "Branch", "older", { projectId: P, name: "old" });
    // A branch made before creates recorded the name: the create key alone.
    const made = await api().createBranch(P, {
      branch: { name: "old" },
      annotation_value: { "pulumi-clouddb.create-key": inputs.__createKey },
    });
    await projectIdle(harness.emulator, P);
    forgetFirstListings();
    const same = await branchProvider.create(inputs);
    assert.equal(same.id, made.branch.id);
    await api().updateBranch(P, made.branch.id, { name: "old-renamed" });
    await projectIdle(harness.emulator, P);
    forgetFirstListings();
    const other = await branchProvider.create({ ...inputs, name: "old-2" });
    assert.notEqual(other.id, made.branch.id);
  });

  it("takes the project whose default branch carries its create key, auto-named from the key", async () => {
    const inputs = await checked(projectProvider, "Project", "app", {});
    const first = await projectProvider.create(inputs);
    const again = await projectProvider.create(inputs);
    assert.equal(again.id, first.id);
    assert.equal(posts("POST /projects"), 1);
    const outs = again.outs as ProjectOutputs;
    assert.match(outs.name, /^pulumi-[0-9a-f]{20}$/);
    assert.notEqual(outs.connectionUri, "");
  });

  it("never takes a project of the wanted name that lacks the mark: it makes its own", async () => {
    harness.emulator.control.clearRequests();
    const theirs = await projectProvider.create(unchecked({ name: "shop" }));
    const inputs = await checked(projectProvider, "Project", "shop", { name: "shop" });
    const mine = await projectProvider.create(inputs);
    assert.notEqual(mine.id, theirs.id);
    assert.equal((await projectProvider.create(inputs)).id, mine.id);
    assert.equal(posts("POST /projects"), 2);
    assert.equal(dumpState().projects.filter((p) => p.name === "shop").length, 2);
  });

  it("takes the compute endpoint named with its create key's mark, and never another compute", async () => {
    const branch = dumpState().branches.find((b) => b.project_id === P && b.id !== B);
    const branchId = branch?.id ?? B;
    const inputs = await checked(endpointProvider, "Endpoint", "reader", {
      projectId: P,
      branchId,
      type: "read_only",
    });
    harness.emulator.control.clearRequests();
    const first = await endpointProvider.create(inputs);
    await projectIdle(harness.emulator, P);
    const again = await endpointProvider.create(inputs);
    assert.equal(again.id, first.id);
    assert.equal(posts("POST /projects/{project_id}/endpoints"), 1);
    const stored = dumpState().endpoints.find((e) => e.id === first.id);
    assert.match(stored?.name ?? "", /^pulumi-[0-9a-f]{20}$/);
    const other = await checked(endpointProvider, "Endpoint", "reader2", {
      projectId: P,
      branchId,
      type: "read_only",
    });
    const second = await endpointProvider.create(other);
    assert.notEqual(second.id, first.id);
    for (const made of [first, second]) await endpointProvider.delete!(made.id, made.outs as EndpointOutputs);
  });

  it("names an unnamed role from its resource name and create key, the same on every run, and takes it with a new password", async () => {
    const inputs = await checked(roleProvider, "Role", "App-Reader", { projectId: P, branchId: B });
    const name = inputs["name"] as string;
    assert.match(name, /^app_reader_[0-9a-f]{10}$/);
    assert.equal(
      (await checked(roleProvider, "Role", "App-Reader", { projectId: P, branchId: B }))["name"],
      name,
    );
    harness.emulator.control.clearRequests();
    const first = (await roleProvider.create(inputs)).outs as RoleOutputs;
    const again = await roleProvider.create(inputs);
    const outs = again.outs as RoleOutputs;
    assert.equal(again.id, `${B}/${name}`);
    assert.equal(posts("POST /projects/{project_id}/branches/{branch_id}/roles"), 1);
    assert.notEqual(outs.password, first.password);
    const stored = dumpState()
      .branches.find((b) => b.id === B)
      ?.roles.find((r) => r.name === name);
    assert.equal(outs.password, stored?.password);
  });

  it("keeps a role's generated name once it is in the state, and a name longer than Postgres takes is cut to 63 bytes", async () => {
    const olds = { projectId: P, branchId: B, name: "app_reader_0123456789", __createKey: "k1" };
    const news = { projectId: P, branchId: B, __owner: urn("Role", "App-Reader"), __provider: PROVIDER_TEXT };
    assert.equal((await roleProvider.check!(olds, news)).inputs?.name, "app_reader_0123456789");
    const long = await checked(roleProvider, "Role", `9${"é".repeat(80)}`, { projectId: P, branchId: B });
    const name = long["name"] as string;
    assert.ok(Buffer.byteLength(name) <= 63, name);
    assert.match(name, /^_9_[0-9a-f]{10}$/);
  });

  it("refuses a role name the program gave that is taken, saying what happened and the change to make", async () => {
    const theirs = await checked(roleProvider, "Role", "theirs", {
      projectId: P,
      branchId: B,
      name: "taken_role",
    });
    await roleProvider.create(theirs);
    const mine = await checked(roleProvider, "Role", "mine", {
      projectId: P,
      branchId: B,
      name: "taken_role",
    });
    await assert.rejects(roleProvider.create(mine), (err: Error) => {
      assert.match(
        err.message,
        /a role named "taken_role" already exists on branch .* nothing proves this resource made it/,
      );
      assert.match(err.message, /killed before recording it/);
      assert.match(err.message, /add adoptExisting: "taken_role"/);
      assert.match(err.message, /request id/);
      return true;
    });
  });

  it("takes an unnamed database made with its create key, and refuses a taken name the program gave", async () => {
    const owner = await checked(roleProvider, "Role", "owner", { projectId: P, branchId: B });
    await roleProvider.create(owner);
    const args = { projectId: P, branchId: B, ownerName: owner["name"] };
    const inputs = await checked(databaseProvider, "Database", "orders", args);
    const name = inputs["name"] as string;
    assert.ok(isGeneratedWith(name, inputs["__createKey"] as string));
    harness.emulator.control.clearRequests();
    const first = await databaseProvider.create(inputs);
    const again = await databaseProvider.create(inputs);
    assert.equal(again.id, first.id);
    assert.equal((again.outs as DatabaseOutputs).name, name);
    assert.equal(posts("POST /projects/{project_id}/branches/{branch_id}/databases"), 1);
    const named = await checked(databaseProvider, "Database", "other", { ...args, name });
    await assert.rejects(databaseProvider.create(named), /a database named .* add adoptExisting/);
  });

  it("revokes the useless key a killed run made (its token was never received) and makes a new one, listing the keys once per run", async () => {
    const inputs = await checked(apiKeyProvider, "ApiKey", "ci", { name: "ci deploy" });
    const marked = storedName("ci deploy", inputs["__createKey"] as string);
    assert.match(marked, /^ci deploy #[0-9a-f]{10}$/);
    const first = (await apiKeyProvider.create(inputs)).outs as ApiKeyOutputs;
    // The next run: a new provider process.
    forgetFirstListings();
    harness.emulator.control.clearRequests();
    const again = (await apiKeyProvider.create(inputs)).outs as ApiKeyOutputs;
    const other = await checked(apiKeyProvider, "ApiKey", "other", { name: "other" });
    await apiKeyProvider.create(other);
    assert.equal(
      harness.emulator.control.requests({ route: "GET /api_keys" }).length,
      1,
      "the user's keys listed once for the run's creates",
    );
    assert.notEqual(again.keyId, first.keyId);
    assert.equal(again.name, "ci deploy");
    const keys = dumpState().apiKeys.filter((k) => k.name === marked);
    assert.deepEqual(
      keys.map((k) => [k.id, k.revoked]),
      [
        [first.keyId, true],
        [again.keyId, false],
      ],
    );
    const read = await apiKeyProvider.read!(String(again.keyId), again);
    assert.equal(read.props?.name, "ci deploy");
  });

  it("keeps the mark of a key whose name fills the API's 64 characters, shortening only the stored name", async () => {
    const long = "k".repeat(64);
    const inputs = await checked(apiKeyProvider, "ApiKey", "long", { name: long });
    const made = (await apiKeyProvider.create(inputs)).outs as ApiKeyOutputs;
    assert.equal(made.name, long);
    const stored = dumpState().apiKeys.find((k) => k.id === made.keyId)?.name ?? "";
    assert.equal(stored.length, 64);
    assert.ok(stored.endsWith(storedName(long, inputs["__createKey"] as string).slice(-12)));
    assert.equal((await apiKeyProvider.read!(String(made.keyId), made)).props?.name, long);
  });

  it("reads a key made before keys were marked under its own name, with no change", async () => {
    const made = (await apiKeyProvider.create(unchecked({ name: "old key" }))).outs as ApiKeyOutputs;
    const withKey = { ...made, __createKey: "recorded-later" } as ApiKeyOutputs;
    assert.equal((await apiKeyProvider.read!(String(made.keyId), withKey)).props?.name, "old key");
  });
});
