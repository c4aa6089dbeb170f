import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { createClient } from "../../provider/client";
import { setHostLineWriter } from "../../provider/resources/host/progress";
import {
  type ProjectPermissionInputs,
  type ProjectPermissionOutputs,
  projectPermissionProvider as provider,
} from "../../provider/resources/public/projectPermission";
import { PROVIDER_TEXT, useEmulator, useTestEnv } from "./support";

// ProjectPermission against the emulator: one POST per grant, an existing grant for the email
// taken (and said so), a lost answer found without a second POST, the change table, refresh,
// revoke, import by id or email, and the refusals the preview and the API make.

const P = DEMO.projectId;
const PERMISSIONS = "POST /projects/{project_id}/permissions";

describe("ProjectPermission provider against the emulator", () => {
  const harness = useEmulator();
  const env = useTestEnv();
  const control = () => harness.emulator.control;
  const api = () => createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });
  beforeEach(() => control().clearRequests());

  function inputs(email: string, projectId: string = P): ProjectPermissionInputs {
    return { projectId, email, __provider: PROVIDER_TEXT } as ProjectPermissionInputs;
  }
  /** The project's grants as the emulator keeps them: email, and whether revoked. */
  const grants = (projectId: string = P) =>
    (
      control()
        .dumpState()
        .projects.find((p) => p.id === projectId)?.permissions ?? []
    ).map((g) => ({
      id: g.id,
      email: g.email,
      revoked: g.revoked_at_ms !== undefined,
    }));
  const outsOf = (made: { outs?: unknown }) => made.outs as ProjectPermissionOutputs;

  it("shares the project with the email with one POST, recording the grant's id and time", async () => {
    const made = await provider.create(inputs("ada@example.com"));
    const grant = grants().find((g) => g.email === "ada@example.com");
    assert.equal(made.id, grant?.id);
    assert.equal(outsOf(made).permissionId, made.id);
    assert.equal(outsOf(made).email, "ada@example.com");
    assert.match(outsOf(made).grantedAt, /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual(harness.writes(), [`POST /projects/${P}/permissions`]);
  });

  it("takes a grant the email already has (the API's 409) instead of failing, and says so", async () => {
    const existing = await api().grantProjectPermission(P, "bo@example.com");
    control().clearRequests();
    const lines: string[] = [];
    setHostLineWriter((line) => lines.push(line));
    try {
      const made = await provider.create(inputs("BO@example.com"));
      assert.equal(made.id, existing.id);
    } finally {
      setHostLineWriter(undefined);
    }
    assert.deepEqual(
      control()
        .requests({ route: PERMISSIONS })
        .map((r) => r.status),
      [409],
    );
    assert.deepEqual(lines, [
      `project ${P} was already shared with bo@example.com (since ${existing.granted_at}): this resource takes that grant and revokes it when it is destroyed`,
    ]);
    assert.equal(grants().filter((g) => g.email === "bo@example.com").length, 1);
  });

  it("finds the grant whose answer was lost, without sending the POST again", async () => {
    control().failNext(PERMISSIONS, { afterHandler: true, reset: true });
    const made = await provider.create(inputs("cy@example.com"));
    assert.equal(made.id, grants().find((g) => g.email === "cy@example.com")?.id);
    assert.equal(control().requests({ route: PERMISSIONS }).length, 1, "the POST was not re-sent");
  });

  it("replaces on a change of either input; an email differing only in case is no change", async () => {
    const olds = outsOf(await provider.create(inputs("di@example.com")));
    const diff = (news: ProjectPermissionInputs) => provider.diff!(olds.permissionId, olds, news);
    assert.deepEqual(await diff(inputs("Di@Example.COM")), {
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    assert.deepEqual((await diff(inputs("ed@example.com"))).replaces, ["email"]);
    assert.deepEqual((await diff(inputs("di@example.com", DEMO.orgProjectId))).replaces, ["projectId"]);
  });

  it("refresh reads the grant; revoked elsewhere, it is gone", async () => {
    const made = await provider.create(inputs("fy@example.com"));
    const outs = outsOf(made);
    const read = await provider.read!(made.id, outs);
    assert.deepEqual(
      [read.id, read.props?.email, read.props?.grantedAt],
      [made.id, "fy@example.com", outs.grantedAt],
    );
    await api().revokeProjectPermission(P, made.id);
    assert.deepEqual(await provider.read!(made.id, outs), { id: "" });
  });

  it("delete revokes the grant; a grant already revoked counts as done", async () => {
    const made = await provider.create(inputs("gu@example.com"));
    control().clearRequests();
    await provider.delete!(made.id, outsOf(made));
    assert.deepEqual(harness.writes(), [`DELETE /projects/${P}/permissions/${made.id}`]);
    assert.deepEqual(
      grants().filter((g) => g.email === "gu@example.com"),
      [{ id: made.id, email: "gu@example.com", revoked: true }],
    );
    await provider.delete!(made.id, outsOf(made));
  });

  it("imports a grant by <projectId>/<permissionId> or <projectId>/<email>, and names both forms for a wrong id", async () => {
    const existing = await api().grantProjectPermission(P, "hal@example.com");
    const byId = await provider.read!(
      `${P}/${existing.id}`,
      undefined as unknown as ProjectPermissionOutputs,
    );
    const byEmail = await provider.read!(
      `${P}/HAL@example.com`,
      undefined as unknown as ProjectPermissionOutputs,
    );
    for (const read of [byId, byEmail]) {
      assert.equal(read.id, existing.id);
      assert.deepEqual([read.props?.projectId, read.props?.email], [P, "hal@example.com"]);
    }
    assert.deepEqual(
      await provider.read!(`${P}/nobody@example.com`, undefined as unknown as ProjectPermissionOutputs),
      { id: "" },
    );
    await assert.rejects(
      provider.read!(existing.id, undefined as unknown as ProjectPermissionOutputs),
      /its import id is <projectId>\/<permissionId>/,
    );
  });

  it("refuses a malformed email or a missing project at preview, naming the input", async () => {
    const { failures } = await provider.check!({} as ProjectPermissionInputs, inputs("ada at example", ""));
    assert.deepEqual(failures, [
      { property: "projectId", reason: "projectId is required: the project to share" },
      {
        property: "email",
        reason:
          'email must be an email address such as ada@example.com (at most 256 characters), not "ada at example"',
      },
    ]);
    assert.deepEqual(harness.log(), []);
  });

  it("a project-scoped key cannot share its project: the API's 403 reaches the user", async () => {
    env.set({ CLOUDDB_API_KEY: DEMO.projectKey });
    await assert.rejects(
      provider.create(inputs("ian@example.com", DEMO.orgProjectId)),
      /a project-scoped API key cannot change who project .* is shared with/,
    );
    assert.deepEqual(grants(DEMO.orgProjectId), []);
  });
});
