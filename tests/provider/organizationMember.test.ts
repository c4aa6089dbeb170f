import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { isResourceError } from "../../provider/resources/errors";
import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import {
  type OrganizationInvitationInputs,
  organizationInvitationProvider,
} from "../../provider/resources/public/organizationInvitation";
import {
  type OrganizationMemberInputs,
  type OrganizationMemberOutputs,
  organizationMemberProvider,
} from "../../provider/resources/public/organizationMember";
import { linesOf, onlyFailure, PROVIDER_TEXT, useGovernanceSuite } from "./support";

// An organization's member against the emulator (docs/api-rules.md §17): the membership taken, its role
// changed in place and the member removed; refresh and import; the preview refusing a key that may
// read the organization but not govern it.

const ORG = DEMO.orgId;

describe("OrganizationMember against the emulator", () => {
  const { harness, env, control, org, outside } = useGovernanceSuite();
  const lines = async (run: () => Promise<unknown>) => (await linesOf(run)).lines;

  const member = (values: Partial<OrganizationMemberInputs> = {}): OrganizationMemberInputs =>
    ({
      orgId: ORG,
      email: "casey@example.com",
      role: "member",
      ...values,
      __provider: PROVIDER_TEXT,
    }) as OrganizationMemberInputs;
  const roleOf = (userId: string) => org()?.members[userId];
  /** Brings casey back after a test removed them, as an admin would: by invitation. */
  const reinvite = () =>
    outside("POST", `/organizations/${ORG}/invitations`, {
      invitations: [{ email: "casey@example.com", role: "member" }],
    });

  it("takes a member's membership by email, changes the role in place with one PATCH, and leaves the member on delete", async () => {
    const said = await lines(() => organizationMemberProvider.create(member()));
    assert.match(
      said[0] ?? "",
      new RegExp(
        `^casey@example.com has been a member of organization ${ORG} since \\S+ as member: this resource takes the membership, and destroying it gives back the role member \\(the member stays\\)$`,
      ),
    );
    const made = await organizationMemberProvider.create(member());
    assert.equal(made.outs?.userId, DEMO.memberUserId);
    assert.deepEqual([made.outs?.role, made.outs?.foundRole], ["member", "member"]);
    assert.deepEqual(harness.writes(), [], "a member with the declared role is taken as it is");

    const olds = made.outs as OrganizationMemberOutputs;
    const diff = await organizationMemberProvider.diff!(made.id, olds, member({ role: "admin" }));
    assert.deepEqual([diff.changes, diff.replaces], [true, []]);
    const same = await organizationMemberProvider.diff!(
      made.id,
      olds,
      member({ email: "CASEY@example.com" }),
    );
    assert.equal(same.changes, false, "emails compare without regard to case");
    const updated = await organizationMemberProvider.update!(made.id, olds, member({ role: "admin" }));
    assert.deepEqual([updated.outs?.role, updated.outs?.foundRole], ["admin", "member"]);
    assert.equal(roleOf(DEMO.memberUserId), "admin");
    assert.deepEqual(harness.writes(), [`PATCH /organizations/${ORG}/members/${made.id}`]);

    await outside("PATCH", `/organizations/${ORG}/members/${made.id}`, { role: "member" });
    const refreshed = await organizationMemberProvider.read!(
      made.id,
      updated.outs as OrganizationMemberOutputs,
    );
    assert.equal(refreshed.props?.role, "member", "refresh reads a role changed elsewhere");
    assert.equal(refreshed.props?.foundRole, "member", "refresh keeps the role found");

    control().clearRequests();
    await organizationMemberProvider.delete!(made.id, refreshed.props as OrganizationMemberOutputs);
    assert.equal(roleOf(DEMO.memberUserId), "member", "the member stays");
    assert.deepEqual(harness.writes(), [], "the role found is the member's already");
  });

  it("gives back, when destroyed, the role a member it took over had, and leaves them a member", async () => {
    // An admin for a year, made so outside the stack; the stack only declares them a plain member.
    const casey = await organizationMemberProvider.read!(
      `${ORG}/casey@example.com`,
      undefined as unknown as OrganizationMemberOutputs,
    );
    await outside("PATCH", `/organizations/${ORG}/members/${casey.id}`, { role: "admin" });
    assert.equal(roleOf(DEMO.memberUserId), "admin");
    const made = await organizationMemberProvider.create(member({ role: "member" }));
    assert.deepEqual([made.outs?.role, made.outs?.foundRole], ["member", "admin"]);
    assert.equal(roleOf(DEMO.memberUserId), "member");
    const said = await lines(() =>
      organizationMemberProvider.delete!(made.id, made.outs as OrganizationMemberOutputs),
    );
    assert.equal(roleOf(DEMO.memberUserId), "admin", "still a member, with the role found");
    assert.deepEqual(said, [
      `casey@example.com stays a member of organization ${ORG}, with the role admin again`,
    ]);
    await outside("PATCH", `/organizations/${ORG}/members/${made.id}`, { role: "member" });
  });

  it("removes, when destroyed, a member who joined through the stack's invitation (invitationId)", async () => {
    control().removeMember(ORG, DEMO.memberUserId);
    const invited = await organizationInvitationProvider.create({
      orgId: ORG,
      email: "casey@example.com",
      role: "member",
      __provider: PROVIDER_TEXT,
    } as OrganizationInvitationInputs);
    assert.equal(roleOf(DEMO.memberUserId), "member", "casey has an account: joined at once");
    const note = await lines(() =>
      organizationMemberProvider.check!({} as OrganizationMemberInputs, member({ invitationId: invited.id })),
    );
    assert.match(
      note.join("\n"),
      new RegExp(
        `removes casey@example.com from organization ${ORG} when they joined through invitation ${invited.id}`,
      ),
    );
    const unknownYet = await lines(() =>
      organizationMemberProvider.check!({} as OrganizationMemberInputs, member({ invitationId: UNKNOWN })),
    );
    assert.match(unknownYet.join("\n"), /when they joined through its invitation \(this stack's\)/);
    const said = await lines(() => organizationMemberProvider.create(member({ invitationId: invited.id })));
    assert.match(
      said[0] ?? "",
      /joined organization \S+ through invitation \S+, this stack's: this resource takes the membership and removes the member when it is destroyed/,
    );
    const made = await organizationMemberProvider.create(member({ invitationId: invited.id }));
    assert.equal(made.outs?.foundRole, undefined, "no role found: the stack brought the member in");
    const review = await lines(() =>
      organizationMemberProvider.diff!(
        made.id,
        made.outs as OrganizationMemberOutputs,
        member({ email: "demo@example.com", invitationId: invited.id }),
      ),
    );
    assert.match(
      review.join("\n"),
      /changing email removes casey@example.com from organization \S+, who comes back only through a new invitation/,
    );
    await organizationMemberProvider.delete!(made.id, made.outs as OrganizationMemberOutputs);
    assert.equal(roleOf(DEMO.memberUserId), undefined, "the member the stack invited is removed");
    await reinvite();
    // The same invitation id names no invitation of a member who was there before it.
    const before = await organizationMemberProvider.create(member({ invitationId: "inv-not-this-members" }));
    assert.equal(before.outs?.foundRole, "member");
  });

  it("sets the declared role when it takes a membership with another, and takes one by user id", async () => {
    const made = await organizationMemberProvider.create(
      member({ email: undefined, userId: DEMO.memberUserId, role: "admin" }),
    );
    assert.deepEqual([made.outs?.email, made.outs?.role], ["casey@example.com", "admin"]);
    assert.equal(roleOf(DEMO.memberUserId), "admin");
    await outside("PATCH", `/organizations/${ORG}/members/${made.id}`, { role: "member" });
  });

  it("fails for a user who is not a member, saying users join by invitation", async () => {
    await assert.rejects(
      organizationMemberProvider.create(member({ email: "nobody@example.com" })),
      (err: unknown) => {
        assert.ok(isResourceError(err), String(err));
        assert.equal(err.kind, "Missing");
        assert.match(
          err.message,
          /nobody@example.com is not a member of organization .*join by invitation.*OrganizationInvitation/,
        );
        return true;
      },
    );
  });

  it("refuses to remove the organization's last admin, saying to make another member admin first", async () => {
    const admin = await organizationMemberProvider.create(
      member({ email: "demo@example.com", role: "admin" }),
    );
    // As the state of a member who joined through the stack's invitation records it: removed on delete.
    const { foundRole: _found, ...invited } = admin.outs as OrganizationMemberOutputs;
    await assert.rejects(
      organizationMemberProvider.delete!(admin.id, { ...invited, invitationId: "inv-of-the-stack" }),
      (err: unknown) => {
        assert.ok(isResourceError(err), String(err));
        assert.equal(err.kind, "DeleteRefused");
        assert.match(
          err.message,
          /demo@example.com is the last admin of organization .*make another member admin first/,
        );
        return true;
      },
    );
    assert.equal(roleOf(DEMO.userId), "admin");
    await assert.rejects(
      organizationMemberProvider.update!(
        admin.id,
        admin.outs as OrganizationMemberOutputs,
        member({ email: "demo@example.com", role: "member" }),
      ),
      /409.*last admin/s,
    );
  });

  it("imports a member by member id, email or user id", async () => {
    const byEmail = await organizationMemberProvider.read!(
      `${ORG}/casey@example.com`,
      undefined as unknown as OrganizationMemberOutputs,
    );
    assert.equal(byEmail.props?.userId, DEMO.memberUserId);
    for (const id of [byEmail.id, DEMO.memberUserId]) {
      const imported = await organizationMemberProvider.read!(
        `${ORG}/${id}`,
        undefined as unknown as OrganizationMemberOutputs,
      );
      assert.deepEqual(
        [imported.id, imported.props?.email, imported.props?.role],
        [byEmail.id, "casey@example.com", "member"],
      );
    }
  });

  it("refuses at preview neither email nor userId, and a plain member's key; says at its create that a destroy gives the role back", async () => {
    const missing = onlyFailure(
      await organizationMemberProvider.check!({} as OrganizationMemberInputs, member({ email: undefined })),
    );
    assert.deepEqual(
      [missing.property, missing.reason],
      ["", "email or userId is required: the user whose membership this is"],
    );
    env.set({ CLOUDDB_API_KEY: DEMO.memberPersonalKey });
    const refused = onlyFailure(
      await organizationMemberProvider.check!({} as OrganizationMemberInputs, member()),
    );
    assert.match(
      refused.reason,
      /only its admins \(or the organization's own API key\) change members' roles and remove members/,
    );
    env.restore();
    const said = await lines(() =>
      organizationMemberProvider.check!({} as OrganizationMemberInputs, member()),
    );
    assert.deepEqual(said, [
      `organization member: destroying it (\`pulumi destroy\`, dropping it from the program, or replacing it) gives back the role casey@example.com has in organization ${ORG} when this resource takes the membership, and they stay a member`,
    ]);
  });

  it("explains at preview that a replacement gives the old member's role back", async () => {
    const made = await organizationMemberProvider.create(member());
    const said = await lines(() =>
      organizationMemberProvider.diff!(
        made.id,
        made.outs as OrganizationMemberOutputs,
        member({ email: "demo@example.com" }),
      ),
    );
    assert.ok(
      said.some((l) =>
        l.includes(
          `changing email gives casey@example.com the role member back in organization ${ORG} (they stay a member)`,
        ),
      ),
      said.join("\n"),
    );
  });
});
