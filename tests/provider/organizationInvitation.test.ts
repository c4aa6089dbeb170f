import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import {
  type OrganizationInvitationInputs,
  type OrganizationInvitationOutputs,
  organizationInvitationProvider,
} from "../../provider/resources/public/organizationInvitation";
import { linesOf, onlyFailure, PROVIDER_TEXT, useGovernanceSuite } from "./support";

// An organization's invitations against the emulator (docs/api-rules.md §17): sent, and forgotten on
// delete since no route withdraws one; refresh and import.

const ORG = DEMO.orgId;

describe("OrganizationInvitation against the emulator", () => {
  const { harness, env, control, org, outside } = useGovernanceSuite();
  const lines = async (run: () => Promise<unknown>) => (await linesOf(run)).lines;

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
    const refused = onlyFailure(
      await organizationInvitationProvider.check!({} as OrganizationInvitationInputs, invitation()),
    );
    assert.match(refused.reason, /only its admins \(or the organization's own API key\) invite members/);
  });
});
