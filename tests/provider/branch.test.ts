import assert from "node:assert/strict";
import sinon from "sinon";
import { DEMO } from "../../emulator";
import { resetRegistry } from "../../provider/client";
import { branchDefinition } from "../../provider/resources/branch";
import type { PartialFailure, ResourceError } from "../../provider/resources/errors";
import { forgetFirstListings } from "../../provider/resources/lifecycle/firstListings";
import type { BranchInputs, BranchOutputs } from "../../provider/resources/public/branch";
import { branchProvider } from "../../provider/resources/public/branch";
import { PROVIDER_TEXT, projectIdle, useEmulator } from "./support";

const PROJECT = DEMO.projectId;

/** Inputs as the engine passes them: with the serialized provider alongside. */
function inputs(values: Partial<BranchInputs> = {}): BranchInputs {
  return { projectId: PROJECT, ...values, __provider: PROVIDER_TEXT } as BranchInputs;
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => assert.fail("expected a rejection"),
    (e: Error) => e,
  );
}

describe("Branch provider against the emulator", () => {
  const harness = useEmulator();
  afterEach(() => {
    sinon.restore();
    harness.emulator.control.clearOperationScripts();
    harness.emulator.control.clearFaults();
  });

  /** Inputs as `check` makes them for a resource not in the state, with its URN. */
  async function checked(values: Partial<BranchInputs>, resource: string): Promise<BranchInputs> {
    const owner = `urn:pulumi:dev::app::pulumi-nodejs:dynamic/clouddb:Branch::${resource}`;
    const news = { ...inputs(values), __owner: owner } as BranchInputs;
    const result = await branchProvider.check!({} as BranchInputs, news);
    assert.deepEqual(result.failures ?? [], []);
    return result.inputs as BranchInputs;
  }

  async function create(values: Partial<BranchInputs> = {}) {
    const made = await branchProvider.create(inputs(values));
    assert.ok(made.outs);
    return { id: made.id, outs: made.outs };
  }

  function branchState(id: string) {
    const branch = harness.emulator.control.dumpState().branches.find((b) => b.id === id);
    assert.ok(branch, `branch ${id} is in the emulator's state`);
    return branch;
  }

  function operationStatus(id: string): string | undefined {
    return harness.emulator.control.dumpState().operations.find((op) => op.id === id)?.status;
  }

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
      assert.ok(!/postgres(ql)?:\/\/|password|connection_uri|roles|databases/i.test(text), text);
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

  describe("partial failure", () => {
    it("throws {id, properties, reasons} when a start_compute ends cancelled, and update then converges", async () => {
      harness.emulator.control.scriptOperations(
        { action: "start_compute", projectId: PROJECT, count: 1 },
        { kind: "cancelled" },
      );
      const news = inputs({ name: "half-made", endpoints: [{ type: "read_write" }] });
      const err = (await rejection(branchProvider.create(news))) as PartialFailure;
      assert.match(err.id, /^br-/);
      assert.equal(
        branchState(err.id).deleted_at_ms,
        undefined,
        "the branch exists and is recorded, not orphaned",
      );
      const props = err.properties as unknown as BranchOutputs & { __provider: string };
      assert.equal(props.__provider, PROVIDER_TEXT, "the serialized provider passes through");
      assert.equal(props.branchId, err.id);
      assert.equal(props.name, "half-made");
      assert.equal(props.pendingOperationIds.length, 2);
      const statuses = props.pendingOperationIds.map(operationStatus).sort();
      assert.deepEqual(statuses, ["cancelled", "finished"]);
      assert.equal(err.reasons.length, 1);
      assert.match(err.reasons[0] ?? "", new RegExp(`branch ${err.id} \\(half-made\\) was created`));
      assert.match(err.reasons[0] ?? "", /cancelled/);
      assert.match(err.reasons[0] ?? "", /next `pulumi up`/);
      assert.deepEqual(JSON.parse(JSON.stringify(err.properties)), err.properties, "plain JSON");

      // The next `pulumi up`: diff sees the pending operations, update settles them.
      const diff = await branchProvider.diff!(err.id, props, news);
      assert.equal(diff.changes, true);
      assert.deepEqual(diff.replaces, []);
      const updated = await branchProvider.update!(err.id, props, news);
      const outs = updated.outs as BranchOutputs;
      assert.deepEqual(outs.pendingOperationIds, []);
      assert.equal(outs.branchId, err.id);
      assert.equal(outs.currentState, "ready");
      const settled = await branchProvider.diff!(err.id, outs, news);
      assert.equal(settled.changes, false, "converged: nothing left to do");
    });

    it("deletes the branch a cancelled create_branch began, records nothing, and the next create makes it anew", async () => {
      harness.emulator.control.scriptOperations(
        { action: "create_branch", projectId: PROJECT, count: 1 },
        { kind: "cancelled" },
      );
      const news = await checked({ name: "never-made" }, "never-made");
      const err = (await rejection(branchProvider.create(news))) as ResourceError;
      assert.equal(err.kind, "Unmade");
      assert.equal((err as Partial<PartialFailure>).id, undefined, "not a partial failure: nothing recorded");
      const begun = /so branch (br-[a-z0-9-]+) \(never-made\)/.exec(err.message)?.[1];
      assert.ok(begun, err.message);
      assert.match(err.message, /create_branch operation \S+ ended cancelled/);
      assert.match(
        err.message,
        /it was deleted and nothing is recorded in the state\. Run `pulumi up` again/,
      );
      assert.ok(branchState(begun).deleted_at_ms !== undefined, "the unmade branch is deleted");
      // The next `pulumi up`: the same resource, not in the state, checked and created again.
      const again = await branchProvider.create(await checked({ name: "never-made" }, "never-made"));
      assert.notEqual(again.id, begun);
      assert.equal(branchState(again.id).deleted_at_ms, undefined);
    });

    it("when that delete fails, records the branch; the next update deletes it and names `pulumi up --refresh`, which then converges", async () => {
      harness.emulator.control.scriptOperations(
        { action: "create_branch", projectId: PROJECT, count: 1 },
        { kind: "cancelled" },
      );
      harness.emulator.control.failNext("DELETE /projects/{project_id}/branches/{branch_id}", {
        status: 500,
      });
      const news = await checked({ name: "left-over" }, "left-over");
      const err = (await rejection(branchProvider.create(news))) as PartialFailure;
      assert.match(err.id, /^br-/);
      assert.doesNotMatch(err.reasons[0] ?? "", /waits for its operations again/);
      assert.match(err.reasons[0] ?? "", /looks at its operations again/);
      const props = err.properties as unknown as BranchOutputs;
      // The next `pulumi up`: diff sees the pending operations, update finds create_branch cancelled.
      const again = (await rejection(branchProvider.update!(err.id, props, news))) as ResourceError;
      assert.equal(again.kind, "Unmade");
      assert.match(
        again.message,
        /create_branch .* ended cancelled, so the branch was never made: it was deleted/,
      );
      assert.match(again.message, /Run `pulumi up --refresh`/);
      assert.doesNotMatch(again.message, /<urn>|--replace/);
      assert.ok(branchState(err.id).deleted_at_ms !== undefined, "the unmade branch is deleted");
      // `pulumi up --refresh`: the refresh drops it, the up creates the branch anew.
      assert.equal((await branchProvider.read!(err.id, props)).id, "");
      const made = await branchProvider.create(await checked({ name: "left-over" }, "left-over"));
      assert.notEqual(made.id, err.id);
    });
  });

  describe("partial failure with slower operations", () => {
    // Operations of 150 ms, so the next run starts while the cancelled compute is still running.
    const slow = useEmulator({ opDurationMs: 150 });

    it("converges when a pending start_compute ends cancelled while update waits for it", async () => {
      slow.emulator.control.scriptOperations(
        { action: "start_compute", projectId: PROJECT, count: 1 },
        { kind: "cancelled" },
      );
      const news = inputs({
        name: "slow-half",
        endpoints: [{ type: "read_write" }],
        timeouts: { create: 0.05 },
      });
      const err = (await rejection(branchProvider.create(news))) as PartialFailure;
      assert.match(err.reasons.join(" "), /Timed out/);
      const props = err.properties as unknown as BranchOutputs;
      const start = props.pendingOperationIds.find(
        (opId) =>
          slow.emulator.control.dumpState().operations.find((op) => op.id === opId)?.action ===
          "start_compute",
      );
      assert.ok(start);
      const before = slow.emulator.control.dumpState().operations.find((op) => op.id === start)?.status;
      assert.ok(before !== "cancelled", `still unfinished when update starts (${before})`);
      const updated = await branchProvider.update!(err.id, props, {
        ...news,
        timeouts: { update: 5 },
      } as BranchInputs);
      assert.deepEqual((updated.outs as BranchOutputs).pendingOperationIds, []);
      assert.equal(
        slow.emulator.control.dumpState().operations.find((op) => op.id === start)?.status,
        "cancelled",
      );
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
      const news = inputs({ name: "lost-compute", endpoints: [{ type: "read_write" }] });
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
      const news = inputs({ name: "new-name" });
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

  describe("delete", () => {
    it("deletes a branch and waits for its operations", async () => {
      const { id, outs } = await create({ name: "short-lived", endpoints: [{ type: "read_write" }] });
      harness.emulator.control.clearRequests();
      await branchProvider.delete!(id, outs);
      assert.notEqual(branchState(id).deleted_at_ms, undefined);
      const state = harness.emulator.control.dumpState();
      const ops = state.operations.filter((op) => op.branch_id === id && op.action !== "create_branch");
      assert.ok(ops.some((op) => op.action === "delete_timeline"));
      for (const op of ops)
        assert.equal(op.status, "finished", `${op.action} finished before delete resolved`);
      assert.ok(harness.log().some((l) => l.startsWith(`GET /projects/${PROJECT}/operations/`)));
    });

    it("refuses to delete a branch with children, saying so and how Pulumi orders it", async () => {
      const parent = await create({ name: "parent" });
      const child = await create({ name: "child", parentId: parent.id });
      const err = await rejection(branchProvider.delete!(parent.id, parent.outs));
      assert.match(
        err.message,
        new RegExp(`branch ${parent.id} \\(parent\\) in project ${PROJECT} cannot be deleted`),
      );
      assert.equal(
        err.message,
        `branch ${parent.id} (parent) in project ${PROJECT} cannot be deleted: it still has child branches ` +
          `(${child.id}); delete them first, or declare each child with \`parentId: parent.branchId\` so ` +
          `Pulumi deletes children before their parent (request id ${(err as ResourceError).requestId}).`,
      );
      assert.doesNotMatch(err.message, /correct the inputs|attempt/);
      assert.equal(branchState(parent.id).deleted_at_ms, undefined);
      // Pulumi's order for `parentId: parent.branchId`: the child goes first, then the parent.
      await branchProvider.delete!(child.id, child.outs);
      await branchProvider.delete!(parent.id, parent.outs);
      assert.notEqual(branchState(child.id).deleted_at_ms, undefined);
      assert.notEqual(branchState(parent.id).deleted_at_ms, undefined);
    });

    it("refuses to delete the project's default branch, saying it is the default and how to let it go", async () => {
      const adopted = await create({ adoptExisting: DEMO.branchId });
      const err = await rejection(branchProvider.delete!(adopted.id, adopted.outs));
      assert.match(err.message, /root\/default branch/);
      assert.match(err.message, /pulumi state delete/);
      assert.equal(branchState(DEMO.branchId).deleted_at_ms, undefined);
    });

    it("recognises the default-branch refusal from the API's answer even when the state does not say default", async () => {
      const stale = { projectId: PROJECT, name: "main", default: false, parentId: "br-unknown-00000000" };
      const err = await rejection(branchProvider.delete!(DEMO.branchId, stale as BranchOutputs));
      assert.match(err.message, /root\/default branch/);
      assert.match(err.message, /\(request id [\w-]+\)\.$/);
    });

    it("treats an already deleted branch as deleted (204)", async () => {
      const { id, outs } = await create({ name: "deleted-twice" });
      harness.emulator.control.deleteBranch(PROJECT, id);
      await projectIdle(harness.emulator, PROJECT);
      harness.emulator.control.clearRequests();
      forgetFirstListings();
      await branchProvider.delete!(id, outs);
      assert.deepEqual(
        harness.emulator.control.requests().map((r) => [r.route, r.status]),
        [
          // The run's one listing of the project, for scratch branches a killed restore left.
          ["GET /projects/{project_id}/branches", 200],
          ["DELETE /projects/{project_id}/branches/{branch_id}", 204],
        ],
      );
    });

    it("refuses to delete a protected branch until deleteProtection is turned off", async () => {
      const { id, outs } = await create({ name: "guarded", deleteProtection: true });
      harness.emulator.control.clearRequests();
      const err = await rejection(branchProvider.delete!(id, outs));
      assert.match(err.message, /deleteProtection: false/);
      assert.deepEqual(harness.log(), [], "nothing was sent");
      const off = await branchProvider.update!(
        id,
        outs,
        inputs({ name: "guarded", deleteProtection: false }),
      );
      await branchProvider.delete!(id, off.outs as BranchOutputs);
      assert.notEqual(branchState(id).deleted_at_ms, undefined);
    });
  });

  describe("adoption (adoptExisting)", () => {
    it("takes an existing branch under management without creating one", async () => {
      const existing = await create({ name: "made-elsewhere" });
      harness.emulator.control.clearRequests();
      const { id, outs } = await create({ adoptExisting: existing.id });
      assert.equal(id, existing.id);
      assert.equal(outs.name, "made-elsewhere");
      assert.equal(outs.adoptExisting, existing.id);
      assert.equal(outs.projectId, PROJECT);
      assert.ok(!harness.log().some((l) => l.startsWith("POST")), "no branch was created");
    });

    it("renames an adopted branch when a different name is declared", async () => {
      const existing = await create({ name: "adopt-me" });
      const { outs } = await create({ adoptExisting: existing.id, name: "adopted" });
      assert.equal(outs.name, "adopted");
      assert.equal(branchState(existing.id).name, "adopted");
    });

    it("fails clearly when the branch to adopt does not exist", async () => {
      const err = await rejection(
        branchProvider.create(inputs({ adoptExisting: "br-missing-branch-00000000" })),
      );
      assert.match(err.message, /branch br-missing-branch-00000000 was not found in project/);
      assert.match(err.message, /remove adoptExisting to create a new branch/);
    });

    it("records the adopted branch's computes, so a matching endpoints input makes no replacement", async () => {
      const existing = await create({ name: "with-compute", endpoints: [{ type: "read_write" }] });
      const { outs } = await create({ adoptExisting: existing.id, endpoints: [{ type: "read_write" }] });
      assert.deepEqual(
        outs.endpoints.map((ep) => [ep.id, ep.type, ep.currentState]),
        [[existing.outs.endpoints[0]!.id, "read_write", "active"]],
      );
      const diff = await branchProvider.diff!(
        existing.id,
        outs,
        inputs({ adoptExisting: existing.id, endpoints: [{ type: "read_write" }] }),
      );
      assert.deepEqual(diff.replaces, []);
    });

    it("refuses to adopt a branch whose computes differ from the declared endpoints", async () => {
      const existing = await create({ name: "no-compute" });
      const err = await rejection(
        branchProvider.create(inputs({ adoptExisting: existing.id, endpoints: [{ type: "read_only" }] })),
      );
      assert.match(err.message, /has endpoints \[none\], not \[read_only\]/);
      assert.match(err.message, /fix endpoints \(or remove it\)/);
    });

    it("refuses to adopt a branch whose parent differs from the declared parentId", async () => {
      const existing = await create({ name: "other-parent" });
      const err = await rejection(
        branchProvider.create(inputs({ adoptExisting: existing.id, parentId: "br-some-other-00000000" })),
      );
      assert.match(err.message, new RegExp(`has parent ${DEMO.branchId}, not br-some-other-00000000`));
    });
  });
});
