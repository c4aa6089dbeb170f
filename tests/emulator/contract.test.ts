import assert from "node:assert/strict";
import { DEMO, demoSeed, type RunningEmulator } from "../../emulator";
import {
  type CallOptions,
  call,
  type Json,
  type Reply,
  SECOND_ORG_ID,
  SMTP_SERVER,
  start,
  withSecondOrg,
} from "./helpers";
import { OpenApiValidator, servedRoutes } from "./openapi";

// Every response body the emulator sends, on every route and error path, is validated against the
// official OpenAPI document of @neondatabase/api-client; the last test checks nothing was skipped.
// One suite, so longer than 400 lines: its last two tests check that the tests above covered every
// served route and error path, a record that suites split across mocha's workers could not share.

describe("contract: responses match the official OpenAPI document", () => {
  const validator = new OpenApiValidator();
  const covered = new Set<string>();
  let emu: RunningEmulator;

  before(async () => {
    emu = await start({ opDurationMs: 100 });
  });
  after(() => emu.stop());

  /** Sends a request, asserts its status, validates its body against the document and records coverage. */
  async function check(
    method: string,
    path: string,
    expect: number,
    options: CallOptions = {},
  ): Promise<Reply> {
    const reply = await call(emu.url, method, path, options);
    assert.equal(reply.status, expect, `${method} ${path} -> ${reply.status} ${reply.text}`);
    const entry = emu.control.requests().at(-1);
    assert.ok(entry, "the request was logged");
    const template = entry.route.slice(method.length + 1);
    const problems = validator.has(template, method)
      ? validator.validate(template, method, reply.status, reply.body, reply.text)
      : validator.validateComponent("GeneralError", reply.body);
    assert.deepEqual(
      problems,
      [],
      `${method} ${template} ${reply.status} does not match the document: ${reply.text}`,
    );
    if (reply.status >= 400) {
      assert.equal(
        reply.body.request_id,
        reply.headers.get("x-request-id"),
        "error bodies carry the request id",
      );
      assert.equal(typeof reply.body.code, "string");
      assert.ok(reply.body.message.length > 0, "error bodies explain themselves");
    }
    covered.add(`${method} ${template} ${reply.status}`);
    return reply;
  }

  function noUndeclared(component: string, value: Json, extra: string[] = []): void {
    assert.deepEqual(
      validator.undeclared(component, value, extra),
      [],
      `fields ${component} does not declare`,
    );
  }

  const personal = { key: DEMO.personalKey };
  const member = { key: DEMO.memberPersonalKey };
  const orgKey = { key: DEMO.orgKey };
  const projectKey = { key: DEMO.projectKey };
  const P = `/projects/${DEMO.projectId}`;

  it("personal API keys: create, list, revoke and their errors", async () => {
    const created = await check("POST", "/api_keys", 200, { ...personal, body: { key_name: "ci" } });
    noUndeclared("ApiKeyCreateResponse", created.body);
    await check("POST", "/api_keys", 400, { ...personal, body: {} });
    await check("POST", "/api_keys", 400, { ...personal, body: { key_name: "x".repeat(65) } });
    await check("POST", "/api_keys", 400, { ...personal, rawBody: "{not json" });
    await check("POST", "/api_keys", 401, { body: { key_name: "ci" } });
    await check("POST", "/api_keys", 403, { ...orgKey, body: { key_name: "ci" } });
    const listed = await check("GET", "/api_keys", 200, { key: created.body.key });
    noUndeclared("ApiKeysListResponseItem", listed.body[0]);
    await check("GET", "/api_keys", 403, projectKey);
    await check("DELETE", `/api_keys/${DEMO.memberPersonalKeyId}`, 403, personal);
    await check("DELETE", "/api_keys/not-a-number", 400, personal);
    const revoked = await check("DELETE", `/api_keys/${created.body.id}`, 200, personal);
    noUndeclared("ApiKeyRevokeResponse", revoked.body);
    await check("DELETE", `/api_keys/${created.body.id}`, 404, personal);
    await check("GET", "/api_keys", 401, { key: created.body.key });
  });

  it("organization API keys: create, list, revoke and their errors, including 429", async () => {
    const orgPath = `/organizations/${DEMO.orgId}/api_keys`;
    const created = await check("POST", orgPath, 200, { ...personal, body: { key_name: "org" } });
    noUndeclared("OrgApiKeyCreateResponse", created.body, ["project_id"]);
    const scoped = await check("POST", orgPath, 200, {
      ...member,
      body: { key_name: "scoped", project_id: DEMO.orgProjectId },
    });
    assert.equal(scoped.body.project_id, DEMO.orgProjectId);
    await check("POST", orgPath, 403, { ...member, body: { key_name: "not-admin" } });
    await check("POST", "/organizations/org-no-such-org-00000000/api_keys", 404, {
      ...personal,
      body: { key_name: "x" },
    });
    await check("POST", orgPath, 400, { ...personal, body: { project_id: DEMO.orgProjectId } });
    let limited: Reply | undefined;
    for (let i = 0; i < 12 && !limited; i++) {
      const reply = await call(emu.url, "POST", orgPath, { ...personal, body: { key_name: `burst-${i}` } });
      if (reply.status === 429) limited = reply;
    }
    assert.ok(limited, "the organization key bucket ran dry");
    await check("POST", orgPath, 429, { ...personal, body: { key_name: "one-more" } });
    emu.control.advance(2000);
    const list = await check("GET", orgPath, 200, orgKey);
    noUndeclared(
      "OrgApiKeysListResponseItem",
      list.body.find((k: Json) => k.project_id !== undefined),
      ["project_id"],
    );
    await check("GET", orgPath, 403, projectKey);
    await check("GET", "/organizations/org-no-such-org-00000000/api_keys", 404, personal);
    await check("DELETE", `${orgPath}/${scoped.body.id}`, 403, member);
    const revoked = await check("DELETE", `${orgPath}/${scoped.body.id}`, 200, personal);
    assert.equal(revoked.body.revoked, true);
    await check("DELETE", `${orgPath}/${scoped.body.id}`, 404, personal);
  });

  it("projects: list, get, create and their errors", async () => {
    const list = await check("GET", "/projects", 200, personal);
    noUndeclared("ProjectListItem", list.body.projects[0]);
    await check("GET", `/projects?org_id=${DEMO.orgId}&limit=1`, 200, member);
    await check("GET", "/projects?limit=0", 400, personal);
    await check("GET", "/projects?org_id=org-no-such-org-00000000", 404, personal);
    await check("GET", "/projects", 401, { key: `napi_${"0".repeat(64)}` });
    await check("GET", "/projects", 401, {});
    const one = await check("GET", P, 200, personal);
    noUndeclared("Project", one.body.project);
    await check("GET", `/projects/${DEMO.memberProjectId}`, 403, personal);
    await check("GET", "/projects/no-such-project-00000000", 404, personal);
    await check("GET", "/projects/Not_An_Id", 400, personal);
    const created = await check("POST", "/projects", 201, {
      ...personal,
      body: { project: { name: "contract" } },
    });
    assert.deepEqual(
      created.body.operations.map((o: Json) => o.action),
      ["create_timeline", "start_compute"],
    );
    await check("POST", "/projects", 201, { ...orgKey, body: { project: {} } });
    await check("POST", "/projects", 403, { ...projectKey, body: { project: {} } });
    await check("POST", "/projects", 400, { ...personal, body: {} });
    await check("POST", "/projects", 400, { ...personal, body: { project: { pg_version: 9 } } });
  });

  it("branches: create, list, get, update, delete and their errors (400, 403, 404, 409, 422, 423, 204)", async () => {
    const created = await check("POST", `${P}/branches`, 201, {
      ...personal,
      body: { branch: { name: "dev" }, endpoints: [{ type: "read_write" }, { type: "read_only" }] },
    });
    noUndeclared("Branch", created.body.branch);
    noUndeclared("Endpoint", created.body.endpoints[0]);
    noUndeclared("Operation", created.body.operations[0]);
    noUndeclared("Role", created.body.roles[0]);
    noUndeclared("Database", created.body.databases[0]);
    const devId = created.body.branch.id;
    await check("POST", `${P}/branches`, 423, { ...personal, body: { branch: { name: "too-soon" } } });
    emu.control.advance(1000);
    const dup = await check("POST", `${P}/branches`, 409, { ...personal, body: { branch: { name: "dev" } } });
    assert.equal(dup.body.code, "BRANCH_ALREADY_EXISTS");
    await check("POST", `${P}/branches`, 422, {
      ...personal,
      body: { branch: { parent_id: "br-no-such-branch-a0000000" } },
    });
    await check("POST", `${P}/branches`, 400, { ...personal, body: { endpoints: [{ type: "bogus" }] } });
    await check("POST", "/projects/no-such-project-00000000/branches", 404, personal);
    await check("POST", `/projects/${DEMO.memberProjectId}/branches`, 403, personal);
    const child = await check("POST", `${P}/branches`, 201, {
      ...personal,
      body: { branch: { parent_id: devId } },
    });
    emu.control.advance(1000);
    await check("POST", `${P}/branches`, 201, personal); // the body is optional
    emu.control.advance(1000);

    const list = await check("GET", `${P}/branches`, 200, personal);
    assert.ok(list.body.branches.length >= 4);
    await check("GET", `${P}/branches/${devId}`, 200, personal);
    await check("GET", `${P}/branches/br-no-such-branch-a0000000`, 404, personal);
    const endpoints = await check("GET", `${P}/branches/${devId}/endpoints`, 200, personal);
    assert.deepEqual(endpoints.body.endpoints.map((e: Json) => e.type).sort(), ["read_only", "read_write"]);
    assert.ok(
      endpoints.body.endpoints.every((e: Json) => e.current_state === "active"),
      "computes started",
    );
    await check("GET", `${P}/branches/br-no-such-branch-a0000000/endpoints`, 404, personal);
    await check(
      "GET",
      `/projects/${DEMO.memberProjectId}/branches/${DEMO.memberBranchId}/endpoints`,
      403,
      personal,
    );
    const renamed = await check("PATCH", `${P}/branches/${devId}`, 200, {
      ...personal,
      body: { branch: { name: "dev-2" } },
    });
    assert.equal(renamed.body.branch.name, "dev-2");
    await check("PATCH", `${P}/branches/${devId}`, 409, { ...personal, body: { branch: { name: "main" } } });
    await check("PATCH", `${P}/branches/${devId}`, 400, { ...personal, body: { branch: { name: "" } } });

    await check("DELETE", `${P}/branches/${DEMO.branchId}`, 422, personal);
    await check("DELETE", `${P}/branches/${devId}`, 422, personal);
    emu.control.startPlatformOperation(DEMO.projectId);
    await check("DELETE", `${P}/branches/${child.body.branch.id}`, 423, personal);
    emu.control.advance(1000);
    const deleted = await check("DELETE", `${P}/branches/${child.body.branch.id}`, 200, personal);
    assert.deepEqual(
      deleted.body.operations.map((o: Json) => o.action),
      ["delete_timeline"],
    );
    await check("DELETE", `${P}/branches/${child.body.branch.id}`, 204, personal);
    emu.control.advance(1000);
    const withCompute = await check("DELETE", `${P}/branches/${devId}`, 200, personal);
    assert.deepEqual(
      withCompute.body.operations.map((o: Json) => o.action),
      ["suspend_compute", "suspend_compute", "delete_timeline"],
    );
  });

  it("operations: list, page, get, scripted statuses and their errors", async () => {
    emu.control.advance(5000);
    emu.control.scriptOperations({ action: "create_branch", count: 1 }, { kind: "fail", times: 1 });
    emu.control.scriptOperations(
      { action: "start_compute", count: 1 },
      { kind: "error", message: "compute crashed" },
    );
    await check("POST", `${P}/branches`, 201, { ...personal, body: { endpoints: [{ type: "read_write" }] } });
    emu.control.advance(100);
    const failing = await check("GET", `${P}/operations?limit=2`, 200, personal);
    const createOp = failing.body.operations.find((o: Json) => o.action === "create_branch");
    assert.equal(createOp.status, "failed");
    assert.ok(createOp.retry_at, "a failed operation says when it is retried");
    noUndeclared("Operation", createOp);
    emu.control.advance(1000);
    const page = await check("GET", `${P}/operations?limit=1`, 200, personal);
    const errored = page.body.operations[0];
    assert.equal(errored.status, "error");
    assert.equal(errored.error, "compute crashed");
    await check(
      "GET",
      `${P}/operations?cursor=${encodeURIComponent(page.body.pagination.cursor)}&limit=1000`,
      200,
      personal,
    );
    await check("GET", `${P}/operations?cursor=yesterday`, 400, personal);
    await check("GET", `${P}/operations?limit=1001`, 400, personal);
    await check("GET", `/projects/${DEMO.memberProjectId}/operations`, 403, personal);
    await check("GET", `${P}/operations/${errored.id}`, 200, personal);
    await check("GET", `${P}/operations/00000000-0000-4000-8000-000000000000`, 404, personal);
    await check("GET", `${P}/operations/not-a-uuid`, 400, personal);
  });

  it("the rest of the object model: projects, branches, endpoints, roles, databases, users, organizations", async () => {
    emu.control.advance(10_000);
    await check("GET", "/projects/shared", 200, personal);
    await check("GET", "/projects?recoverable=true", 200, personal);
    const made = await check("POST", "/projects", 201, { ...personal, body: { project: { name: "model" } } });
    const M = `/projects/${made.body.project.id}`;
    const mainId = made.body.branch.id as string;
    emu.control.advance(1000);
    await check("PATCH", M, 200, { ...personal, body: { project: { name: "model-2" } } });
    await check("PATCH", M, 400, {
      ...personal,
      body: {
        project: { default_endpoint_settings: { autoscaling_limit_min_cu: 2, autoscaling_limit_max_cu: 1 } },
      },
    });
    await check(
      "GET",
      `${M}/connection_uri?database_name=neondb&role_name=neondb_owner&pooled=true`,
      200,
      personal,
    );
    await check("GET", `${M}/connection_uri?database_name=neondb&role_name=nobody`, 404, personal);
    await check("GET", `${M}/connection_uri?role_name=neondb_owner`, 400, personal);
    await check("PATCH", M, 400, {
      ...personal,
      body: { project: { settings: { allowed_ips: { ips: ["10.0.0.0/33"] } } } },
    });
    const regions = await check("GET", "/regions", 200, personal);
    noUndeclared("RegionResponse", regions.body.regions[0]);
    await check("GET", "/regions?org_id=org-not-mine-00000000", 403, personal);
    const expires = new Date(emu.control.now() + 3_600_000).toISOString();
    const dev = await check("POST", `${M}/branches`, 201, {
      ...personal,
      body: {
        branch: {
          name: "dev",
          expires_at: expires,
          parent_timestamp: new Date(emu.control.now()).toISOString(),
        },
        endpoints: [{ type: "read_write", autoscaling_limit_min_cu: 0.5, autoscaling_limit_max_cu: 2 }],
      },
    });
    const D = `${M}/branches/${dev.body.branch.id}`;
    await check("POST", `${M}/branches`, 400, {
      ...personal,
      body: { branch: { init_source: "everything" } },
    });
    emu.control.advance(1000);
    await check("POST", `${M}/branches`, 201, {
      ...personal,
      body: { branch: { init_source: "schema-only" } },
    });
    emu.control.advance(1000);
    await check("GET", `${M}/branches?limit=1&sort_by=name&sort_order=asc`, 200, personal);
    await check("GET", `${M}/branches?sort_by=size`, 400, personal);
    await check("GET", `${M}/branches/count`, 200, personal);
    await check("PATCH", D, 200, { ...personal, body: { branch: { expires_at: null, protected: true } } });
    await check("DELETE", D, 422, personal);
    await check("PATCH", D, 200, { ...personal, body: { branch: { protected: false } } });
    const endpoints = await check("GET", `${M}/endpoints`, 200, personal);
    const rw = endpoints.body.endpoints.find((e: Json) => e.branch_id === dev.body.branch.id);
    const E = `${M}/endpoints/${rw.id}`;
    await check("GET", E, 200, personal);
    await check("POST", `${M}/endpoints`, 400, {
      ...personal,
      body: { endpoint: { branch_id: dev.body.branch.id, type: "read_write" } },
    });
    const ro = await check("POST", `${M}/endpoints`, 201, {
      ...personal,
      body: { endpoint: { branch_id: dev.body.branch.id, type: "read_only" } },
    });
    await check("POST", `${M}/endpoints`, 423, {
      ...personal,
      body: { endpoint: { branch_id: dev.body.branch.id, type: "read_only" } },
    });
    emu.control.advance(1000);
    await check("PATCH", E, 200, { ...personal, body: { endpoint: { suspend_timeout_seconds: 300 } } });
    emu.control.advance(1000);
    await check("PATCH", E, 400, { ...personal, body: { endpoint: { suspend_timeout_seconds: 30 } } });
    for (const what of ["suspend", "start", "restart"]) {
      await check("POST", `${E}/${what}`, 200, personal);
      emu.control.advance(1000);
    }
    await check("DELETE", `${M}/endpoints/${ro.body.endpoint.id}`, 200, personal);
    emu.control.advance(1000);
    await check("DELETE", `${M}/endpoints/${ro.body.endpoint.id}`, 204, personal);
    await check("GET", `${M}/endpoints/ep-no-such-endpoint-a0000000`, 404, personal);
    const role = await check("POST", `${D}/roles`, 201, { ...personal, body: { role: { name: "alice" } } });
    noUndeclared("Role", role.body.role);
    emu.control.advance(1000);
    await check("POST", `${D}/roles`, 409, { ...personal, body: { role: { name: "alice" } } });
    await check("GET", `${D}/roles`, 200, personal);
    await check("GET", `${D}/roles/alice`, 200, personal);
    await check("GET", `${D}/roles/alice/reveal_password`, 200, personal);
    await check("POST", `${D}/roles/alice/reset_password`, 200, personal);
    emu.control.advance(1000);
    await check("POST", `${D}/databases`, 201, {
      ...personal,
      body: { database: { name: "shop", owner_name: "alice" } },
    });
    emu.control.advance(1000);
    await check("POST", `${D}/databases`, 422, {
      ...personal,
      body: { database: { name: "x", owner_name: "nobody" } },
    });
    await check("GET", `${D}/databases`, 200, personal);
    await check("GET", `${D}/databases/shop`, 200, personal);
    await check("PATCH", `${D}/databases/shop`, 200, { ...personal, body: { database: { name: "store" } } });
    emu.control.advance(1000);
    await check("DELETE", `${D}/roles/alice`, 422, personal);
    await check("DELETE", `${D}/databases/store`, 200, personal);
    emu.control.advance(1000);
    await check("DELETE", `${D}/databases/store`, 204, personal);
    await check("DELETE", `${D}/roles/alice`, 200, personal);
    emu.control.advance(1000);
    await check("DELETE", `${D}/roles/alice`, 204, personal);
    await check("POST", `${D}/restore`, 200, { ...personal, body: { source_branch_id: mainId } });
    emu.control.advance(1000);
    await check("POST", `${D}/restore`, 400, { ...personal, body: { source_branch_id: dev.body.branch.id } });
    await check("POST", `${D}/set_as_default`, 200, personal);
    await check("POST", `${M}/branches/${mainId}/set_as_default`, 200, personal);
    await check("DELETE", D, 200, personal);
    emu.control.advance(1000);
    await check("POST", `${D}/recover`, 200, personal);
    await check("GET", "/users/me", 200, personal);
    await check("GET", "/users/me", 403, orgKey);
    await check("GET", "/users/me/organizations", 200, member);
    await check("GET", `/organizations/${DEMO.orgId}`, 200, orgKey);
    const members = await check("GET", `/organizations/${DEMO.orgId}/members`, 200, member);
    await check(
      "GET",
      `/organizations/${DEMO.orgId}/members/${members.body.members[0].member.id}`,
      200,
      member,
    );
    await check("GET", `/organizations/${DEMO.orgId}/members`, 403, projectKey);
    await check("DELETE", M, 200, personal);
    await check("GET", M, 404, personal);
    await check("POST", `${M}/recover`, 200, personal);
  });

  it("project permissions: list, grant, revoke and their errors; a grant shares the project", async () => {
    const O = `/projects/${DEMO.orgProjectId}`;
    const granted = await check("POST", `${P}/permissions`, 200, {
      ...personal,
      body: { email: "casey@example.com" },
    });
    noUndeclared("ProjectPermission", granted.body);
    await check("POST", `${P}/permissions`, 409, { ...personal, body: { email: "Casey@Example.com" } });
    await check("POST", `${P}/permissions`, 400, { ...personal, body: { email: "not an email" } });
    await check("POST", `${O}/permissions`, 403, { ...projectKey, body: { email: "ada@example.com" } });
    const listed = await check("GET", `${P}/permissions`, 200, personal);
    assert.deepEqual(
      listed.body.project_permissions.map((p: Json) => p.granted_to_email),
      ["casey@example.com"],
    );
    await check("GET", "/projects/no-such-project-1/permissions", 404, personal);
    // The grantee's personal key reaches the shared project, finds it shared, and cannot delete it.
    const shared = await check("GET", "/projects/shared", 200, member);
    assert.deepEqual(
      shared.body.projects.map((p: Json) => p.id),
      [DEMO.projectId],
    );
    await check("GET", `${P}/permissions`, 200, member);
    await check("DELETE", P, 403, member);
    await check("DELETE", `${O}/permissions/${granted.body.id}`, 403, projectKey);
    const revoked = await check("DELETE", `${P}/permissions/${granted.body.id}`, 200, personal);
    assert.equal(typeof revoked.body.revoked_at, "string");
    await check("DELETE", `${P}/permissions/${granted.body.id}`, 404, personal);
    await check("GET", `${P}/permissions`, 403, member);
  });

  it("project settings: a maintenance window and quotas are stored and shown; a malformed window is refused", async () => {
    const window = { weekdays: [6, 7], start_time: "01:00", end_time: "03:30" };
    const quota = { active_time_seconds: 3600, logical_size_bytes: 1_000_000 };
    const made = await check("POST", "/projects", 201, {
      ...personal,
      body: {
        project: {
          name: "settings",
          settings: { maintenance_window: window },
          branch: { name: "trunk", role_name: "app", database_name: "appdb" },
        },
      },
    });
    assert.deepEqual(made.body.project.settings.maintenance_window, window);
    assert.deepEqual(
      [made.body.branch.name, made.body.roles[0].name, made.body.databases[0].name],
      ["trunk", "app", "appdb"],
    );
    const S = `/projects/${made.body.project.id}`;
    await check("PATCH", S, 200, { ...personal, body: { project: { settings: { quota } } } });
    const got = await check("GET", S, 200, personal);
    assert.deepEqual(
      [got.body.project.settings.quota, got.body.project.settings.maintenance_window],
      [quota, window],
    );
    for (const wrong of [
      { ...window, weekdays: [0, 8] },
      { ...window, weekdays: [] },
      { ...window, weekdays: [1, 1] },
      { ...window, start_time: "25:00" },
      { ...window, end_time: "3:30" },
    ]) {
      const refused = await check("PATCH", S, 400, {
        ...personal,
        body: { project: { settings: { maintenance_window: wrong } } },
      });
      assert.match(refused.body.message, /^project\.settings\.maintenance_window\./);
    }
    await check("PATCH", S, 400, {
      ...personal,
      body: { project: { settings: { quota: { active_time_seconds: -1 } } } },
    });
    await check("POST", "/projects", 400, {
      ...personal,
      body: { project: { settings: { maintenance_window: { ...window, start_time: "noon" } } } },
    });
  });

  it("project compliance settings: HIPAA and the audit log level are stored and shown; HIPAA stays on", async () => {
    const made = await check("POST", "/projects", 201, {
      ...personal,
      body: { project: { name: "plain", settings: { audit_log_level: "extended" } } },
    });
    assert.equal(made.body.project.settings.audit_log_level, "extended");
    assert.equal(made.body.project.hipaa_enabled_at, undefined, "no HIPAA, no time it was enabled");
    const S = `/projects/${made.body.project.id}`;
    emu.control.advance(1000);
    const on = await check("PATCH", S, 200, {
      ...personal,
      body: { project: { settings: { hipaa: true } } },
    });
    assert.equal(on.body.project.settings.hipaa, true);
    assert.equal(
      on.body.project.hipaa_enabled_at,
      new Date(emu.control.now()).toISOString().replace(/\.\d+Z$/, "Z"),
    );
    emu.control.advance(1000);
    const again = await check("PATCH", S, 200, {
      ...personal,
      body: { project: { settings: { hipaa: true, audit_log_level: "full" } } },
    });
    assert.equal(again.body.project.hipaa_enabled_at, on.body.project.hipaa_enabled_at, "enabled once");
    assert.equal(again.body.project.settings.audit_log_level, "full");
    const off = await check("PATCH", S, 400, {
      ...personal,
      body: { project: { settings: { hipaa: false } } },
    });
    assert.equal(
      off.body.message,
      "project.settings.hipaa: HIPAA compliance cannot be disabled once enabled",
    );
    await check("PATCH", S, 400, {
      ...personal,
      body: { project: { settings: { audit_log_level: "everything" } } },
    });
    // Ids are made of words ("plain" among them), so the search may also match another project by id.
    const listed = await check("GET", "/projects?search=plain", 200, personal);
    const mine = listed.body.projects.find((p: { id: string }) => p.id === made.body.project.id);
    assert.equal(mine?.hipaa_enabled_at, on.body.project.hipaa_enabled_at);
    const born = await check("POST", "/projects", 201, {
      ...personal,
      body: { project: { name: "born-compliant", settings: { hipaa: true } } },
    });
    assert.equal(born.body.project.hipaa_enabled_at, born.body.project.created_at);
  });

  it("snapshots, restores, finalize and backup schedules, and their errors", async () => {
    const B = `${P}/branches/${DEMO.branchId}`;
    const taken = await check("POST", `${B}/snapshot?name=contract`, 200, personal);
    noUndeclared("Snapshot", taken.body.snapshot);
    await check("POST", `${B}/snapshot`, 423, personal);
    emu.control.advance(1000);
    await check("POST", `${B}/snapshot?lsn=0/zz`, 400, personal);
    await check("POST", `${P}/branches/br-none-a0000000/snapshot`, 404, personal);
    const S = `${P}/snapshots/${taken.body.snapshot.id}`;
    const listed = await check("GET", `${P}/snapshots`, 200, personal);
    noUndeclared("Snapshot", listed.body.snapshots[0]);
    await check("PATCH", S, 200, { ...personal, body: { snapshot: { name: "renamed" } } });
    await check("PATCH", S, 400, { ...personal, body: { snapshot: { name: "" } } });
    await check("PATCH", `${P}/snapshots/snap-none-a0000000`, 404, { ...personal, body: { snapshot: {} } });
    const restored = await check("POST", `${S}/restore`, 200, {
      ...personal,
      body: { name: "from-snapshot" },
    });
    noUndeclared("Branch", restored.body.branch);
    await check("POST", `${S}/restore`, 409, { ...personal, body: { name: "from-snapshot" } });
    await check("POST", `${S}/restore`, 404, { ...personal, body: { target_branch_id: "br-none-a0000000" } });
    emu.control.advance(1000);
    const F = `${P}/branches/${restored.body.branch.id}/finalize_restore`;
    await check("POST", F, 200, { ...personal, body: { name: "main-replaced" } });
    emu.control.advance(1000);
    await check("POST", F, 400, personal);
    await check("GET", `${B}/backup_schedule`, 200, personal);
    await check("PUT", `${B}/backup_schedule`, 200, {
      ...personal,
      body: { schedule: [{ frequency: "daily", hour: 3, retention_seconds: 86_400 }] },
    });
    await check("PUT", `${B}/backup_schedule`, 400, {
      ...personal,
      body: { schedule: [{ frequency: "fortnightly" }] },
    });
    await check("GET", `${P}/branches/br-none-a0000000/backup_schedule`, 404, personal);
    await check("DELETE", S, 202, personal);
    await check("DELETE", S, 404, personal);
  });

  it("anonymized branches: create, masking rules, status, anonymize, and their errors", async () => {
    emu.control.advance(10_000);
    const made = await check("POST", "/projects", 201, {
      ...personal,
      body: { project: { name: "anonymized" } },
    });
    const A = `/projects/${made.body.project.id}`;
    const root = `${A}/branches/${made.body.branch.id}`;
    emu.control.advance(10_000);
    const email = {
      database_name: "neondb",
      schema_name: "public",
      table_name: "users",
      column_name: "email",
      masking_function: "anon.fake_email()",
    };
    const created = await check("POST", `${A}/branch_anonymized`, 201, {
      ...personal,
      body: { branch_create: { branch: { name: "masked" } }, masking_rules: [email] },
    });
    noUndeclared("Branch", created.body.branch);
    await check("POST", `${A}/branch_anonymized`, 400, {
      ...personal,
      body: { masking_rules: [{ database_name: "neondb" }] },
    });
    await check("POST", `${A}/branch_anonymized`, 409, {
      ...personal,
      body: { branch_create: { branch: { name: "masked" } } },
    });
    const B = `${A}/branches/${created.body.branch.id}`;
    const rules = await check("GET", `${B}/masking_rules`, 200, personal);
    noUndeclared("MaskingRulesResponse", rules.body);
    noUndeclared("MaskingRule", rules.body.masking_rules[0]);
    await check("GET", `${root}/masking_rules`, 404, personal);
    await check("PATCH", `${B}/masking_rules`, 200, { ...personal, body: { masking_rules: [email] } });
    await check("PATCH", `${root}/masking_rules`, 400, { ...personal, body: { masking_rules: [] } });
    await check("GET", `${B}/anonymized_status`, 200, personal);
    await check("GET", `${root}/anonymized_status`, 404, personal);
    await check("POST", `${B}/anonymize`, 409, personal);
    await check("POST", `${root}/anonymize`, 400, personal);
    emu.control.advance(1_000);
    await check("POST", `${B}/anonymize`, 200, personal);
    emu.control.advance(1_000);
    const status = await check("GET", `${B}/anonymized_status`, 200, personal);
    noUndeclared("AnonymizedBranchStatusResponse", status.body);
    assert.equal(status.body.state, "anonymized");
  });

  it("schemas: a branch's schema and the diff from another branch's, and their errors", async () => {
    emu.control.advance(10_000);
    const made = await check("POST", "/projects", 201, {
      ...personal,
      body: { project: { name: "schemas" } },
    });
    const S = `/projects/${made.body.project.id}`;
    const root = `${S}/branches/${made.body.branch.id}`;
    emu.control.advance(10_000);
    const child = await check("POST", `${S}/branches`, 201, {
      ...personal,
      body: { branch: { name: "pr" } },
    });
    const pr = `${S}/branches/${child.body.branch.id}`;
    emu.control.advance(1_000);
    const schema = await check("GET", `${pr}/schema?db_name=neondb`, 200, personal);
    noUndeclared("BranchSchemaResponse", schema.body);
    await check("GET", `${pr}/schema?db_name=neondb&format=json`, 400, personal);
    await check("GET", `${pr}/schema?db_name=nope`, 404, personal);
    await check("GET", `${pr}/schema?db_name=neondb`, 403, member);
    const diff = await check("GET", `${pr}/compare_schema?db_name=neondb`, 200, personal);
    noUndeclared("BranchSchemaCompareResponse", diff.body);
    const at = new Date(emu.control.now() - 500).toISOString();
    await check(
      "GET",
      `${pr}/compare_schema?db_name=neondb&base_branch_id=${child.body.branch.id}&base_timestamp=${at}`,
      200,
      personal,
    );
    await check("GET", `${root}/compare_schema?db_name=neondb`, 400, personal);
    await check("GET", `${pr}/compare_schema?db_name=neondb&lsn=0/1F0A3B8&timestamp=${at}`, 400, personal);
    await check(
      "GET",
      `${pr}/compare_schema?db_name=neondb&base_branch_id=br-not-here-00000000`,
      404,
      personal,
    );
  });

  it("VPC endpoints: an organization's endpoints by region, a project's restrictions, and their errors", async () => {
    const O = `/organizations/${DEMO.orgId}/vpc`;
    const R = `${O}/region/aws-us-east-2/vpc_endpoints`;
    const V = `/projects/${DEMO.orgProjectId}/vpc_endpoints`;
    await check("POST", `${R}/vpce-0a1b2c3d4e5f6a7b8`, 200, { ...personal, body: { label: "prod" } });
    await check("POST", `${R}/vpce-0a1b2c3d4e5f6a7b8`, 200, { ...orgKey, body: { label: "prod-vpc" } });
    await check("POST", `${R}/vpce-0a1b2c3d4e5f6a7b8`, 400, { ...personal, body: {} });
    await check("POST", `${O}/region/azure-eastus2/vpc_endpoints/vpce-1`, 400, {
      ...personal,
      body: { label: "" },
    });
    await check("POST", `${R}/vpce-1`, 403, { ...member, body: { label: "" } });
    await check(
      "POST",
      `/organizations/org-no-such-org-00000000/vpc/region/aws-us-east-2/vpc_endpoints/vpce-1`,
      404,
      {
        ...personal,
        body: { label: "" },
      },
    );
    const listed = await check("GET", R, 200, member);
    assert.deepEqual(listed.body.endpoints, [
      { vpc_endpoint_id: "vpce-0a1b2c3d4e5f6a7b8", label: "prod-vpc" },
    ]);
    await check("GET", `${O}/region/mars-1/vpc_endpoints`, 400, personal);
    await check("GET", R, 403, projectKey);
    const all = await check("GET", `${O}/vpc_endpoints`, 200, orgKey);
    noUndeclared("VPCEndpointWithRegion", all.body.endpoints[0]);
    await check("GET", `${O}/vpc_endpoints`, 403, projectKey);
    await check("GET", "/organizations/org-no-such-org-00000000/vpc/vpc_endpoints", 404, personal);

    await check("POST", `${V}/vpce-0a1b2c3d4e5f6a7b8`, 200, { ...orgKey, body: { label: "only" } });
    await check("POST", `${V}/vpce-0a1b2c3d4e5f6a7b8`, 403, { ...member, body: { label: "only" } });
    await check("POST", `${V}/vpce-0a1b2c3d4e5f6a7b8`, 403, { ...projectKey, body: { label: "only" } });
    await check("POST", `${P}/vpc_endpoints/vpce-0a1b2c3d4e5f6a7b8`, 403, {
      ...personal,
      body: { label: "" },
    });
    await check("POST", `${V}/vpce-unknown`, 404, { ...personal, body: { label: "" } });
    await check("POST", `${O}/region/aws-eu-central-1/vpc_endpoints/vpce-frankfurt`, 200, {
      ...personal,
      body: { label: "eu" },
    });
    await check("POST", `${V}/vpce-frankfurt`, 400, { ...personal, body: { label: "" } });
    const restrictions = await check("GET", V, 200, projectKey);
    assert.deepEqual(restrictions.body.endpoints, [
      { vpc_endpoint_id: "vpce-0a1b2c3d4e5f6a7b8", label: "only" },
    ]);
    await check("GET", `${P}/vpc_endpoints`, 403, projectKey);
    await check("GET", "/projects/no-such-project-1234/vpc_endpoints", 404, personal);

    const details = await check("GET", `${R}/vpce-0a1b2c3d4e5f6a7b8`, 200, member);
    noUndeclared("VPCEndpointDetails", details.body);
    assert.equal(details.body.num_restricted_projects, 1);
    await check("GET", `${R}/vpce-unknown`, 404, personal);

    await check("DELETE", `${V}/vpce-0a1b2c3d4e5f6a7b8`, 403, projectKey);
    await check("DELETE", `${V}/vpce-0a1b2c3d4e5f6a7b8`, 200, personal);
    await check("DELETE", `${V}/vpce-0a1b2c3d4e5f6a7b8`, 404, personal);
    await check("DELETE", `${R}/vpce-0a1b2c3d4e5f6a7b8`, 403, member);
    await check("DELETE", `${R}/vpce-0a1b2c3d4e5f6a7b8`, 200, orgKey);
    await check("DELETE", `${R}/vpce-0a1b2c3d4e5f6a7b8`, 404, orgKey);
    await check("POST", `${R}/vpce-0a1b2c3d4e5f6a7b8`, 409, { ...personal, body: { label: "back" } });
  });

  it("organization members, invitations and spending limit, and their errors", async () => {
    const O = `/organizations/${DEMO.orgId}`;
    const NO_ORG = "/organizations/org-no-such-org-00000000";
    const page = await check("GET", `${O}/members?limit=1&sort_by=email&sort_order=asc`, 200, orgKey);
    assert.deepEqual(
      page.body.members.map((m: Json) => m.user.email),
      ["casey@example.com"],
    );
    const rest = await check(
      "GET",
      `${O}/members?limit=1&sort_by=email&sort_order=asc&cursor=${page.body.pagination.next}`,
      200,
      member,
    );
    assert.deepEqual(
      [rest.body.members.map((m: Json) => m.user.email), rest.body.pagination.next],
      [["demo@example.com"], undefined],
    );
    await check("GET", `${O}/members?cursor=bm90LWEtbWVtYmVy`, 400, personal);
    await check("GET", `${NO_ORG}/members`, 404, personal);
    const ids = Object.fromEntries(
      page.body.members.concat(rest.body.members).map((m: Json) => [m.user.email, m.member.id]),
    ) as Record<string, string>;
    const casey = `${O}/members/${ids["casey@example.com"]}`;
    const demo = `${O}/members/${ids["demo@example.com"]}`;
    await check("GET", `${O}/members/00000000-0000-4000-8000-000000000000`, 404, member);

    await check("PATCH", demo, 409, { ...personal, body: { role: "member" } });
    await check("DELETE", demo, 409, orgKey);
    await check("PATCH", casey, 400, { ...personal, body: { role: "viewer" } });
    await check("PATCH", casey, 403, { ...member, body: { role: "admin" } });
    await check("PATCH", casey, 403, { ...projectKey, body: { role: "admin" } });
    await check("PATCH", `${O}/members/00000000-0000-4000-8000-000000000000`, 404, {
      ...personal,
      body: { role: "admin" },
    });
    const promoted = await check("PATCH", casey, 200, { ...orgKey, body: { role: "admin" } });
    assert.equal(promoted.body.role, "admin");
    await check("PATCH", demo, 200, { ...member, body: { role: "member" } });
    await check("PATCH", demo, 200, { ...member, body: { role: "admin" } });
    await check("DELETE", casey, 403, projectKey);
    await check("PATCH", casey, 200, { ...personal, body: { role: "member" } });
    await check("DELETE", casey, 403, member);
    await check("DELETE", casey, 200, personal);
    await check("DELETE", casey, 404, personal);

    const invited = await check("POST", `${O}/invitations`, 200, {
      ...personal,
      body: {
        invitations: [
          { email: "casey@example.com", role: "member" },
          { email: "new@example.com", role: "admin" },
        ],
      },
    });
    noUndeclared("Invitation", invited.body.invitations[0]);
    assert.equal(
      (await check("GET", casey, 200, member)).body.role,
      "member",
      "a user with an account joins at once",
    );
    await check("POST", `${O}/invitations`, 409, {
      ...orgKey,
      body: { invitations: [{ email: "CASEY@example.com", role: "admin" }] },
    });
    await check("POST", `${O}/invitations`, 400, {
      ...orgKey,
      body: { invitations: [{ email: "other@example.com", role: "collaborator" }] },
    });
    await check("POST", `${O}/invitations`, 403, {
      ...member,
      body: { invitations: [{ email: "other@example.com", role: "member" }] },
    });
    const invitations = await check("GET", `${O}/invitations`, 200, member);
    assert.deepEqual(
      invitations.body.invitations.map((i: Json) => [i.email, i.role, i.invited_by]),
      [
        ["casey@example.com", "member", DEMO.userId],
        ["new@example.com", "admin", DEMO.userId],
      ],
    );
    await check("GET", `${O}/invitations`, 403, projectKey);

    const none = await check("GET", `${O}/billing/spending_limit`, 200, member);
    assert.equal(none.body.spending_limit_cents, null);
    await check("PUT", `${O}/billing/spending_limit`, 400, {
      ...personal,
      body: { spending_limit_cents: 0 },
    });
    await check("PUT", `${O}/billing/spending_limit`, 403, {
      ...member,
      body: { spending_limit_cents: 500 },
    });
    await check("PUT", `${O}/billing/spending_limit`, 200, {
      ...orgKey,
      body: { spending_limit_cents: 50_000 },
    });
    const set = await check("GET", `${O}/billing/spending_limit`, 200, orgKey);
    assert.equal(set.body.spending_limit_cents, 50_000);
    await check("GET", `${O}/billing/spending_limit`, 403, projectKey);
    await check("DELETE", `${O}/billing/spending_limit`, 403, member);
    await check("DELETE", `${O}/billing/spending_limit`, 200, personal);
    await check("DELETE", `${O}/billing/spending_limit`, 200, personal);
    assert.equal(
      (await check("GET", `${O}/billing/spending_limit`, 200, member)).body.spending_limit_cents,
      null,
    );
  });

  it("consumption history, advisors and preload libraries, and their errors", async () => {
    const range = `org_id=${DEMO.orgId}&from=2026-01-01T00:00:00Z&to=2026-01-01T00:00:00Z&granularity=daily`;
    const projects = await check(
      "GET",
      `/consumption_history/v2/projects?${range}&metrics=compute_unit_seconds,extra_branches_month`,
      200,
      orgKey,
    );
    noUndeclared("ConsumptionHistoryPerPeriodV2", projects.body.projects[0].periods[0]);
    await check("GET", `/consumption_history/v2/projects?${range}&metrics=cpu_seconds`, 400, personal);
    await check(
      "GET",
      `/consumption_history/v2/projects?${range.replace(DEMO.orgId, "org-no-such-org-00000000")}&metrics=compute_unit_seconds`,
      404,
      personal,
    );
    await check(
      "GET",
      `/consumption_history/v2/projects?${range.replace("granularity=daily", "granularity=hourly").replace("from=2026-01-01", "from=2025-12-01")}&metrics=compute_unit_seconds`,
      406,
      personal,
    );
    const B = `/consumption_history/v2/branches?${range}&project_ids=${DEMO.orgProjectId}`;
    const branches = await check("GET", `${B}&metrics=compute_unit_seconds`, 200, member);
    noUndeclared("ConsumptionHistoryPerBranchV2", branches.body.branches[0]);
    await check("GET", `${B}&metrics=snapshot_storage_bytes_month`, 400, member);
    await check(
      "GET",
      `${B.replace(DEMO.orgId, "org-no-such-org-00000000")}&metrics=compute_unit_seconds`,
      404,
      member,
    );
    await check(
      "GET",
      `${B.replace("from=2026-01-01", "from=2023-01-01")}&metrics=compute_unit_seconds`,
      406,
      member,
    );

    const advisors = await check("GET", `${P}/advisors?category=SECURITY&min_severity=WARN`, 200, personal);
    assert.deepEqual(advisors.body, { issues: [] });
    await check("GET", `${P}/advisors?database_name=nope`, 404, personal);
    await check("GET", `${P}/advisors`, 403, member);
    const libraries = await check("GET", `${P}/available_preload_libraries`, 200, personal);
    noUndeclared("AvailablePreloadLibrary", libraries.body.libraries[0]);
    await check("GET", `${P}/available_preload_libraries`, 403, member);
    await check("GET", "/projects/no-such-project-1234/available_preload_libraries", 404, personal);
  });

  it("functions, their deployments and triggers, and their errors", async () => {
    const B = `${P}/branches/${DEMO.branchId}`;
    const multipart = (parts: Record<string, string>) => ({
      ...personal,
      headers: { "content-type": "multipart/form-data; boundary=b0undary" },
      rawBody: `${Object.entries(parts)
        .map(([k, v]) => `--b0undary\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
        .join("")}--b0undary--\r\n`,
    });
    await check(
      "POST",
      `${B}/functions/fn/deployments`,
      201,
      multipart({ zip: "PK\u0003\u0004", runtime: "nodejs24" }),
    );
    await check("POST", `${B}/functions/fn/deployments`, 400, multipart({ runtime: "python3" }));
    await check(
      "POST",
      `${P}/branches/br-no-such-branch/functions/fn/deployments`,
      404,
      multipart({ runtime: "nodejs24" }),
    );
    await check("GET", `${B}/functions?limit=1`, 200, personal);
    await check("GET", `${B}/functions/fn`, 200, personal);
    await check("GET", `${B}/functions/nofn`, 404, personal);
    await check("PATCH", `${B}/functions/fn`, 200, { ...personal, body: { name: "Fn" } });
    await check("PATCH", `${B}/functions/fn`, 400, { ...personal, body: {} });
    const schedule = await check("POST", `${B}/triggers`, 201, {
      ...personal,
      body: { type: "schedule", function_slug: "fn", name: "nightly", schedule: { cron: "0 3 * * *" } },
    });
    await check("POST", `${B}/triggers`, 201, {
      ...personal,
      body: {
        type: "storage_object_created",
        function_slug: "fn",
        name: "up",
        storage_object_created: { bucket_name: "b" },
      },
    });
    await check("POST", `${B}/triggers`, 400, { ...personal, body: { type: "schedule" } });
    await check("POST", `${B}/triggers`, 409, {
      ...personal,
      body: { type: "schedule", function_slug: "fn", name: "nightly", schedule: { cron: "0 3 * * *" } },
    });
    const T = `${B}/triggers/${schedule.body.trigger.trigger_id}`;
    await check("GET", `${B}/triggers`, 200, personal);
    await check("GET", T, 200, personal);
    await check("GET", `${B}/triggers/trg-none`, 404, personal);
    await check("PATCH", T, 200, { ...personal, body: { type: "schedule", enabled: false } });
    await check("PATCH", T, 400, { ...personal, body: { type: "storage_object_created" } });
    await check("DELETE", T, 204, personal);
    await check("DELETE", T, 404, personal);
    await check("DELETE", `${B}/functions/fn`, 204, personal);
    await check("DELETE", `${B}/functions/fn`, 404, personal);
  });

  it("project members and their roles, and their errors", async () => {
    const M = `/projects/${DEMO.orgProjectId}/members`;
    const first = await check("GET", `${M}?limit=1`, 200, orgKey);
    const rest = await check("GET", `${M}?cursor=${first.body.pagination.next}`, 200, member);
    const ids = Object.fromEntries(
      first.body.project_members.concat(rest.body.project_members).map((m: Json) => [m.email, m.member_id]),
    ) as Record<string, string>;
    await check("GET", `${M}?cursor=bm90LWEtbWVtYmVy`, 400, personal);
    await check("GET", `${P}/members`, 404, personal);
    const casey = `${M}/${ids["casey@example.com"]}/role`;
    await check("PUT", casey, 200, { ...personal, body: { role: "admin" } });
    await check("PUT", casey, 400, { ...personal, body: { role: "owner" } });
    await check("PUT", casey, 403, { ...projectKey, body: { role: "viewer" } });
    await check("PUT", `${M}/00000000-0000-4000-8000-000000000000/role`, 404, {
      ...orgKey,
      body: { role: "viewer" },
    });
    await check("PUT", casey, 409, { ...member, body: { role: "viewer" } });
    await check("DELETE", casey, 409, member);
    await check("DELETE", casey, 403, projectKey);
    await check("DELETE", `${casey}?confirm_self_lockout=true`, 200, member);
    await check("DELETE", casey, 403, member);
    await check("DELETE", casey, 200, orgKey);
  });

  it("buckets and their objects, and their errors", async () => {
    const B = `${P}/branches/${DEMO.branchId}/buckets`;
    const made = await check("POST", B, 201, { ...personal, body: { name: "contract" } });
    noUndeclared("Bucket", made.body.bucket);
    await check("POST", B, 400, { ...personal, body: { name: "" } });
    await check("POST", B, 409, { ...personal, body: { name: "contract" } });
    await check("POST", `${P}/branches/br-no-such-branch-1/buckets`, 404, {
      ...personal,
      body: { name: "x" },
    });
    await check("GET", B, 200, personal);
    await check("GET", B, 403, member);
    await check("GET", `${P}/branches/br-no-such-branch-1/buckets`, 404, personal);
    const key = encodeURIComponent("folder/file.txt");
    const put = await check("POST", `${B}/contract/objects/${key}/presign`, 200, {
      ...personal,
      body: { operation: "upload" },
    });
    noUndeclared("PresignResponse", put.body);
    assert.equal((await fetch(put.body.url, { method: "PUT", body: "bytes" })).status, 200);
    await check("POST", `${B}/contract/objects/${key}/presign`, 400, {
      ...personal,
      body: { operation: "upload", expires_in_seconds: 604801 },
    });
    await check("POST", `${B}/nope/objects/${key}/presign`, 404, {
      ...personal,
      body: { operation: "download" },
    });
    const listed = await check("GET", `${B}/contract/objects?delimiter=/`, 200, personal);
    noUndeclared("BucketObjectsListResponse", listed.body);
    const flat = await check("GET", `${B}/contract/objects`, 200, personal);
    noUndeclared("BucketObject", flat.body.objects[0]);
    await check("GET", `${B}/contract/objects?limit=1001`, 400, personal);
    await check("GET", `${B}/nope/objects`, 404, personal);
    const bytes = await check("GET", `${B}/contract/objects/${key}/download`, 200, personal);
    assert.equal(bytes.text, "bytes");
    await check("GET", `${B}/contract/objects/nope/download`, 404, personal);
    await check("DELETE", `${B}/contract`, 409, personal);
    await check("DELETE", `${B}/contract/objects-by-prefix?prefix=folder`, 400, personal);
    await check("DELETE", `${B}/nope/objects-by-prefix?prefix=folder/`, 404, personal);
    await check("DELETE", `${B}/contract/objects-by-prefix?prefix=folder/`, 200, personal);
    await check("DELETE", `${B}/contract/objects/${key}`, 404, personal);
    await fetch(put.body.url, { method: "PUT", body: "again" });
    await check("DELETE", `${B}/contract/objects/${key}`, 204, personal);
    await check("DELETE", `${B}/contract`, 204, personal);
    await check("DELETE", `${B}/contract`, 404, personal);
  });

  it("project transfers: a request and its acceptance, the move between organizations, and their errors", async () => {
    const T = `/projects/${DEMO.projectId}/transfer_requests`;
    const made = await check("POST", T, 201, { ...personal, body: { ttl_seconds: 60 } });
    noUndeclared("ProjectTransferRequestResponse", made.body);
    await check("POST", T, 400, { ...personal, body: { ttl_seconds: -1 } });
    await check("POST", `/projects/${DEMO.orgProjectId}/transfer_requests`, 403, projectKey);
    await check("POST", "/projects/no-such-project-1234/transfer_requests", 404, { ...personal, body: {} });
    const expiring = await check("POST", T, 201, { ...personal, body: { ttl_seconds: 1 } });
    emu.control.advance(1000);
    await check("PUT", `${T}/${expiring.body.id}`, 410, { ...personal, body: { org_id: DEMO.orgId } });
    await check("PUT", `${T}/${made.body.id}`, 403, { ...projectKey, body: { org_id: DEMO.orgId } });
    await check("PUT", `${T}/00000000-0000-4000-8000-000000000000`, 404, { ...personal, body: {} });
    await check("PUT", `${T}/${made.body.id}`, 400, { ...personal, body: {} });
    await check("PUT", `${T}/${made.body.id}`, 204, { ...personal, body: { org_id: DEMO.orgId } });
    await check("PUT", `${T}/${made.body.id}`, 409, { ...personal, body: { org_id: DEMO.orgId } });
    // The move between organizations needs a second one: an emulator of its own, with the demo user in both.
    const main = emu;
    emu = await start({ seed: withSecondOrg(demoSeed(), { [DEMO.userId]: "member" }), opDurationMs: 100 });
    try {
      const O = `/organizations/${DEMO.orgId}/projects/transfer`;
      const body = { destination_org_id: SECOND_ORG_ID, project_ids: [DEMO.orgProjectId] };
      await check("POST", O, 403, { ...orgKey, body });
      await check("POST", O, 404, { ...personal, body: { ...body, project_ids: [DEMO.projectId] } });
      await check("POST", O, 400, { ...personal, body: { ...body, destination_org_id: DEMO.orgId } });
      await check("POST", O, 400, { ...personal, body: { ...body, project_ids: [] } });
      const moved = await check("POST", O, 200, { ...personal, body });
      assert.deepEqual(moved.body, {});
    } finally {
      await emu.stop();
      emu = main;
    }
  });

  it("the Data API on a database and the project's JWKS URLs, and their errors", async () => {
    const made = await call(emu.url, "POST", `${P}/branches`, {
      ...personal,
      body: { branch: { name: "data-api" }, endpoints: [{ type: "read_write" }] },
    });
    emu.control.advance(60_000);
    const bare = await call(emu.url, "POST", `${P}/branches`, {
      ...personal,
      body: { branch: { name: "bare" } },
    });
    const B = `${P}/branches/${made.body.branch.id}`;
    const D = `${B}/data-api/neondb`;
    await check("POST", `${P}/branches/${bare.body.branch.id}/data-api/neondb`, 409, {
      ...personal,
      body: {},
    });
    await check("GET", D, 404, personal);
    await check("POST", D, 400, { ...personal, body: { auth_provider: "external" } });
    await check("POST", `${B}/data-api/nodb`, 404, { ...personal, body: {} });
    await check("POST", `${P}/branches/br-no-such-branch-00000000/data-api/neondb`, 404, {
      ...personal,
      body: {},
    });
    const created = await check("POST", D, 201, { ...personal, body: { settings: { db_max_rows: 100 } } });
    noUndeclared("DataAPICreateResponse", created.body);
    await check("POST", D, 409, { ...personal, body: {} });
    const got = await check("GET", D, 200, personal);
    noUndeclared("DataAPIReponse", got.body);
    await check("PATCH", D, 201, { ...personal, body: { settings: { db_schemas: ["public", "api"] } } });
    await check("PATCH", D, 400, { ...personal, body: { settings: { db_schemas: [] } } });
    await check("DELETE", D, 200, personal);
    await check("PATCH", D, 404, { ...personal, body: {} });
    await check("DELETE", D, 404, personal);
    const J = `${P}/jwks`;
    const added = await check("POST", J, 201, {
      ...personal,
      body: { jwks_url: "https://auth.example.com/.well-known/jwks.json", provider_name: "Clerk" },
    });
    noUndeclared("JWKS", added.body.jwks);
    await check("POST", J, 400, {
      ...personal,
      body: { jwks_url: "http://insecure.example.com/jwks", provider_name: "x" },
    });
    await check("POST", J, 404, {
      ...personal,
      body: {
        jwks_url: "https://a.example.com/jwks",
        provider_name: "x",
        branch_id: "br-no-such-branch-00000000",
      },
    });
    await check("POST", J, 409, {
      ...personal,
      body: { jwks_url: "https://auth.example.com/.well-known/jwks.json", provider_name: "Clerk" },
    });
    await check("GET", J, 200, personal);
    await check("GET", "/projects/no-such-project-00000000/jwks", 404, personal);
    await check("DELETE", `${J}/${added.body.jwks.id}`, 200, personal);
    await check("DELETE", `${J}/${added.body.jwks.id}`, 404, personal);
  });

  it("Auth on a branch: enable, settings, users, the project-level routes, and their errors", async () => {
    // Earlier tests may have made another branch the default; the project-level routes act on it.
    const branches = (await call(emu.url, "GET", `${P}/branches`, personal)).body.branches as Json[];
    const branchId = branches.find((b) => b.default).id as string;
    const B = `${P}/branches/${branchId}`;
    const provider = { auth_provider: "better_auth" };
    await check("GET", `${B}/auth`, 404, personal);
    await check("POST", `${B}/auth`, 404, { ...personal, body: { ...provider, database_name: "missing" } });
    await check("POST", `${B}/auth`, 201, { ...personal, body: provider });
    await check("POST", `${B}/auth`, 409, { ...personal, body: provider });
    await check("POST", `${B}/auth`, 400, { ...personal, body: { auth_provider: "nope" } });
    await check("GET", `${B}/auth`, 200, personal);
    await check("GET", `${B}/auth`, 403, projectKey);
    await check("PATCH", `${B}/auth/config`, 200, { ...personal, body: { name: "Shop" } });
    await check("PATCH", `${B}/auth/config`, 400, { ...personal, body: { name: "" } });
    await check("GET", `${B}/auth/allow_localhost`, 200, personal);
    await check("PATCH", `${B}/auth/allow_localhost`, 200, { ...personal, body: { allow_localhost: false } });
    await check("PATCH", `${B}/auth/allow_localhost`, 400, { ...personal, body: {} });
    const domain = { domain: "https://app.example.com", auth_provider: "better_auth" };
    await check("POST", `${B}/auth/domains`, 201, { ...personal, body: domain });
    await check("POST", `${B}/auth/domains`, 400, { ...personal, body: { ...domain, domain: "not a url" } });
    await check("GET", `${B}/auth/domains`, 200, personal);
    await check("DELETE", `${B}/auth/domains`, 200, {
      ...personal,
      body: { auth_provider: "better_auth", domains: [{ domain: domain.domain }] },
    });
    await check("DELETE", `${B}/auth/domains`, 400, { ...personal, body: { auth_provider: "better_auth" } });
    await check("GET", `${B}/auth/email_and_password`, 200, personal);
    await check("PATCH", `${B}/auth/email_and_password`, 200, {
      ...personal,
      body: { disable_sign_up: true },
    });
    await check("PATCH", `${B}/auth/email_and_password`, 400, {
      ...personal,
      body: { email_verification_method: "sms" },
    });
    const { type: _type, ...smtp } = SMTP_SERVER;
    await check("GET", `${B}/auth/email_provider`, 200, personal);
    await check("PATCH", `${B}/auth/email_provider`, 200, {
      ...personal,
      body: { type: "standard", ...smtp },
    });
    await check("PATCH", `${B}/auth/email_provider`, 400, {
      ...personal,
      body: { type: "standard", host: "h" },
    });
    await check("POST", `${B}/auth/email_provider/test`, 200, {
      ...personal,
      body: { recipient_email: "t@example.com" },
    });
    await check("POST", `${B}/auth/email_provider/test`, 400, { ...personal, body: {} });
    await check("POST", `${B}/auth/send_test_email`, 200, {
      ...personal,
      body: { ...smtp, recipient_email: "t@example.com" },
    });
    await check("POST", `${B}/auth/send_test_email`, 400, { ...personal, body: smtp });
    await check("GET", `${B}/auth/oauth_providers`, 200, personal);
    await check("POST", `${B}/auth/oauth_providers`, 200, {
      ...personal,
      body: { id: "vercel", client_id: "v", client_secret: "s" },
    });
    await check("POST", `${B}/auth/oauth_providers`, 409, { ...personal, body: { id: "vercel" } });
    await check("POST", `${B}/auth/oauth_providers`, 400, { ...personal, body: { id: "myspace" } });
    await check("PATCH", `${B}/auth/oauth_providers/vercel`, 200, { ...personal, body: { client_id: "v2" } });
    await check("PATCH", `${B}/auth/oauth_providers/microsoft`, 404, {
      ...personal,
      body: { client_id: "m" },
    });
    await check("PATCH", `${B}/auth/oauth_providers/myspace`, 400, { ...personal, body: {} });
    await check("DELETE", `${B}/auth/oauth_providers/vercel`, 200, personal);
    await check("DELETE", `${B}/auth/oauth_providers/vercel`, 404, personal);
    await check("GET", `${B}/auth/plugins`, 200, personal);
    await check("PATCH", `${B}/auth/plugins/magic-link`, 200, { ...personal, body: { enabled: true } });
    await check("PATCH", `${B}/auth/plugins/magic-link`, 400, { ...personal, body: { expires_in: 1 } });
    await check("PATCH", `${B}/auth/plugins/organization`, 200, { ...personal, body: { enabled: true } });
    await check("PATCH", `${B}/auth/plugins/organization`, 400, { ...personal, body: { creator_role: "x" } });
    await check("GET", `${B}/auth/plugins/phone-number`, 200, personal);
    await check("PATCH", `${B}/auth/plugins/phone-number`, 200, { ...personal, body: { enabled: true } });
    await check("PATCH", `${B}/auth/plugins/phone-number`, 400, { ...personal, body: { otp_expires_in: 1 } });
    await check("GET", `${B}/auth/webhooks`, 200, personal);
    await check("PUT", `${B}/auth/webhooks`, 200, {
      ...personal,
      body: { enabled: true, webhook_url: "https://hooks.example.com", enabled_events: ["user.created"] },
    });
    await check("PUT", `${B}/auth/webhooks`, 400, { ...personal, body: { enabled: true } });
    const user = await check("POST", `${B}/auth/users`, 201, {
      ...personal,
      body: { email: "u@example.com" },
    });
    await check("POST", `${B}/auth/users`, 409, { ...personal, body: { email: "u@example.com" } });
    await check("POST", `${B}/auth/users`, 400, { ...personal, body: { email: "not-an-email" } });
    const U = `${B}/auth/users/${user.body.id}`;
    await check("PUT", `${U}/role`, 200, { ...personal, body: { roles: ["admin"] } });
    await check("PUT", `${U}/role`, 400, { ...personal, body: { roles: [] } });
    await check("PUT", `${B}/auth/users/nobody/role`, 404, { ...personal, body: { roles: ["admin"] } });
    await check("DELETE", U, 204, personal);
    await check("DELETE", U, 404, personal);

    // The project-level routes, on the default branch.
    const project = { project_id: DEMO.projectId, auth_provider: "better_auth" };
    await check("GET", `${P}/auth/integrations`, 200, personal);
    await check("POST", "/projects/auth/keys", 201, { ...personal, body: project });
    await check("POST", "/projects/auth/keys", 400, { ...personal, body: { project_id: DEMO.projectId } });
    const old = await check("POST", "/projects/auth/user", 201, {
      ...personal,
      body: { ...project, email: "o@example.com" },
    });
    await check("POST", "/projects/auth/user", 400, { ...personal, body: project });
    await check("DELETE", `${P}/auth/users/${old.body.id}`, 204, personal);
    await check("DELETE", `${P}/auth/users/${old.body.id}`, 404, personal);
    await check("POST", "/projects/auth/transfer_ownership", 200, { ...personal, body: project });
    await check("POST", "/projects/auth/transfer_ownership", 400, { ...personal, body: {} });
    await check("GET", `${P}/auth/domains`, 200, personal);
    await check("POST", `${P}/auth/domains`, 201, { ...personal, body: domain });
    await check("POST", `${P}/auth/domains`, 400, { ...personal, body: {} });
    await check("DELETE", `${P}/auth/domains`, 200, {
      ...personal,
      body: { auth_provider: "better_auth", domains: [{ domain: domain.domain }] },
    });
    await check("DELETE", `${P}/auth/domains`, 400, { ...personal, body: {} });
    await check("GET", `${P}/auth/email_server`, 200, personal);
    await check("PATCH", `${P}/auth/email_server`, 200, { ...personal, body: { type: "shared" } });
    await check("PATCH", `${P}/auth/email_server`, 400, { ...personal, body: { type: "other" } });
    await check("GET", `${P}/auth/oauth_providers`, 200, personal);
    await check("POST", `${P}/auth/oauth_providers`, 200, { ...personal, body: { id: "microsoft" } });
    await check("POST", `${P}/auth/oauth_providers`, 409, { ...personal, body: { id: "microsoft" } });
    await check("PATCH", `${P}/auth/oauth_providers/microsoft`, 200, {
      ...personal,
      body: { client_id: "m" },
    });
    await check("PATCH", `${P}/auth/oauth_providers/vercel`, 404, { ...personal, body: {} });
    await check("DELETE", `${P}/auth/oauth_providers/microsoft`, 200, personal);
    await check("DELETE", `${P}/auth/oauth_providers/microsoft`, 404, personal);
    await check("DELETE", `${P}/auth/integration/stack`, 404, personal);
    await check("DELETE", `${P}/auth/integration/better_auth`, 200, personal);
    await check("DELETE", `${B}/auth`, 404, personal);
    await check("POST", "/projects/auth/create", 201, {
      ...personal,
      body: { ...project, branch_id: branchId },
    });
    await check("POST", "/projects/auth/create", 400, { ...personal, body: project });
    await check("DELETE", `${B}/auth`, 200, { ...personal, body: { delete_data: true } });
    await check("GET", "/auth", 200, personal);
    await check("GET", "/auth", 401, {});
  });

  it("faults and unknown routes answer with the error shape too", async () => {
    emu.control.failNext("GET /projects", { status: 503 });
    await check("GET", "/projects", 503, personal);
    emu.control.failNext("GET /projects/{project_id}", { status: 500 });
    await check("GET", P, 500, personal);
    await check("GET", "/no/such/route", 404, personal);
  });

  it("rejects a body that breaks the document (the validator can fail)", () => {
    const broken = { operation: { id: "not-a-uuid", project_id: DEMO.projectId, action: "create_branch" } };
    const problems = validator.validate(
      "/projects/{project_id}/operations/{operation_id}",
      "GET",
      200,
      broken,
      "{}",
    );
    assert.ok(
      problems.some((p) => p.includes("status")),
      problems.join("; "),
    );
    assert.ok(
      problems.some((p) => p.includes("uuid")),
      problems.join("; "),
    );
    assert.deepEqual(validator.undeclared("Operation", { ...broken.operation, statsu: "finished" }), [
      "statsu",
    ]);
  });

  it("a branch's credentials, custom domains and AI gateway, and their errors", async () => {
    const B = `/projects/${DEMO.projectId}/branches/${DEMO.branchId}`;
    const NO_BRANCH = `/projects/${DEMO.projectId}/branches/br-no-such-branch-00000000`;
    const issued = await check("POST", `${B}/credentials`, 201, {
      ...personal,
      body: { name: "uploads", scopes: ["storage:read", "storage:write"], principal_type: "user" },
    });
    noUndeclared("CreateCredentialResponse", issued.body, ["principal_type"]);
    await check("POST", `${B}/credentials`, 400, {
      ...personal,
      body: { scopes: [], principal_type: "user" },
    });
    await check("POST", `${NO_BRANCH}/credentials`, 404, {
      ...personal,
      body: { scopes: ["functions:invoke"], principal_type: "user" },
    });
    const listed = await check("GET", `${B}/credentials`, 200, personal);
    assert.equal(listed.body.credentials[0].api_token, undefined, "a listing carries no secret");
    await check("GET", `${NO_BRANCH}/credentials`, 404, personal);
    const C = `${B}/credentials/${issued.body.token_id}`;
    await check("POST", `${C}/reveal`, 200, personal);
    await check("POST", `${C}/rotate`, 200, personal);
    await check("DELETE", C, 204, personal);
    await check("POST", `${C}/reveal`, 404, personal);
    await check("POST", `${C}/rotate`, 404, personal);
    await check("DELETE", `${B}/credentials/nak_live_00000000000000000000000000000000`, 404, personal);

    const D = `${B}/custom-domains`;
    const domain = { domain: "App.Example.com", entity_type: "function", entity_id: "hello" };
    const registered = await check("POST", D, 201, { ...personal, body: domain });
    assert.equal(registered.body.domain, "app.example.com");
    await check("POST", D, 400, { ...personal, body: { ...domain, entity_type: "bucket" } });
    await check("POST", D, 409, { ...personal, body: { ...domain, entity_id: "other" } });
    await check("POST", `${NO_BRANCH}/custom-domains`, 404, { ...personal, body: domain });
    await check("GET", `${D}?limit=1`, 200, personal);
    await check("GET", `${D}?limit=0`, 400, personal);
    await check("GET", `${NO_BRANCH}/custom-domains`, 404, personal);
    await check("DELETE", `${D}/app.example.com`, 204, personal);
    await check("DELETE", `${D}/app.example.com`, 404, personal);

    const gateway = await check("GET", `${B}/ai_gateway`, 200, personal);
    assert.equal(gateway.body.enabled, true);
    const none = await check("GET", `${NO_BRANCH}/ai_gateway`, 404, personal);
    assert.equal(none.body.reason, "branch_not_found");
  });

  it("covered the success status of every served route", async () => {
    const served = await servedRoutes();
    const succeeded = new Set(
      [...covered].filter((c) => /\s2\d\d$/.test(c)).map((c) => c.replace(/\s\d+$/, "")),
    );
    assert.deepEqual(
      served.filter((r) => !succeeded.has(r)),
      [],
    );
  });

  it("covered every route with its success status and its error paths", () => {
    const expected = [
      "POST /api_keys 200",
      "POST /api_keys 400",
      "POST /api_keys 401",
      "POST /api_keys 403",
      "GET /api_keys 200",
      "GET /api_keys 401",
      "GET /api_keys 403",
      "DELETE /api_keys/{key_id} 200",
      "DELETE /api_keys/{key_id} 400",
      "DELETE /api_keys/{key_id} 403",
      "DELETE /api_keys/{key_id} 404",
      "POST /organizations/{org_id}/api_keys 200",
      "POST /organizations/{org_id}/api_keys 400",
      "POST /organizations/{org_id}/api_keys 403",
      "POST /organizations/{org_id}/api_keys 404",
      "POST /organizations/{org_id}/api_keys 429",
      "GET /organizations/{org_id}/api_keys 200",
      "GET /organizations/{org_id}/api_keys 403",
      "GET /organizations/{org_id}/api_keys 404",
      "DELETE /organizations/{org_id}/api_keys/{key_id} 200",
      "DELETE /organizations/{org_id}/api_keys/{key_id} 403",
      "DELETE /organizations/{org_id}/api_keys/{key_id} 404",
      "GET /projects 200",
      "GET /projects 400",
      "GET /projects 401",
      "GET /projects 404",
      "GET /projects 503",
      "GET /regions 200",
      "GET /regions 403",
      "GET /projects/{project_id} 200",
      "GET /projects/{project_id} 400",
      "GET /projects/{project_id} 403",
      "GET /projects/{project_id} 404",
      "GET /projects/{project_id} 500",
      "POST /projects 201",
      "POST /projects 400",
      "POST /projects 403",
      "POST /projects/{project_id}/branches 201",
      "POST /projects/{project_id}/branches 400",
      "POST /projects/{project_id}/branches 403",
      "POST /projects/{project_id}/branches 404",
      "POST /projects/{project_id}/branches 409",
      "POST /projects/{project_id}/branches 422",
      "POST /projects/{project_id}/branches 423",
      "GET /projects/{project_id}/branches 200",
      "GET /projects/{project_id}/branches/{branch_id} 200",
      "GET /projects/{project_id}/branches/{branch_id} 404",
      "GET /projects/{project_id}/branches/{branch_id}/endpoints 200",
      "GET /projects/{project_id}/branches/{branch_id}/endpoints 403",
      "GET /projects/{project_id}/branches/{branch_id}/endpoints 404",
      "GET /projects/{project_id}/branches/{branch_id}/schema 200",
      "GET /projects/{project_id}/branches/{branch_id}/schema 400",
      "GET /projects/{project_id}/branches/{branch_id}/schema 403",
      "GET /projects/{project_id}/branches/{branch_id}/schema 404",
      "GET /projects/{project_id}/branches/{branch_id}/compare_schema 200",
      "GET /projects/{project_id}/branches/{branch_id}/compare_schema 400",
      "GET /projects/{project_id}/branches/{branch_id}/compare_schema 404",
      "PATCH /projects/{project_id}/branches/{branch_id} 200",
      "PATCH /projects/{project_id}/branches/{branch_id} 400",
      "PATCH /projects/{project_id}/branches/{branch_id} 409",
      "DELETE /projects/{project_id}/branches/{branch_id} 200",
      "DELETE /projects/{project_id}/branches/{branch_id} 204",
      "DELETE /projects/{project_id}/branches/{branch_id} 422",
      "DELETE /projects/{project_id}/branches/{branch_id} 423",
      "GET /projects/{project_id}/operations 200",
      "GET /projects/{project_id}/operations 400",
      "GET /projects/{project_id}/operations 403",
      "GET /projects/{project_id}/operations/{operation_id} 200",
      "GET /projects/{project_id}/operations/{operation_id} 400",
      "GET /projects/{project_id}/operations/{operation_id} 404",
      "GET /projects/{project_id}/permissions 200",
      "GET /projects/{project_id}/permissions 403",
      "GET /projects/{project_id}/permissions 404",
      "POST /projects/{project_id}/permissions 200",
      "POST /projects/{project_id}/permissions 400",
      "POST /projects/{project_id}/permissions 403",
      "POST /projects/{project_id}/permissions 409",
      "DELETE /projects/{project_id}/permissions/{permission_id} 200",
      "DELETE /projects/{project_id}/permissions/{permission_id} 403",
      "DELETE /projects/{project_id}/permissions/{permission_id} 404",
      "DELETE /projects/{project_id} 403",
      "POST /projects/{project_id}/branches/{branch_id}/snapshot 200",
      "POST /projects/{project_id}/branches/{branch_id}/snapshot 400",
      "POST /projects/{project_id}/branches/{branch_id}/snapshot 404",
      "POST /projects/{project_id}/branches/{branch_id}/snapshot 423",
      "GET /projects/{project_id}/snapshots 200",
      "PATCH /projects/{project_id}/snapshots/{snapshot_id} 200",
      "PATCH /projects/{project_id}/snapshots/{snapshot_id} 400",
      "PATCH /projects/{project_id}/snapshots/{snapshot_id} 404",
      "POST /projects/{project_id}/snapshots/{snapshot_id}/restore 200",
      "POST /projects/{project_id}/snapshots/{snapshot_id}/restore 404",
      "POST /projects/{project_id}/snapshots/{snapshot_id}/restore 409",
      "POST /projects/{project_id}/branches/{branch_id}/finalize_restore 200",
      "POST /projects/{project_id}/branches/{branch_id}/finalize_restore 400",
      "GET /projects/{project_id}/branches/{branch_id}/backup_schedule 200",
      "GET /projects/{project_id}/branches/{branch_id}/backup_schedule 404",
      "PUT /projects/{project_id}/branches/{branch_id}/backup_schedule 200",
      "PUT /projects/{project_id}/branches/{branch_id}/backup_schedule 400",
      "DELETE /projects/{project_id}/snapshots/{snapshot_id} 202",
      "DELETE /projects/{project_id}/snapshots/{snapshot_id} 404",
      "POST /projects/{project_id}/branch_anonymized 201",
      "POST /projects/{project_id}/branch_anonymized 400",
      "POST /projects/{project_id}/branch_anonymized 409",
      "GET /projects/{project_id}/branches/{branch_id}/masking_rules 200",
      "GET /projects/{project_id}/branches/{branch_id}/masking_rules 404",
      "PATCH /projects/{project_id}/branches/{branch_id}/masking_rules 200",
      "PATCH /projects/{project_id}/branches/{branch_id}/masking_rules 400",
      "GET /projects/{project_id}/branches/{branch_id}/anonymized_status 200",
      "GET /projects/{project_id}/branches/{branch_id}/anonymized_status 404",
      "POST /projects/{project_id}/branches/{branch_id}/anonymize 200",
      "POST /projects/{project_id}/branches/{branch_id}/anonymize 400",
      "POST /projects/{project_id}/branches/{branch_id}/anonymize 409",
      "GET /organizations/{org_id}/vpc/vpc_endpoints 200",
      "GET /organizations/{org_id}/vpc/vpc_endpoints 403",
      "GET /organizations/{org_id}/vpc/vpc_endpoints 404",
      "GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints 200",
      "GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints 400",
      "GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints 403",
      "GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id} 200",
      "GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id} 404",
      "POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id} 200",
      "POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id} 400",
      "POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id} 403",
      "POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id} 404",
      "POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id} 409",
      "DELETE /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id} 200",
      "DELETE /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id} 403",
      "DELETE /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id} 404",
      "GET /projects/{project_id}/vpc_endpoints 200",
      "GET /projects/{project_id}/vpc_endpoints 403",
      "GET /projects/{project_id}/vpc_endpoints 404",
      "POST /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id} 200",
      "POST /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id} 400",
      "POST /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id} 403",
      "POST /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id} 404",
      "DELETE /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id} 200",
      "DELETE /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id} 403",
      "DELETE /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id} 404",
      "GET /organizations/{org_id}/members 200",
      "GET /organizations/{org_id}/members 400",
      "GET /organizations/{org_id}/members 403",
      "GET /organizations/{org_id}/members 404",
      "GET /organizations/{org_id}/members/{member_id} 200",
      "GET /organizations/{org_id}/members/{member_id} 404",
      "PATCH /organizations/{org_id}/members/{member_id} 200",
      "PATCH /organizations/{org_id}/members/{member_id} 400",
      "PATCH /organizations/{org_id}/members/{member_id} 403",
      "PATCH /organizations/{org_id}/members/{member_id} 404",
      "PATCH /organizations/{org_id}/members/{member_id} 409",
      "DELETE /organizations/{org_id}/members/{member_id} 200",
      "DELETE /organizations/{org_id}/members/{member_id} 403",
      "DELETE /organizations/{org_id}/members/{member_id} 404",
      "DELETE /organizations/{org_id}/members/{member_id} 409",
      "GET /organizations/{org_id}/invitations 200",
      "GET /organizations/{org_id}/invitations 403",
      "POST /organizations/{org_id}/invitations 200",
      "POST /organizations/{org_id}/invitations 400",
      "POST /organizations/{org_id}/invitations 403",
      "POST /organizations/{org_id}/invitations 409",
      "GET /organizations/{org_id}/billing/spending_limit 200",
      "GET /organizations/{org_id}/billing/spending_limit 403",
      "PUT /organizations/{org_id}/billing/spending_limit 200",
      "PUT /organizations/{org_id}/billing/spending_limit 400",
      "PUT /organizations/{org_id}/billing/spending_limit 403",
      "DELETE /organizations/{org_id}/billing/spending_limit 200",
      "DELETE /organizations/{org_id}/billing/spending_limit 403",
      "GET /consumption_history/v2/projects 200",
      "GET /consumption_history/v2/projects 400",
      "GET /consumption_history/v2/projects 404",
      "GET /consumption_history/v2/projects 406",
      "GET /consumption_history/v2/branches 200",
      "GET /consumption_history/v2/branches 400",
      "GET /consumption_history/v2/branches 404",
      "GET /consumption_history/v2/branches 406",
      "GET /projects/{project_id}/advisors 200",
      "GET /projects/{project_id}/advisors 403",
      "GET /projects/{project_id}/advisors 404",
      "GET /projects/{project_id}/available_preload_libraries 200",
      "GET /projects/{project_id}/available_preload_libraries 403",
      "GET /projects/{project_id}/available_preload_libraries 404",
      "GET /projects/{project_id}/members 200",
      "GET /projects/{project_id}/members 400",
      "GET /projects/{project_id}/members 404",
      "PUT /projects/{project_id}/members/{member_id}/role 200",
      "PUT /projects/{project_id}/members/{member_id}/role 400",
      "PUT /projects/{project_id}/members/{member_id}/role 403",
      "PUT /projects/{project_id}/members/{member_id}/role 404",
      "PUT /projects/{project_id}/members/{member_id}/role 409",
      "DELETE /projects/{project_id}/members/{member_id}/role 200",
      "DELETE /projects/{project_id}/members/{member_id}/role 403",
      "DELETE /projects/{project_id}/members/{member_id}/role 409",
      "POST /projects/{project_id}/transfer_requests 201",
      "POST /projects/{project_id}/transfer_requests 400",
      "POST /projects/{project_id}/transfer_requests 403",
      "POST /projects/{project_id}/transfer_requests 404",
      "PUT /projects/{project_id}/transfer_requests/{request_id} 204",
      "PUT /projects/{project_id}/transfer_requests/{request_id} 400",
      "PUT /projects/{project_id}/transfer_requests/{request_id} 403",
      "PUT /projects/{project_id}/transfer_requests/{request_id} 404",
      "PUT /projects/{project_id}/transfer_requests/{request_id} 409",
      "PUT /projects/{project_id}/transfer_requests/{request_id} 410",
      "POST /organizations/{source_org_id}/projects/transfer 200",
      "POST /organizations/{source_org_id}/projects/transfer 400",
      "POST /organizations/{source_org_id}/projects/transfer 403",
      "POST /organizations/{source_org_id}/projects/transfer 404",
      "GET /projects/{project_id}/branches/{branch_id}/buckets 200",
      "GET /projects/{project_id}/branches/{branch_id}/buckets 403",
      "GET /projects/{project_id}/branches/{branch_id}/buckets 404",
      "POST /projects/{project_id}/branches/{branch_id}/buckets 201",
      "POST /projects/{project_id}/branches/{branch_id}/buckets 400",
      "POST /projects/{project_id}/branches/{branch_id}/buckets 404",
      "POST /projects/{project_id}/branches/{branch_id}/buckets 409",
      "DELETE /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name} 204",
      "DELETE /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name} 404",
      "DELETE /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name} 409",
      "GET /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects 200",
      "GET /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects 400",
      "GET /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects 404",
      "DELETE /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects-by-prefix 200",
      "DELETE /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects-by-prefix 400",
      "DELETE /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects-by-prefix 404",
      "DELETE /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key} 204",
      "DELETE /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key} 404",
      "GET /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}/download 200",
      "GET /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}/download 404",
      "POST /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}/presign 200",
      "POST /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}/presign 400",
      "POST /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}/presign 404",
      "POST /projects/{project_id}/branches/{branch_id}/credentials 201",
      "POST /projects/{project_id}/branches/{branch_id}/credentials 400",
      "POST /projects/{project_id}/branches/{branch_id}/credentials 404",
      "GET /projects/{project_id}/branches/{branch_id}/credentials 200",
      "GET /projects/{project_id}/branches/{branch_id}/credentials 404",
      "DELETE /projects/{project_id}/branches/{branch_id}/credentials/{token_id} 204",
      "DELETE /projects/{project_id}/branches/{branch_id}/credentials/{token_id} 404",
      "POST /projects/{project_id}/branches/{branch_id}/credentials/{token_id}/reveal 200",
      "POST /projects/{project_id}/branches/{branch_id}/credentials/{token_id}/reveal 404",
      "POST /projects/{project_id}/branches/{branch_id}/credentials/{token_id}/rotate 200",
      "POST /projects/{project_id}/branches/{branch_id}/credentials/{token_id}/rotate 404",
      "GET /projects/{project_id}/branches/{branch_id}/custom-domains 200",
      "GET /projects/{project_id}/branches/{branch_id}/custom-domains 400",
      "GET /projects/{project_id}/branches/{branch_id}/custom-domains 404",
      "POST /projects/{project_id}/branches/{branch_id}/custom-domains 201",
      "POST /projects/{project_id}/branches/{branch_id}/custom-domains 400",
      "POST /projects/{project_id}/branches/{branch_id}/custom-domains 404",
      "POST /projects/{project_id}/branches/{branch_id}/custom-domains 409",
      "DELETE /projects/{project_id}/branches/{branch_id}/custom-domains/{domain} 204",
      "DELETE /projects/{project_id}/branches/{branch_id}/custom-domains/{domain} 404",
      "GET /projects/{project_id}/branches/{branch_id}/ai_gateway 200",
      "GET /projects/{project_id}/branches/{branch_id}/ai_gateway 404",
      "POST /projects/{project_id}/branches/{branch_id}/data-api/{database_name} 201",
      "POST /projects/{project_id}/branches/{branch_id}/data-api/{database_name} 400",
      "POST /projects/{project_id}/branches/{branch_id}/data-api/{database_name} 404",
      "POST /projects/{project_id}/branches/{branch_id}/data-api/{database_name} 409",
      "GET /projects/{project_id}/branches/{branch_id}/data-api/{database_name} 200",
      "GET /projects/{project_id}/branches/{branch_id}/data-api/{database_name} 404",
      "PATCH /projects/{project_id}/branches/{branch_id}/data-api/{database_name} 201",
      "PATCH /projects/{project_id}/branches/{branch_id}/data-api/{database_name} 400",
      "PATCH /projects/{project_id}/branches/{branch_id}/data-api/{database_name} 404",
      "DELETE /projects/{project_id}/branches/{branch_id}/data-api/{database_name} 200",
      "DELETE /projects/{project_id}/branches/{branch_id}/data-api/{database_name} 404",
      "GET /projects/{project_id}/jwks 200",
      "GET /projects/{project_id}/jwks 404",
      "POST /projects/{project_id}/jwks 201",
      "POST /projects/{project_id}/jwks 400",
      "POST /projects/{project_id}/jwks 404",
      "POST /projects/{project_id}/jwks 409",
      "DELETE /projects/{project_id}/jwks/{jwks_id} 200",
      "DELETE /projects/{project_id}/jwks/{jwks_id} 404",
      "GET /projects/{project_id}/branches/{branch_id}/functions 200",
      "GET /projects/{project_id}/branches/{branch_id}/functions/{slug} 200",
      "GET /projects/{project_id}/branches/{branch_id}/functions/{slug} 404",
      "PATCH /projects/{project_id}/branches/{branch_id}/functions/{slug} 200",
      "PATCH /projects/{project_id}/branches/{branch_id}/functions/{slug} 400",
      "DELETE /projects/{project_id}/branches/{branch_id}/functions/{slug} 204",
      "DELETE /projects/{project_id}/branches/{branch_id}/functions/{slug} 404",
      "POST /projects/{project_id}/branches/{branch_id}/functions/{slug}/deployments 201",
      "POST /projects/{project_id}/branches/{branch_id}/functions/{slug}/deployments 400",
      "POST /projects/{project_id}/branches/{branch_id}/functions/{slug}/deployments 404",
      "GET /projects/{project_id}/branches/{branch_id}/triggers 200",
      "POST /projects/{project_id}/branches/{branch_id}/triggers 201",
      "POST /projects/{project_id}/branches/{branch_id}/triggers 400",
      "POST /projects/{project_id}/branches/{branch_id}/triggers 409",
      "GET /projects/{project_id}/branches/{branch_id}/triggers/{trigger_id} 200",
      "GET /projects/{project_id}/branches/{branch_id}/triggers/{trigger_id} 404",
      "PATCH /projects/{project_id}/branches/{branch_id}/triggers/{trigger_id} 200",
      "PATCH /projects/{project_id}/branches/{branch_id}/triggers/{trigger_id} 400",
      "DELETE /projects/{project_id}/branches/{branch_id}/triggers/{trigger_id} 204",
      "DELETE /projects/{project_id}/branches/{branch_id}/triggers/{trigger_id} 404",
      "GET /projects/{project_id}/branches/{branch_id}/auth 200",
      "GET /projects/{project_id}/branches/{branch_id}/auth 403",
      "GET /projects/{project_id}/branches/{branch_id}/auth 404",
      "POST /projects/{project_id}/branches/{branch_id}/auth 201",
      "POST /projects/{project_id}/branches/{branch_id}/auth 400",
      "POST /projects/{project_id}/branches/{branch_id}/auth 404",
      "POST /projects/{project_id}/branches/{branch_id}/auth 409",
      "DELETE /projects/{project_id}/branches/{branch_id}/auth 200",
      "DELETE /projects/{project_id}/branches/{branch_id}/auth 404",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/config 200",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/config 400",
      "GET /projects/{project_id}/branches/{branch_id}/auth/allow_localhost 200",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/allow_localhost 200",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/allow_localhost 400",
      "GET /projects/{project_id}/branches/{branch_id}/auth/domains 200",
      "POST /projects/{project_id}/branches/{branch_id}/auth/domains 201",
      "POST /projects/{project_id}/branches/{branch_id}/auth/domains 400",
      "DELETE /projects/{project_id}/branches/{branch_id}/auth/domains 200",
      "DELETE /projects/{project_id}/branches/{branch_id}/auth/domains 400",
      "GET /projects/{project_id}/branches/{branch_id}/auth/email_and_password 200",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/email_and_password 200",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/email_and_password 400",
      "GET /projects/{project_id}/branches/{branch_id}/auth/email_provider 200",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/email_provider 200",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/email_provider 400",
      "POST /projects/{project_id}/branches/{branch_id}/auth/email_provider/test 200",
      "POST /projects/{project_id}/branches/{branch_id}/auth/email_provider/test 400",
      "POST /projects/{project_id}/branches/{branch_id}/auth/send_test_email 200",
      "POST /projects/{project_id}/branches/{branch_id}/auth/send_test_email 400",
      "GET /projects/{project_id}/branches/{branch_id}/auth/oauth_providers 200",
      "POST /projects/{project_id}/branches/{branch_id}/auth/oauth_providers 200",
      "POST /projects/{project_id}/branches/{branch_id}/auth/oauth_providers 400",
      "POST /projects/{project_id}/branches/{branch_id}/auth/oauth_providers 409",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id} 200",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id} 400",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id} 404",
      "DELETE /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id} 200",
      "DELETE /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id} 404",
      "GET /projects/{project_id}/branches/{branch_id}/auth/plugins 200",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/plugins/magic-link 200",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/plugins/magic-link 400",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/plugins/organization 200",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/plugins/organization 400",
      "GET /projects/{project_id}/branches/{branch_id}/auth/plugins/phone-number 200",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/plugins/phone-number 200",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/plugins/phone-number 400",
      "GET /projects/{project_id}/branches/{branch_id}/auth/webhooks 200",
      "PUT /projects/{project_id}/branches/{branch_id}/auth/webhooks 200",
      "PUT /projects/{project_id}/branches/{branch_id}/auth/webhooks 400",
      "POST /projects/{project_id}/branches/{branch_id}/auth/users 201",
      "POST /projects/{project_id}/branches/{branch_id}/auth/users 400",
      "POST /projects/{project_id}/branches/{branch_id}/auth/users 409",
      "PUT /projects/{project_id}/branches/{branch_id}/auth/users/{auth_user_id}/role 200",
      "PUT /projects/{project_id}/branches/{branch_id}/auth/users/{auth_user_id}/role 400",
      "PUT /projects/{project_id}/branches/{branch_id}/auth/users/{auth_user_id}/role 404",
      "DELETE /projects/{project_id}/branches/{branch_id}/auth/users/{auth_user_id} 204",
      "DELETE /projects/{project_id}/branches/{branch_id}/auth/users/{auth_user_id} 404",
      "GET /projects/{project_id}/auth/integrations 200",
      "POST /projects/auth/keys 201",
      "POST /projects/auth/keys 400",
      "POST /projects/auth/user 201",
      "POST /projects/auth/user 400",
      "DELETE /projects/{project_id}/auth/users/{auth_user_id} 204",
      "DELETE /projects/{project_id}/auth/users/{auth_user_id} 404",
      "POST /projects/auth/transfer_ownership 200",
      "POST /projects/auth/transfer_ownership 400",
      "GET /projects/{project_id}/auth/domains 200",
      "POST /projects/{project_id}/auth/domains 201",
      "POST /projects/{project_id}/auth/domains 400",
      "DELETE /projects/{project_id}/auth/domains 200",
      "DELETE /projects/{project_id}/auth/domains 400",
      "GET /projects/{project_id}/auth/email_server 200",
      "PATCH /projects/{project_id}/auth/email_server 200",
      "PATCH /projects/{project_id}/auth/email_server 400",
      "GET /projects/{project_id}/auth/oauth_providers 200",
      "POST /projects/{project_id}/auth/oauth_providers 200",
      "POST /projects/{project_id}/auth/oauth_providers 409",
      "PATCH /projects/{project_id}/auth/oauth_providers/{oauth_provider_id} 200",
      "PATCH /projects/{project_id}/auth/oauth_providers/{oauth_provider_id} 404",
      "DELETE /projects/{project_id}/auth/oauth_providers/{oauth_provider_id} 200",
      "DELETE /projects/{project_id}/auth/oauth_providers/{oauth_provider_id} 404",
      "DELETE /projects/{project_id}/auth/integration/{auth_provider} 200",
      "DELETE /projects/{project_id}/auth/integration/{auth_provider} 404",
      "POST /projects/auth/create 201",
      "POST /projects/auth/create 400",
      "GET /auth 200",
      "GET /auth 401",
      "GET /no/such/route 404",
    ];
    assert.deepEqual(
      expected.filter((e) => !covered.has(e)),
      [],
    );
  });
});
