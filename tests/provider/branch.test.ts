import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { resetRegistry } from "../../provider/client";
import { branchDefinition } from "../../provider/resources/branch";
import type { BranchInputs, BranchOutputs } from "../../provider/resources/public/branch";
import { branchProvider } from "../../provider/resources/public/branch";
import { branchInputs, projectIdle, useBranchSuite } from "./support";

// A Branch through its provider against the emulator: create, read (refresh) and update. Its partial
// failures are in branch.partialFailure.test.ts, its delete and adoption in branch.delete.test.ts.

const PROJECT = DEMO.projectId;

describe("Branch provider against the emulator", () => {
  const { harness, create, branchState } = useBranchSuite();

  it("a refresh of six branches of one project lists the project's branches and endpoints once", async () => {
    const made = [];
    for (let i = 0; i < 6; i++) {
      made.push(await create({ name: `refresh-${i}`, endpoints: i % 2 ? [{ type: "read_write" }] : [] }));
    }
    resetRegistry(); // a refresh is a new provider process
    harness.emulator.control.clearRequests();
    const read = await Promise.all(made.map(({ id, outs }) => branchProvider.read!(id, outs)));
    assert.deepEqual(
      read.map((r) => [r.id, (r.props as BranchOutputs).endpoints.length]),
      made.map(({ id }, i) => [id, i % 2]),
    );
    assert.deepEqual(
      harness.emulator.control
        .requests()
        .map((r) => r.route)
        .sort(),
      ["GET /projects/{project_id}/branches", "GET /projects/{project_id}/endpoints"],
    );
  });

  describe("create", () => {
    it("waits for create_branch and both start_compute operations, polling each after the POST", async () => {
      harness.emulator.control.clearRequests();
      const { id, outs } = await create({
        name: "with-endpoints",
        endpoints: [{ type: "read_write" }, { type: "read_only" }],
      });
      // Resolved only after every operation finished.
      const actions = harness.emulator.control
        .dumpState()
        .operations.filter((op) => outs.operationIds.includes(op.id));
      assert.deepEqual(actions.map((op) => op.action).sort(), [
        "create_branch",
        "start_compute",
        "start_compute",
      ]);
      for (const op of actions) assert.equal(op.status, "finished", `${op.action} ${op.id} finished`);

      const log = harness.log();
      const post = log.indexOf(`POST /projects/${PROJECT}/branches`);
      assert.equal(post, 0, "the POST comes first");
      for (const opId of outs.operationIds) {
        const polls = log
          .map((line, i) => [line, i] as const)
          .filter(([line]) => line === `GET /projects/${PROJECT}/operations/${opId}`);
        assert.ok(polls.length > 0, `operation ${opId} was polled`);
        assert.ok(polls.every(([, i]) => i > post));
      }
      assert.equal(log.filter((l) => l.startsWith("POST")).length, 1, "exactly one POST");
      const lastPoll = log.findLastIndex((l) => l.startsWith(`GET /projects/${PROJECT}/operations/`));
      assert.deepEqual(
        log.slice(lastPoll + 1, lastPoll + 3),
        [`GET /projects/${PROJECT}/branches/${id}`, `GET /projects/${PROJECT}/branches/${id}/endpoints`],
        "then a final read of the branch and its computes",
      );
      assert.deepEqual(
        log.slice(lastPoll + 3),
        [`GET /projects/${PROJECT}/connection_uri`],
        "then the pooled connection string: the create's response named the roles and databases and gave the direct one",
      );
      const query = new URLSearchParams({
        branch_id: id,
        endpoint_id: outs.endpointId ?? "",
        database_name: outs.databaseName ?? "",
        role_name: outs.roleName ?? "",
      });
      const direct = await fetch(`${harness.emulator.url}/projects/${PROJECT}/connection_uri?${query}`, {
        headers: { authorization: `Bearer ${DEMO.personalKey}` },
      });
      assert.equal(
        outs.connectionUri,
        ((await direct.json()) as { uri: string }).uri,
        "the same as the API's direct one",
      );

      assert.equal(outs.branchId, id);
      assert.equal(outs.name, "with-endpoints");
      assert.equal(outs.parentId, DEMO.branchId, "no parentId means the default branch");
      assert.equal(outs.currentState, "ready");
      assert.deepEqual(outs.endpoints.map((e) => e.type).sort(), ["read_only", "read_write"]);
      assert.ok(outs.endpoints.every((e) => e.id.startsWith("ep-") && typeof e.host === "string"));
      assert.ok(
        outs.endpoints.every((e) => e.currentState === "active"),
        "computes reported as started",
      );
      assert.deepEqual(outs.pendingOperationIds, []);
    });

    it("keeps connection strings only in the two secret outputs, and no password, roles or databases elsewhere", async () => {
      const { outs } = await create({ name: "no-secrets", endpoints: [{ type: "read_write" }] });
      const secrets: readonly string[] = branchDefinition.secrets ?? [];
      const plain = Object.fromEntries(Object.entries(outs).filter(([key]) => !secrets.includes(key)));
      const strings = Object.entries(outs).filter(([key]) => secrets.includes(key));
      assert.ok(strings.length > 0, "the declaration names its secret outputs");
      for (const [key, value] of strings) assert.match(String(value), /^postgresql:\/\//, key);
      const password = new URL(outs.connectionUri).password;
      assert.ok(password.length > 0);
      const text = JSON.stringify(plain);
      assert.ok(!/postgres(ql)?:\/\/|password|connection_uri|"roles"|"databases"/i.test(text), text);
      assert.deepEqual(
        outs.inheritedDatabases?.map((d) => Object.keys(d).sort()),
        [["name", "ownerName"]],
        "of the databases the create answered, only their names and owners",
      );
      assert.ok(!text.includes(password), "the password is in no plain output");
      assert.deepEqual(JSON.parse(JSON.stringify(outs)), outs, "plain JSON, no undefined values");
    });

    it("creates a branch without endpoints with a single create_branch operation", async () => {
      const { outs } = await create({ name: "bare" });
      assert.equal(outs.operationIds.length, 1);
      assert.deepEqual(outs.endpoints, []);
    });

    it("does not list the computes of a branch created without any: they cannot exist", async () => {
      harness.emulator.control.clearRequests();
      const { id, outs } = await create({ name: "bare-reads" });
      const log = harness.log();
      assert.equal(log[0], `POST /projects/${PROJECT}/branches`);
      assert.deepEqual(
        log.filter((line) => !line.startsWith(`GET /projects/${PROJECT}/operations/`)).slice(1),
        [`GET /projects/${PROJECT}/branches/${id}`],
        "after the POST and the operation's polls, one read of the branch, no endpoint listing and no connection strings",
      );
      assert.equal(outs.currentState, "ready");
      assert.equal(outs.connectionUri, "");
    });

    it("still returns the created branch when the final re-read fails, so it is never orphaned", async () => {
      harness.emulator.control.failNext("GET /projects/{project_id}/branches/{branch_id}", { status: 403 });
      const { id, outs } = await create({ name: "reread-fails" });
      assert.equal(outs.branchId, id);
      assert.equal(outs.name, "reread-fails");
      assert.equal(branchState(id).deleted_at_ms, undefined);
      assert.equal(
        harness.emulator.control.requests({
          route: "GET /projects/{project_id}/branches/{branch_id}",
          status: 403,
        }).length,
        1,
        "the re-read was refused",
      );
    });

    it("succeeds when the create_branch operation fails twice and then finishes", async () => {
      harness.emulator.control.scriptOperations(
        { action: "create_branch", projectId: PROJECT, count: 1 },
        { kind: "fail", times: 2 },
      );
      const { id, outs } = await create({ name: "flaky" });
      const [opId] = outs.operationIds;
      const op = harness.emulator.control.dumpState().operations.find((o) => o.id === opId);
      assert.deepEqual([op?.status, op?.failures_count], ["finished", 2]);
      assert.ok(
        harness.emulator.control.requests({ route: `GET /projects/${PROJECT}/operations/${opId}` }).length >=
          3,
        "kept polling through both failures",
      );
      assert.equal(branchState(id).deleted_at_ms, undefined);
      assert.equal(outs.currentState, "ready");
    });
  });

  describe("read (refresh)", () => {
    it("refreshes a live branch from the API and reports its inputs", async () => {
      const { id, outs } = await create({ name: "to-refresh" });
      const patched = await fetch(`${harness.emulator.url}/projects/${PROJECT}/branches/${id}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${DEMO.personalKey}`, "content-type": "application/json" },
        body: JSON.stringify({ branch: { name: "renamed-elsewhere" } }),
      });
      assert.equal(patched.status, 200);
      const read = await branchProvider.read!(id, outs);
      assert.equal(read.id, id);
      assert.equal((read.props as BranchOutputs).name, "renamed-elsewhere");
      assert.equal((read.inputs as unknown as BranchInputs).name, "renamed-elsewhere");
      assert.equal((read.inputs as unknown as BranchInputs).projectId, PROJECT);
    });

    it("recreates a compute deleted out of band on the same branch, in place, after a refresh", async () => {
      const news = branchInputs({ name: "lost-compute", endpoints: [{ type: "read_write" }] });
      const { id, outs } = await create({ name: "lost-compute", endpoints: [{ type: "read_write" }] });
      const lost = outs.endpointId;
      assert.ok(lost);
      const gone = await fetch(`${harness.emulator.url}/projects/${PROJECT}/endpoints/${lost}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${DEMO.personalKey}` },
      });
      assert.equal(gone.status, 200);
      await projectIdle(harness.emulator, PROJECT);
      // `pulumi refresh`: the branch has no compute now.
      const read = await branchProvider.read!(id, outs);
      const refreshed = read.props as BranchOutputs;
      assert.deepEqual(refreshed.endpoints, []);
      // The next `pulumi up`: an update of the same branch, not a replacement.
      const diff = await branchProvider.diff!(id, refreshed, news);
      assert.deepEqual([diff.changes, diff.replaces], [true, []]);
      harness.emulator.control.clearRequests();
      const updated = (await branchProvider.update!(id, refreshed, news)).outs as BranchOutputs;
      assert.equal(updated.branchId, id);
      assert.equal(updated.endpoints.length, 1);
      assert.equal(updated.endpoints[0]?.type, "read_write");
      assert.notEqual(updated.endpointId, lost);
      assert.match(updated.connectionUri, /^postgresql:\/\//);
      assert.equal(branchState(id).deleted_at_ms, undefined);
      const mutations = harness.emulator.control
        .requests()
        .filter((r) => r.method !== "GET")
        .map((r) => r.route);
      assert.deepEqual(mutations, ["POST /projects/{project_id}/endpoints"]);
      assert.equal((await branchProvider.diff!(id, updated, news)).changes, false, "converged");
    });

    it("drops a branch deleted out of band (empty id)", async () => {
      const { id, outs } = await create({ name: "gone-soon" });
      harness.emulator.control.deleteBranch(PROJECT, id);
      const read = await branchProvider.read!(id, outs);
      assert.equal(read.id, "");
    });
  });

  describe("update", () => {
    it("renames in place with a PATCH and keeps the id", async () => {
      const { id, outs } = await create({ name: "old-name" });
      harness.emulator.control.clearRequests();
      const news = branchInputs({ name: "new-name" });
      const diff = await branchProvider.diff!(id, outs, news);
      assert.deepEqual([diff.changes, diff.replaces], [true, []]);
      const updated = await branchProvider.update!(id, outs, news);
      const after = updated.outs as BranchOutputs;
      assert.equal(after.branchId, id);
      assert.equal(after.name, "new-name");
      assert.equal(branchState(id).name, "new-name");
      assert.deepEqual(
        harness.log().filter((l) => !l.startsWith("GET")),
        [`PATCH /projects/${PROJECT}/branches/${id}`],
      );
      assert.deepEqual(after.endpoints, outs.endpoints);
      assert.deepEqual(after.operationIds, outs.operationIds);
    });
  });
});
