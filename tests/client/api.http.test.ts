import assert from "node:assert/strict";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { ClientRequest } from "node:http";
import sinon from "sinon";
import { DEMO } from "../../emulator";
import { isBadRequest } from "../../provider/client";
import { packageVersion } from "../../provider/client/version";
import { useEmulatorClient } from "./support/emulator";

// The client's API functions against the emulator: what reaches the service (headers, bodies,
// encoded paths), what comes back parsed, operations waited on, within a budget of requests.

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const P = DEMO.projectId;

describe("client API functions against the emulator", () => {
  const harness = useEmulatorClient();
  const client = () => harness.client();
  const control = () => harness.emulator.control;
  const liveBranch = (id: string) =>
    control()
      .dumpState()
      .branches.find((b) => b.id === id);
  afterEach(() => sinon.restore());

  /** A branch of the demo project, made directly, its operations ended. */
  async function scratchBranch(name: string): Promise<string> {
    const made = await client().createBranch(P, { branch: { name, parent_id: DEMO.branchId } });
    control().clearRequests();
    return made.branch.id;
  }

  it("sends Bearer auth, JSON headers, our User-Agent and an X-Request-ID on the wire", async () => {
    const sent: Array<Record<string, unknown>> = [];
    const onStart = (message: unknown) =>
      sent.push((message as { request: ClientRequest }).request.getHeaders());
    subscribe("http.client.request.start", onStart);
    try {
      await client().createApiKey({ keyName: "ci" });
    } finally {
      unsubscribe("http.client.request.start", onStart);
    }
    assert.equal(sent.length, 1);
    const headers = sent[0] ?? {};
    assert.equal(headers.authorization, `Bearer ${DEMO.personalKey}`);
    assert.equal(headers.accept, "application/json");
    assert.match(String(headers["content-type"]), /^application\/json/);
    assert.equal(headers["user-agent"], `pulumi-clouddb/${packageVersion()}`);
    assert.equal(packageVersion(), "0.1.0");
    assert.match(String(headers["x-request-id"]), /^[0-9a-f-]{36}$/);
    assert.equal(
      control().requests()[0]?.requestId,
      headers["x-request-id"],
      "the service kept our request id",
    );
  });

  it("createApiKey posts key_name and returns the one-time secret", async () => {
    const created = await client().createApiKey({ keyName: "ci-secret" });
    assert.match(created.key, /^napi_[a-z0-9]{64}$/);
    assert.equal(created.name, "ci-secret");
    assert.equal(created.created_by, DEMO.userId);
    const stored = control()
      .dumpState()
      .apiKeys.find((k) => k.id === created.id);
    assert.equal(stored?.name, "ci-secret");
  });

  it("listApiKeys reads the bare array with created_by objects and a null last_used_at", async () => {
    const unused = await client().createApiKey({ keyName: "never-used" });
    const keys = await client().listApiKeys();
    const listed = keys.find((k) => k.id === unused.id);
    assert.deepEqual(listed?.created_by, { id: DEMO.userId, name: "demo", image: "" });
    assert.equal(listed?.last_used_at, undefined, "a key never used has a null last_used_at");
    assert.notEqual(keys.find((k) => k.id === DEMO.personalKeyId)?.last_used_at, undefined);
  });

  it("revokeApiKey revokes the key it names", async () => {
    const made = await client().createApiKey({ keyName: "to-revoke" });
    const revoked = await client().revokeApiKey(made.id);
    assert.deepEqual([revoked.id, revoked.revoked], [made.id, true]);
    assert.equal(
      control()
        .dumpState()
        .apiKeys.find((k) => k.id === made.id)?.revoked,
      true,
    );
    assert.equal(
      control()
        .dumpState()
        .apiKeys.find((k) => k.id === DEMO.personalKeyId)?.revoked,
      false,
    );
  });

  it("createOrgApiKey sends project_id only for a project-scoped key", async () => {
    const scoped = await client().createOrgApiKey(DEMO.orgId, {
      keyName: "scoped",
      projectId: DEMO.orgProjectId,
    });
    const wide = await client().createOrgApiKey(DEMO.orgId, { keyName: "org-wide" });
    assert.equal(scoped.project_id, DEMO.orgProjectId);
    assert.equal(wide.project_id, undefined);
    const stored = control().dumpState().apiKeys;
    assert.equal(stored.find((k) => k.id === scoped.id)?.project_id, DEMO.orgProjectId);
    assert.equal(stored.find((k) => k.id === wide.id)?.project_id, undefined);
  });

  it("listProjects pages through GET /projects until a short page, one request per page", async () => {
    for (const name of ["page-a", "page-b"]) await client().createProject({ project: { name } });
    const visible = await collect(client().listProjects());
    assert.ok(visible.length >= 3, `the demo user sees three projects or more, not ${visible.length}`);
    control().clearRequests();
    const paged = await collect(client().listProjects({ limit: 1 }));
    assert.deepEqual(paged.map((p) => p.id).sort(), visible.map((p) => p.id).sort());
    const pages = control().requests({ route: "GET /projects" });
    assert.ok(pages.length <= visible.length + 1, `${pages.length} pages for ${visible.length} projects`);
    assert.ok(
      pages.slice(1).every((r) => /(^|&)cursor=/.test(r.query)),
      "later pages carry the cursor",
    );
  });

  it("createBranch posts the API body, returns 201's parts and resolves once the operations it started ended", async () => {
    const progress: string[] = [];
    const created = await client().createBranch(
      P,
      { branch: { name: "preview-1", parent_id: DEMO.branchId }, endpoints: [{ type: "read_write" }] },
      { onProgress: (op) => progress.push(`${op.id}:${op.status}`) },
    );
    const stored = liveBranch(created.branch.id);
    assert.deepEqual([stored?.name, stored?.parent_id], ["preview-1", DEMO.branchId]);
    assert.equal(created.endpoints[0]?.type, "read_write");
    assert.ok(created.roles.length > 0 && created.databases.length > 0);
    const started = created.operations.map((op) => op.id);
    assert.ok(started.length > 0);
    for (const op of control()
      .dumpState()
      .operations.filter((o) => started.includes(o.id)))
      assert.equal(op.status, "finished", `${op.action} ended before createBranch resolved`);
    for (const id of started) assert.ok(progress.includes(`${id}:finished`), `progress saw ${id} finish`);
    assert.equal(control().requests({ method: "POST" }).length, 1, "one POST");
    assert.ok(
      control()
        .requests({ method: "GET" })
        .every((r) => r.route.startsWith("GET /projects/{project_id}/operations")),
      "only operation polls besides the POST",
    );
  });

  it("getBranch reads {branch, annotation}", async () => {
    const got = await client().getBranch(P, DEMO.branchId);
    assert.equal(got.branch.id, DEMO.branchId);
    assert.equal(got.branch.default, true);
  });

  it("encodes ids so they cannot change the path on the wire", async () => {
    // The service sees one branch id segment, which it refuses; nothing reaches /api_keys.
    await assert.rejects(client().getBranch(P, "../../api_keys"), isBadRequest);
    assert.deepEqual(harness.log(), [`GET /projects/${P}/branches/..%2F..%2Fapi_keys`]);
  });

  it("updateBranch patches {branch: {name}}", async () => {
    const id = await scratchBranch("to-rename");
    const updated = await client().updateBranch(P, id, { name: "renamed" });
    assert.equal(updated.branch.name, "renamed");
    assert.equal(liveBranch(id)?.name, "renamed");
  });

  it("updateBranch sends only the fields given, and null to remove an expiry", async () => {
    const id = await scratchBranch("expiring");
    const expiry = new Date(control().now() + 86_400_000).toISOString();
    await client().updateBranch(P, id, { expires_at: expiry });
    assert.notEqual(liveBranch(id)?.expires_at_ms, undefined);
    await client().updateBranch(P, id, { protected: true, expires_at: null });
    const stored = liveBranch(id);
    assert.deepEqual(
      [stored?.name, stored?.protected, stored?.expires_at_ms ?? null],
      ["expiring", true, null],
    );
  });

  it("restoreBranch posts the source to .../restore and resolves once the operations it started ended", async () => {
    const id = await scratchBranch("to-restore");
    const restored = await client().restoreBranch(P, id, { source_branch_id: DEMO.branchId });
    assert.equal(restored.branch.id, id);
    assert.ok(restored.operations.length > 0);
    const started = restored.operations.map((op) => op.id);
    for (const op of control()
      .dumpState()
      .operations.filter((o) => started.includes(o.id)))
      assert.equal(op.status, "finished", `${op.action} ended before restoreBranch resolved`);
    assert.equal(
      control().requests({ route: "POST /projects/{project_id}/branches/{branch_id}/restore" }).length,
      1,
    );
  });

  it("deleteBranch returns the body of a 200 and null for a 204 (already gone)", async () => {
    const id = await scratchBranch("to-delete");
    const first = await client().deleteBranch(P, id);
    assert.equal(first?.branch.id, id);
    assert.notEqual(liveBranch(id)?.deleted_at_ms, undefined);
    assert.equal(await client().deleteBranch(P, id), null);
  });

  it("listBranchesWithDeleted asks for include_deleted=true and lists a deleted branch with the live ones", async () => {
    const id = await scratchBranch("deleted-but-listed");
    await client().deleteBranch(P, id);
    control().clearRequests();
    const ids = (await client().listBranchesWithDeleted(P)).map((b) => b.id);
    assert.ok(ids.includes(id) && ids.includes(DEMO.branchId), `listed: ${ids.join(", ")}`);
    const [listing] = control().requests({ route: "GET /projects/{project_id}/branches" });
    assert.deepEqual(Object.fromEntries(new URLSearchParams(listing?.query)), { include_deleted: "true" });
  });

  it("listOperations, getOperation and waitForOperations read the operations resource", async () => {
    await scratchBranch("with-operations");
    const ops = await collect(client().listOperations(P, { pageSize: 10, maxItems: 10 }));
    assert.ok(ops.length > 0);
    assert.match(
      control().requests({ route: "GET /projects/{project_id}/operations" })[0]?.query ?? "",
      /(^|&)limit=10(&|$)/,
    );
    const first = ops[0]!;
    assert.equal((await client().getOperation(P, first.id)).id, first.id);
    const waited = await client().waitForOperations(P, ops.slice(0, 2));
    assert.ok(waited.every((op) => op.status === "finished"));
  });
});
