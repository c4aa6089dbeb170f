import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import type { PartialFailure } from "../../provider/resources/errors";
import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import { type RoleInputs, type RoleOutputs, roleProvider } from "../../provider/resources/public/role";
import { roleDefinition } from "../../provider/resources/role";
import { demoBranch, PROVIDER_TEXT, useEmulator } from "./support";

// Role against the emulator (roleDatabase.test.ts covers rotation, adoption and refresh): the
// one-time password kept as the secret output, a role whose operation failed recorded without it,
// the change table row by row, and the request budget of each call.

const P = DEMO.projectId;

describe("Role provider against the emulator", () => {
  const harness = useEmulator();
  const control = () => harness.emulator.control;
  let B: string;
  before(async () => {
    B = await demoBranch(harness.emulator, "roles");
  });
  beforeEach(() => {
    control().clearRequests();
    control().clearOperationScripts();
  });

  function inputs(values: Partial<RoleInputs> = {}): RoleInputs {
    return { projectId: P, branchId: B, name: "app", ...values, __provider: PROVIDER_TEXT } as RoleInputs;
  }
  const stored = (name: string) =>
    control()
      .dumpState()
      .branches.find((b) => b.id === B)
      ?.roles.find((r) => r.name === name);

  it("creates the role, waits for its operations and keeps the one-time password", async () => {
    const made = await roleProvider.create(inputs({ name: "app" }));
    assert.equal(made.id, `${B}/app`);
    assert.equal(made.outs?.password, stored("app")?.password);
    const ops = control()
      .dumpState()
      .operations.filter((op) => made.outs?.operationIds.includes(op.id));
    assert.ok(ops.length > 0);
    for (const op of ops) assert.equal(op.status, "finished", `${op.action} ended before create resolved`);
    assert.equal(control().requests({ method: "POST" }).length, 1, "one POST, nothing else written");
    assert.equal(
      control().requests({ method: "PATCH" }).length + control().requests({ method: "DELETE" }).length,
      0,
    );
  });

  it("creates a role that cannot log in, with no password, and reads it back as such; a passwordResetTrigger with it fails at preview", async () => {
    const made = await roleProvider.create(inputs({ name: "owner_only", noLogin: true }));
    assert.equal(stored("owner_only")?.no_login, true);
    assert.deepEqual([made.outs?.password, made.outs?.noLogin], ["", true]);
    const updated = await roleProvider.update!(
      made.id,
      made.outs as RoleOutputs,
      inputs({ name: "owner_only", noLogin: true }),
    );
    assert.equal(updated.outs?.password, "", "no password is asked for");
    const imported = await roleProvider.read!(`${P}/${B}/owner_only`, undefined as unknown as RoleOutputs);
    assert.deepEqual(
      [imported.props?.noLogin, imported.props?.password],
      [true, ""],
      "an import finds it cannot log in",
    );
    const { failures } = await roleProvider.check!(
      {} as RoleInputs,
      inputs({ noLogin: true, passwordResetTrigger: "now" }),
    );
    assert.deepEqual(failures, [
      {
        property: "passwordResetTrigger",
        reason: "a noLogin role has no password to reset: remove passwordResetTrigger, or noLogin",
      },
    ]);
  });

  it("records a role whose operation failed without its password, and the next update says to replace it", async () => {
    control().scriptOperations(
      { action: "apply_config", count: 1 },
      { kind: "error", message: "config failed" },
    );
    const err = (await roleProvider.create(inputs({ name: "half_made" })).then(
      () => assert.fail("expected a partial failure"),
      (e: PartialFailure) => e,
    )) as PartialFailure;
    const password = stored("half_made")?.password ?? "";
    assert.ok(password.length > 0, "the service made the role");
    assert.equal(err.id, `${B}/half_made`);
    assert.ok(!JSON.stringify(err.properties).includes(password), "no password in the recorded properties");
    assert.ok(!err.message.includes(password));
    await assert.rejects(
      roleProvider.update!(err.id, err.properties as unknown as RoleOutputs, inputs({ name: "half_made" })),
      /operation apply_config \S+ ended error \(config failed\).*pulumi up --replace/,
    );
  });

  it("resets the password in place when passwordResetTrigger changes, with one reset and no other write", async () => {
    const made = await roleProvider.create(inputs({ name: "rotating", passwordResetTrigger: "1" }));
    const olds = made.outs as RoleOutputs;
    const news = inputs({ name: "rotating", passwordResetTrigger: "2" });
    assert.deepEqual(await roleProvider.diff!(made.id, olds, news), {
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    control().clearRequests();
    const updated = await roleProvider.update!(made.id, olds, news);
    assert.notEqual(updated.outs?.password, olds.password);
    assert.equal(updated.outs?.password, stored("rotating")?.password);
    const writes = control()
      .requests()
      .filter((r) => r.method !== "GET");
    assert.deepEqual(
      writes.map((r) => r.route),
      ["POST /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reset_password"],
    );
  });

  it("replaces on a change of project, branch or name, one test per row, without calling the API", async () => {
    const olds = {
      ...inputs(),
      password: "x",
      protected: false,
      createdAt: null,
      operationIds: [],
      pendingOperationIds: [],
    } as RoleOutputs;
    const cases: Record<keyof typeof roleDefinition.changes, Partial<RoleInputs>> = {
      projectId: { projectId: DEMO.orgProjectId },
      branchId: { branchId: "br-other-00000000" },
      name: { name: "app2" },
      passwordResetTrigger: { passwordResetTrigger: "now" },
      noLogin: { noLogin: true },
      adoptExisting: { adoptExisting: "app" },
      deleteProtection: { deleteProtection: true },
      timeouts: { timeouts: { delete: 30 } },
    };
    for (const [input, change] of Object.entries(roleDefinition.changes)) {
      const result = await roleProvider.diff!(
        `${B}/app`,
        olds,
        inputs(cases[input as keyof typeof roleDefinition.changes]),
      );
      assert.deepEqual(result.replaces, change === "replace" ? [input] : [], input);
      assert.equal(result.changes, change !== "ignore", input);
    }
    assert.deepEqual(harness.log(), [], "diff made no API call");
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
