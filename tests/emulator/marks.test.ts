import assert from "node:assert/strict";
import { DEMO, type RunningEmulator } from "../../emulator";
import { api, type Json, start } from "./helpers";

// The fields the provider marks its objects with: a compute endpoint's `name` and the annotation a
// project's create request puts on its default branch, each stored and shown as the API does.

describe("marks: endpoint names and a new project's default-branch annotation", () => {
  let emulator: RunningEmulator;
  let client: ReturnType<typeof api>;
  const P = `/projects/${DEMO.projectId}`;
  before(async () => {
    emulator = await start({ seed: "demo" });
    client = api(emulator, DEMO.personalKey);
  });
  after(async () => emulator.stop());

  /** A new branch without computes, idle, to put endpoints on. */
  async function bareBranch(): Promise<string> {
    emulator.control.advance(1000);
    const made = await client.post(`${P}/branches`, {});
    assert.equal(made.status, 201, made.text);
    emulator.control.advance(1000);
    return made.body.branch.id;
  }

  it("stores an endpoint's name and shows it in the create answer, a read, the listing and after a rename", async () => {
    const branchId = await bareBranch();
    const made = await client.post(`${P}/endpoints`, {
      endpoint: { branch_id: branchId, type: "read_only", name: "pulumi-0123456789abcdef0123" },
    });
    assert.equal(made.status, 201, made.text);
    const id = made.body.endpoint.id as string;
    assert.equal(made.body.endpoint.name, "pulumi-0123456789abcdef0123");
    assert.equal(
      (await client.get(`${P}/endpoints/${id}`)).body.endpoint.name,
      "pulumi-0123456789abcdef0123",
    );
    const listed = (await client.get(`${P}/endpoints`)).body.endpoints.find((e: Json) => e.id === id);
    assert.equal(listed?.name, "pulumi-0123456789abcdef0123");
    emulator.control.advance(1000);
    const renamed = await client.patch(`${P}/endpoints/${id}`, { endpoint: { name: "reader" } });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal((await client.get(`${P}/endpoints/${id}`)).body.endpoint.name, "reader");
  });

  it("shows no name on an endpoint made without one, and refuses a name outside 1-64 characters", async () => {
    const branchId = await bareBranch();
    for (const name of ["", "n".repeat(65)]) {
      const refused = await client.post(`${P}/endpoints`, {
        endpoint: { branch_id: branchId, type: "read_only", name },
      });
      assert.equal(refused.status, 400, `${name.length} characters: ${refused.text}`);
    }
    const made = await client.post(`${P}/endpoints`, {
      endpoint: { branch_id: branchId, type: "read_only" },
    });
    assert.equal(made.status, 201, made.text);
    assert.equal("name" in made.body.endpoint, false);
  });

  it("puts a project create's branch annotations on the new project's default branch", async () => {
    const made = await client.post("/projects", {
      project: { name: "marked", branch: { annotations: { "pulumi-clouddb.create-key": "k1" } } },
    });
    assert.equal(made.status, 201, made.text);
    const projectId = made.body.project.id as string;
    const listing = (await client.get(`/projects/${projectId}/branches`)).body;
    const root = listing.branches.find((b: Json) => b.default === true);
    assert.deepEqual(listing.annotations[root.id].value, { "pulumi-clouddb.create-key": "k1" });
    const read = (await client.get(`/projects/${projectId}/branches/${root.id}`)).body;
    assert.deepEqual(read.annotation.value, { "pulumi-clouddb.create-key": "k1" });
  });
});
