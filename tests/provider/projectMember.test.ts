import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { isResourceError } from "../../provider/resources/errors";
import { setHostLineWriter } from "../../provider/resources/host/progress";
import {
  type ProjectMemberInputs,
  type ProjectMemberOutputs,
  projectMemberProvider,
} from "../../provider/resources/public/projectMember";
import { onlyFailure, PROVIDER_TEXT, useGovernanceSuite } from "./support";

// A member's explicit role on an organization's project against the emulator (docs/api-rules.md
// §20): set with one PUT, changed in place, removed on delete so the member falls back to the
// organization's default; a role set before taken over and said so; refresh and import; and the
// preview refusing a key that can never set roles.

const PROJECT = DEMO.orgProjectId;

describe("ProjectMember against the emulator", () => {
  const { harness, env, control, outside: call } = useGovernanceSuite();

  const roles = () =>
    control()
      .dumpState()
      .projects.find((p) => p.id === PROJECT)?.member_roles ?? {};
  const inputs = (values: Partial<ProjectMemberInputs> = {}): ProjectMemberInputs =>
    ({
      projectId: PROJECT,
      email: "casey@example.com",
      role: "viewer",
      ...values,
      __provider: PROVIDER_TEXT,
    }) as ProjectMemberInputs;
  /** Sets casey's role as another tool would, with the demo admin's key. */
  const outside = (method: "PUT" | "DELETE", memberId: string, role?: string) =>
    call(method, `/projects/${PROJECT}/members/${memberId}/role`, role === undefined ? undefined : { role });

  it("sets the role with one PUT, changes it in place, refreshes it, and removes it on delete (back to the default)", async () => {
    const said: string[] = [];
    setHostLineWriter((line) => said.push(line));
    const made = await projectMemberProvider.create(inputs()).finally(() => setHostLineWriter(undefined));
    assert.deepEqual(said, [
      `casey@example.com has no explicit role on project ${PROJECT}: this resource sets viewer, and destroying it removes the explicit role`,
    ]);
    const outs = made.outs as ProjectMemberOutputs;
    assert.equal(outs.foundRole, undefined, "no role found: the stack added it");
    assert.equal(made.id, `${PROJECT}/${outs.memberId}`);
    assert.deepEqual(
      [outs.userId, outs.role, outs.orgRole, outs.effectivePermission],
      [DEMO.memberUserId, "viewer", "member", "VIEWER"],
    );
    assert.deepEqual(roles(), { [DEMO.memberUserId]: "viewer" });
    assert.deepEqual(harness.writes(), [`PUT /projects/${PROJECT}/members/${outs.memberId}/role`]);

    const diff = await projectMemberProvider.diff!(made.id, outs, inputs({ role: "editor" }));
    assert.deepEqual([diff.changes, diff.replaces], [true, []]);
    const same = await projectMemberProvider.diff!(made.id, outs, inputs({ email: "CASEY@example.com" }));
    assert.equal(same.changes, false, "emails compare without regard to case");
    const moved = await projectMemberProvider.diff!(made.id, outs, inputs({ email: "demo@example.com" }));
    assert.deepEqual(moved.replaces, ["email"]);
    control().clearRequests();
    const updated = await projectMemberProvider.update!(made.id, outs, inputs({ role: "editor" }));
    assert.deepEqual([updated.outs?.role, updated.outs?.effectivePermission], ["editor", "EDITOR"]);
    assert.deepEqual(harness.writes(), [`PUT /projects/${PROJECT}/members/${outs.memberId}/role`]);

    await outside("PUT", outs.memberId, "admin");
    const refreshed = await projectMemberProvider.read!(made.id, updated.outs as ProjectMemberOutputs);
    assert.equal(refreshed.props?.role, "admin", "refresh reads a role changed elsewhere");

    control().clearRequests();
    await projectMemberProvider.delete!(made.id, refreshed.props as ProjectMemberOutputs);
    assert.deepEqual(roles(), {});
    assert.deepEqual(harness.writes(), [`DELETE /projects/${PROJECT}/members/${outs.memberId}/role`]);
    const gone = await projectMemberProvider.read!(made.id, refreshed.props as ProjectMemberOutputs);
    assert.equal(gone.id, "", "refresh drops a role removed");
  });

  it("takes over a role set before by member id, saying so, and gives it back when destroyed, through a refresh", async () => {
    const members = (await (
      await fetch(`${harness.emulator.url}/projects/${PROJECT}/members`, {
        headers: { authorization: `Bearer ${DEMO.personalKey}` },
      })
    ).json()) as { project_members: Array<{ email: string; member_id: string }> };
    const casey = members.project_members.find((m) => m.email === "casey@example.com");
    assert.ok(casey);
    await outside("PUT", casey.member_id, "editor");
    const said: string[] = [];
    let made: Awaited<ReturnType<typeof projectMemberProvider.create>>;
    setHostLineWriter((line) => said.push(line));
    try {
      made = await projectMemberProvider.create(
        inputs({ email: undefined, memberId: casey.member_id, role: "admin" }),
      );
      assert.equal(made.outs?.email, "casey@example.com");
    } finally {
      setHostLineWriter(undefined);
    }
    assert.match(
      said.join("\n"),
      new RegExp(
        `casey@example.com already had the explicit role editor on project ${PROJECT}: this resource takes it, sets admin, and gives back editor when destroyed`,
      ),
    );
    assert.deepEqual(roles(), { [DEMO.memberUserId]: "admin" });
    const refreshed = await projectMemberProvider.read!(made.id, made.outs as ProjectMemberOutputs);
    assert.equal(refreshed.props?.foundRole, "editor", "a refresh keeps the role found");
    await projectMemberProvider.delete!(made.id, refreshed.props as ProjectMemberOutputs);
    assert.deepEqual(roles(), { [DEMO.memberUserId]: "editor" }, "the explicit role found is back");
    await outside("DELETE", casey.member_id);
  });

  it("fails for an email that is not a member, saying users join by invitation", async () => {
    await assert.rejects(
      projectMemberProvider.create(inputs({ email: "nobody@example.com" })),
      (err: unknown) => {
        assert.ok(isResourceError(err), String(err));
        assert.equal(err.kind, "Missing");
        assert.match(
          err.message,
          /nobody@example.com is not a member of the organization of project .*by invitation/,
        );
        return true;
      },
    );
  });

  it("imports a role by member id or email, and finds none for a member without an explicit role", async () => {
    const made = await projectMemberProvider.create(inputs({ role: "editor" }));
    const outs = made.outs as ProjectMemberOutputs;
    for (const id of [outs.memberId, "casey@example.com"]) {
      const imported = await projectMemberProvider.read!(
        `${PROJECT}/${id}`,
        undefined as unknown as ProjectMemberOutputs,
      );
      assert.deepEqual(
        [imported.id, imported.props?.role, imported.props?.email, imported.props?.foundRole],
        [made.id, "editor", "casey@example.com", "editor"],
        "an imported role was there before the stack: destroying it gives that role back",
      );
    }
    await projectMemberProvider.delete!(made.id, outs);
    const none = await projectMemberProvider.read!(
      `${PROJECT}/casey@example.com`,
      undefined as unknown as ProjectMemberOutputs,
    );
    assert.equal(none.id, "", "no explicit role to import");
  });

  it("refuses at preview neither email nor memberId, a project-scoped key and a plain member's key; passes the organization's key and says what a destroy does", async () => {
    const missing = onlyFailure(
      await projectMemberProvider.check!({} as ProjectMemberInputs, inputs({ email: undefined })),
    );
    assert.equal(
      missing.reason,
      "email or memberId is required: the organization member whose project role this is",
    );
    env.set({ CLOUDDB_API_KEY: DEMO.projectKey });
    const scoped = onlyFailure(await projectMemberProvider.check!({} as ProjectMemberInputs, inputs()));
    assert.equal(scoped.property, "projectId");
    assert.match(
      scoped.reason,
      /this is a project-scoped API key, which can never set members' roles on project/,
    );
    env.set({ CLOUDDB_API_KEY: DEMO.memberPersonalKey });
    const member = onlyFailure(await projectMemberProvider.check!({} as ProjectMemberInputs, inputs()));
    assert.match(member.reason, /role is "member" of organization .*, without ADMIN on project/);
    assert.ok(!member.reason.includes(DEMO.memberPersonalKey), "no key in the message");
    env.set({ CLOUDDB_API_KEY: DEMO.orgKey });
    assert.equal(
      (await projectMemberProvider.check!({} as ProjectMemberInputs, inputs())).failures,
      undefined,
    );
    env.restore();
    const said: string[] = [];
    setHostLineWriter((line) => said.push(line));
    await projectMemberProvider.check!({} as ProjectMemberInputs, inputs()).finally(() =>
      setHostLineWriter(undefined),
    );
    assert.deepEqual(said, [
      `project member role: destroying it gives back the explicit role casey@example.com has on project ${PROJECT} when this resource takes it, or, when they have none, removes the explicit role, so they fall back to their organization role's default`,
    ]);
    const personal = onlyFailure(
      await projectMemberProvider.check!({} as ProjectMemberInputs, inputs({ projectId: DEMO.projectId })),
    );
    assert.match(
      personal.reason,
      /is a personal project, and only an organization's projects have members with roles/,
    );
  });
});
