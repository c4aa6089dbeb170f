import assert from "node:assert/strict";
import type { PartialFailure } from "../../provider/resources/errors";
import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import { type RoleInputs, type RoleOutputs, roleProvider } from "../../provider/resources/public/role";
import { ROLE_CHANGES } from "../../provider/resources/role";
import type { FakeApi } from "../client/support/fakeApi";
import { operation, role } from "../client/support/fixtures";
import { PROVIDER_TEXT, useFakeApi } from "./support";

// Role against a local fake of the API, for exact requests (roleDatabase.test.ts runs it against the emulator): the one-time password
// kept as the secret output, resets by trigger, refresh and delete of what is gone, and no password
// in a partial failure's properties.

const P = "hidden-river-50598307";
const B = "br-damp-glitter-adqd4hk5";
const PASSWORD = "AbC123dEf456";
const ROLE = `/projects/${P}/branches/${B}/roles`;

const apiRole = (overrides: Record<string, unknown> = {}) =>
  role({ created_at: new Date().toISOString(), ...overrides });
function inputs(values: Partial<RoleInputs> = {}): RoleInputs {
  return { projectId: P, branchId: B, name: "app", ...values, __provider: PROVIDER_TEXT } as RoleInputs;
}

/** The state of a role made with `values`. */
function state(values: Partial<RoleInputs> = {}): RoleOutputs {
  return {
    ...inputs(values),
    password: PASSWORD,
    protected: false,
    createdAt: null,
    operationIds: [],
    pendingOperationIds: [],
  } as RoleOutputs;
}

describe("Role provider against a fake API", () => {
  const fake = useFakeApi();
  let api: FakeApi;
  beforeEach(() => {
    api = fake.api;
  });

  it("creates the role, waits for its operations and keeps the one-time password", async () => {
    const op = operation({ project_id: P, action: "apply_config" });
    api.route("POST", "/projects/:project_id/branches/:branch_id/roles", {
      status: 201,
      json: { role: apiRole({ password: PASSWORD }), operations: [op] },
    });
    const made = await roleProvider.create(inputs());
    assert.equal(made.id, `${B}/app`);
    assert.equal(made.outs?.password, PASSWORD);
    assert.deepEqual(made.outs?.operationIds, [op.id]);
    assert.deepEqual(api.log(), [`POST ${ROLE}`, `GET /projects/${P}/operations/${op.id}`]);
    assert.deepEqual(api.requests[0]?.body, { role: { name: "app" } });
  });

  it("records a role whose operation failed without its password, and the resuming update reads it again", async () => {
    const op = operation({ project_id: P, action: "apply_config" });
    api.route("POST", "/projects/:project_id/branches/:branch_id/roles", {
      status: 201,
      json: { role: apiRole({ password: PASSWORD }), operations: [op] },
    });
    api.route("GET", "/projects/:project_id/operations/:operation_id", {
      json: { operation: { ...op, status: "error" } },
    });
    const err = (await roleProvider.create(inputs()).then(
      () => assert.fail("expected a partial failure"),
      (e: PartialFailure) => e,
    )) as PartialFailure;
    assert.equal(err.id, `${B}/app`);
    assert.ok(!JSON.stringify(err.properties).includes(PASSWORD), "no password in the recorded properties");
    assert.ok(!err.message.includes(PASSWORD));
    api.route("GET", "/projects/:project_id/operations/:operation_id", {
      json: { operation: { ...op, status: "finished" } },
    });
    api.route("GET", "/projects/:project_id/branches/:branch_id/roles/:role_name/reveal_password", {
      json: { password: PASSWORD },
    });
    const updated = await roleProvider.update!(err.id, err.properties as unknown as RoleOutputs, inputs());
    assert.equal(updated.outs?.password, PASSWORD);
    assert.deepEqual(updated.outs?.pendingOperationIds, []);
  });

  it("resets the password in place when passwordResetTrigger changes", async () => {
    const olds = state({ passwordResetTrigger: "1" });
    const news = inputs({ passwordResetTrigger: "2" });
    assert.deepEqual(await roleProvider.diff!(`${B}/app`, olds, news), {
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    api.route("POST", "/projects/:project_id/branches/:branch_id/roles/:role_name/reset_password", {
      json: { role: apiRole({ password: "NewPass789" }), operations: [] },
    });
    const updated = await roleProvider.update!(`${B}/app`, olds, news);
    assert.equal(updated.outs?.password, "NewPass789");
    assert.deepEqual(api.log(), [`POST ${ROLE}/app/reset_password`]);
  });

  it("replaces on a change of project, branch or name, one test per row", async () => {
    const olds = state();
    const cases: Record<keyof typeof ROLE_CHANGES, Partial<RoleInputs>> = {
      projectId: { projectId: "winter-boat-25988145" },
      branchId: { branchId: "br-other-00000000" },
      name: { name: "app2" },
      passwordResetTrigger: { passwordResetTrigger: "now" },
      adoptExisting: { adoptExisting: "app" },
      deleteProtection: { deleteProtection: true },
      timeouts: { timeouts: { delete: 30 } },
    };
    for (const [input, change] of Object.entries(ROLE_CHANGES)) {
      const result = await roleProvider.diff!(
        `${B}/app`,
        olds,
        inputs(cases[input as keyof typeof ROLE_CHANGES]),
      );
      assert.deepEqual(result.replaces, change === "replace" ? [input] : [], input);
      assert.equal(result.changes, change !== "ignore", input);
    }
    assert.deepEqual(api.log(), [], "diff made no API call");
  });

  it("drops a role deleted out of band on refresh, and counts deleting it as done", async () => {
    const olds = state();
    api.route("GET", "/projects/:project_id/branches/:branch_id/roles/:role_name", {
      status: 404,
      json: { code: "", message: "role not found" },
    });
    api.route("DELETE", "/projects/:project_id/branches/:branch_id/roles/:role_name", { status: 204 });
    assert.deepEqual(await roleProvider.read!(`${B}/app`, olds), { id: "" });
    await roleProvider.delete!(`${B}/app`, olds);
  });

  it("fails a name over 63 bytes at preview, and lets unknown values through", async () => {
    const long = await roleProvider.check!({} as RoleInputs, inputs({ name: "é".repeat(32) }));
    assert.deepEqual(long.failures, [
      { property: "name", reason: "name is 64 bytes; Postgres role names are at most 63: shorten it" },
    ]);
    const unknown = await roleProvider.check!({} as RoleInputs, inputs({ branchId: UNKNOWN }));
    assert.equal(unknown.failures, undefined);
  });
});
