import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import { DEMO } from "../../emulator";
import { isResourceError } from "../../provider/resources/errors";
import { setHostLineWriter } from "../../provider/resources/host/progress";
import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import { forgetPreflight } from "../../provider/resources/lifecycle/preflight";
import {
  type OrganizationInvitationInputs,
  type OrganizationInvitationOutputs,
  organizationInvitationProvider,
} from "../../provider/resources/public/organizationInvitation";
import {
  type OrganizationMemberInputs,
  type OrganizationMemberOutputs,
  organizationMemberProvider,
} from "../../provider/resources/public/organizationMember";
import {
  type OrganizationSpendingLimitInputs,
  type OrganizationSpendingLimitOutputs,
  organizationSpendingLimitProvider,
} from "../../provider/resources/public/organizationSpendingLimit";
import { PROVIDER_TEXT, useEmulator, useTestEnv } from "./support";

// An organization's governance against the emulator (docs/api-rules.md §17): its spending limit set,
// changed in place and cleared; a member's membership taken, its role changed in place and the
// member removed; invitations sent, and forgotten on delete since no route withdraws one; refresh
// and import; and the preview refusing a key that may read the organization but not govern it.

const ORG = DEMO.orgId;

describe("organization governance providers against the emulator", () => {
  const harness = useEmulator({ clock: "manual" });
  const env = useTestEnv();
  const control = () => harness.emulator.control;
  beforeEach(() => {
    forgetPreflight();
    control().clearRequests();
  });

  const org = () =>
    control()
      .dumpState()
      .organizations.find((o) => o.id === ORG);
  /** Calls the API as another tool would, with the demo admin's key. */
  const outside = async (method: string, path: string, body?: unknown) => {
    const reply = await fetch(`${harness.emulator.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${DEMO.personalKey}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    assert.equal(reply.status, 200, await reply.text());
  };
  const only = (result: pulumi.dynamic.CheckResult<unknown>) => {
    assert.equal(result.failures?.length, 1, JSON.stringify(result.failures));
    return result.failures?.[0] as pulumi.dynamic.CheckFailure;
  };
  const lines = async (run: () => Promise<unknown>): Promise<string[]> => {
    const said: string[] = [];
    setHostLineWriter((line) => said.push(line));
    try {
      await run();
    } finally {
      setHostLineWriter(undefined);
    }
    return said;
  };

  describe("OrganizationSpendingLimit", () => {
    const limit = (values: Partial<OrganizationSpendingLimitInputs> = {}): OrganizationSpendingLimitInputs =>
      ({
        orgId: ORG,
        spendingLimitCents: 50_000,
        ...values,
        __provider: PROVIDER_TEXT,
      }) as OrganizationSpendingLimitInputs;
    const SPENDING = `/organizations/${ORG}/billing/spending_limit`;

    it("sets the limit, changes it in place with one PUT, drops it from the state when cleared elsewhere, and clears it on delete", async () => {
      const made = await organizationSpendingLimitProvider.create(limit());
      assert.equal(made.id, ORG);
      assert.equal(org()?.spending_limit_cents, 50_000);
      assert.deepEqual(harness.writes(), [`PUT ${SPENDING}`]);

      control().clearRequests();
      const olds = made.outs as OrganizationSpendingLimitOutputs;
      const diff = await organizationSpendingLimitProvider.diff!(
        made.id,
        olds,
        limit({ spendingLimitCents: 75_000 }),
      );
      assert.deepEqual([diff.changes, diff.replaces], [true, []]);
      const updated = await organizationSpendingLimitProvider.update!(
        made.id,
        olds,
        limit({ spendingLimitCents: 75_000 }),
      );
      assert.equal(updated.outs?.spendingLimitCents, 75_000);
      assert.equal(org()?.spending_limit_cents, 75_000);
      assert.deepEqual(harness.writes(), [`PUT ${SPENDING}`]);

      const moved = await organizationSpendingLimitProvider.diff!(
        made.id,
        olds,
        limit({ orgId: "org-other-12345678" }),
      );
      assert.deepEqual(moved.replaces, ["orgId"]);

      await outside("DELETE", SPENDING);
      const gone = await organizationSpendingLimitProvider.read!(
        made.id,
        updated.outs as OrganizationSpendingLimitOutputs,
      );
      assert.equal(gone.id, "", "refresh drops a limit cleared elsewhere");

      await outside("PUT", SPENDING, { spending_limit_cents: 75_000 });
      await organizationSpendingLimitProvider.delete!(
        made.id,
        updated.outs as OrganizationSpendingLimitOutputs,
      );
      assert.equal(org()?.spending_limit_cents, undefined);
      await organizationSpendingLimitProvider.delete!(
        made.id,
        updated.outs as OrganizationSpendingLimitOutputs,
      );
    });

    it("says so when its create sets a limit over one the organization had", async () => {
      await outside("PUT", SPENDING, { spending_limit_cents: 1_000 });
      const said = await lines(() =>
        organizationSpendingLimitProvider.create(limit({ spendingLimitCents: 2_000 })),
      );
      assert.deepEqual(said, [
        `organization ${ORG} had a spending limit of 1000 cents: this resource sets it to 2000 and clears it when destroyed`,
      ]);
      assert.equal(org()?.spending_limit_cents, 2_000);
      await outside("DELETE", SPENDING);
    });

    it("imports the organization's limit by its id, and finds none where no limit is set", async () => {
      await outside("PUT", SPENDING, { spending_limit_cents: 3_000 });
      const imported = await organizationSpendingLimitProvider.read!(
        ORG,
        undefined as unknown as OrganizationSpendingLimitOutputs,
      );
      assert.deepEqual([imported.id, imported.props?.spendingLimitCents], [ORG, 3_000]);
      await outside("DELETE", SPENDING);
      const nothing = await organizationSpendingLimitProvider.read!(
        ORG,
        undefined as unknown as OrganizationSpendingLimitOutputs,
      );
      assert.equal(nothing.id, "", "an organization without a limit has none to import");
    });

    it("refuses at preview a limit below one cent or a fraction of one", async () => {
      const { failures } = await organizationSpendingLimitProvider.check!(
        {} as OrganizationSpendingLimitInputs,
        limit({ spendingLimitCents: 0 }),
      );
      assert.match(
        only({ failures } as pulumi.dynamic.CheckResult<unknown>).reason,
        /at least 1: to have no limit, remove the resource/,
      );
      const fraction = await organizationSpendingLimitProvider.check!(
        {} as OrganizationSpendingLimitInputs,
        limit({ spendingLimitCents: 10.5 }),
      );
      assert.match(only(fraction).reason, /whole number of cents/);
    });

    it("refuses at preview a plain member's key, and passes an admin's key and the organization's own key", async () => {
      env.set({ CLOUDDB_API_KEY: DEMO.memberPersonalKey });
      const failure = only(
        await organizationSpendingLimitProvider.check!({} as OrganizationSpendingLimitInputs, limit()),
      );
      assert.equal(failure.property, "orgId");
      assert.match(
        failure.reason,
        new RegExp(
          `role is "member" of organization ${ORG}, and only its admins \\(or the organization's own API key\\) set its spending limit`,
        ),
      );
      assert.ok(!failure.reason.includes(DEMO.memberPersonalKey), "no key in the message");
      env.set({ CLOUDDB_API_KEY: DEMO.projectKey });
      const scoped = only(
        await organizationSpendingLimitProvider.check!({} as OrganizationSpendingLimitInputs, limit()),
      );
      assert.match(scoped.reason, /this API key may not use organization .*403 Forbidden/);
      env.set({ CLOUDDB_API_KEY: DEMO.orgKey });
      assert.equal(
        (await organizationSpendingLimitProvider.check!({} as OrganizationSpendingLimitInputs, limit()))
          .failures,
        undefined,
      );
      env.restore();
      assert.equal(
        (await organizationSpendingLimitProvider.check!({} as OrganizationSpendingLimitInputs, limit()))
          .failures,
        undefined,
      );
    });
  });

  describe("OrganizationMember", () => {
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
        organizationMemberProvider.check!(
          {} as OrganizationMemberInputs,
          member({ invitationId: invited.id }),
        ),
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
      const before = await organizationMemberProvider.create(
        member({ invitationId: "inv-not-this-members" }),
      );
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
      const missing = only(
        await organizationMemberProvider.check!({} as OrganizationMemberInputs, member({ email: undefined })),
      );
      assert.deepEqual(
        [missing.property, missing.reason],
        ["", "email or userId is required: the user whose membership this is"],
      );
      env.set({ CLOUDDB_API_KEY: DEMO.memberPersonalKey });
      const refused = only(await organizationMemberProvider.check!({} as OrganizationMemberInputs, member()));
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

  describe("OrganizationInvitation", () => {
    const invitation = (values: Partial<OrganizationInvitationInputs> = {}): OrganizationInvitationInputs =>
      ({
        orgId: ORG,
        email: "new-hire@example.com",
        role: "member",
        ...values,
        __provider: PROVIDER_TEXT,
      }) as OrganizationInvitationInputs;
    const invitations = () => org()?.invitations ?? [];

    it("sends an invitation with one POST, reads it back, and only forgets it on delete, saying it stays", async () => {
      const made = await organizationInvitationProvider.create(invitation());
      assert.deepEqual(harness.writes(), [`POST /organizations/${ORG}/invitations`]);
      assert.deepEqual(
        [made.outs?.email, made.outs?.role, made.outs?.invitedBy],
        ["new-hire@example.com", "member", DEMO.userId],
      );
      assert.equal(made.id, invitations().at(-1)?.id);
      const olds = made.outs as OrganizationInvitationOutputs;
      const read = await organizationInvitationProvider.read!(made.id, olds);
      assert.equal(read.id, made.id);
      const diff = await organizationInvitationProvider.diff!(made.id, olds, invitation({ role: "admin" }));
      assert.deepEqual(diff.replaces, ["role"]);

      control().clearRequests();
      const said = await lines(() => organizationInvitationProvider.delete!(made.id, olds));
      assert.deepEqual(harness.writes(), [], "no route withdraws an invitation");
      assert.match(
        said[0] ?? "",
        /the invitation of new-hire@example.com to organization \S+ stays: the API cannot withdraw an invitation/,
      );
      assert.ok(invitations().some((i) => i.id === made.id));
    });

    it("drops from the state an invitation a later one for the same email replaced", async () => {
      const made = await organizationInvitationProvider.create(invitation({ email: "later@example.com" }));
      await outside("POST", `/organizations/${ORG}/invitations`, {
        invitations: [{ email: "later@example.com", role: "admin" }],
      });
      const gone = await organizationInvitationProvider.read!(
        made.id,
        made.outs as OrganizationInvitationOutputs,
      );
      assert.equal(gone.id, "");
    });

    it("a create after a killed run takes the invitation its user joined through, and fails for a member invited with another role", async () => {
      // A killed run's invitation of casey, who has an account and so joined at once.
      control().removeMember(ORG, DEMO.memberUserId);
      await outside("POST", `/organizations/${ORG}/invitations`, {
        invitations: [{ email: "casey@example.com", role: "member" }],
      });
      control().clearRequests();
      const taken = await organizationInvitationProvider.create(invitation({ email: "casey@example.com" }));
      assert.deepEqual([taken.outs?.email, taken.outs?.role], ["casey@example.com", "member"]);
      assert.equal(taken.id, invitations().at(-1)?.id);
      await assert.rejects(
        organizationInvitationProvider.create(invitation({ email: "casey@example.com", role: "admin" })),
        /409.*already a member/s,
      );
    });

    it("a lost answer to the invitation finds what it sent instead of sending it again", async () => {
      control().failNext("POST /organizations/{org_id}/invitations", { status: 502, afterHandler: true });
      const made = await organizationInvitationProvider.create(invitation({ email: "lost@example.com" }));
      assert.equal(made.id, invitations().at(-1)?.id);
      assert.equal(control().requests({ method: "POST" }).length, 1, "the POST is not sent again");
    });

    it("adopts an invitation sent elsewhere, and imports one by id or email", async () => {
      await outside("POST", `/organizations/${ORG}/invitations`, {
        invitations: [{ email: "sent@example.com", role: "admin" }],
      });
      const id = invitations().at(-1)?.id as string;
      control().clearRequests();
      const adopted = await organizationInvitationProvider.create(
        invitation({ email: "sent@example.com", role: "admin", adoptExisting: id }),
      );
      assert.equal(adopted.id, id);
      assert.deepEqual(harness.writes(), []);
      await assert.rejects(
        organizationInvitationProvider.create(invitation({ email: "sent@example.com", adoptExisting: id })),
        /adoptExisting: organization invitation \S+ has role "admin", not "member"/,
      );
      for (const importId of [`${ORG}/${id}`, `${ORG}/SENT@example.com`]) {
        const imported = await organizationInvitationProvider.read!(
          importId,
          undefined as unknown as OrganizationInvitationOutputs,
        );
        assert.deepEqual([imported.id, imported.props?.role], [id, "admin"]);
      }
    });

    it("says at the preview of its create that the invitation cannot be withdrawn, and refuses a plain member's key", async () => {
      const said = await lines(() =>
        organizationInvitationProvider.check!({} as OrganizationInvitationInputs, invitation()),
      );
      assert.deepEqual(said, [
        `organization invitation: the API cannot withdraw an invitation: once sent, the invitation of new-hire@example.com to organization ${ORG} stays when this stack destroys or replaces the resource, and so does their membership once they join (an OrganizationMember given this invitation's invitationId removes them)`,
      ]);
      env.set({ CLOUDDB_API_KEY: DEMO.memberPersonalKey });
      const refused = only(
        await organizationInvitationProvider.check!({} as OrganizationInvitationInputs, invitation()),
      );
      assert.match(refused.reason, /only its admins \(or the organization's own API key\) invite members/);
    });
  });
});
