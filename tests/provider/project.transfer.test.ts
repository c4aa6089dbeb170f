import assert from "node:assert/strict";
import { DEMO, demoSeed } from "../../emulator";
import { forgetPreflight } from "../../provider/resources/lifecycle/preflight";
import {
  type ProjectInputs,
  type ProjectOutputs,
  projectProvider,
} from "../../provider/resources/public/project";
import { SECOND_ORG_ID, withSecondOrg } from "../emulator/helpers";
import { linesOf, PROVIDER_TEXT, useEmulator, useTestEnv } from "./support";

// A Project's orgId changes in place: the update moves the project with a transfer request it
// accepts at once with the same key (docs/api-rules.md §21), so its id, branches and computes stay.
// The preview says so, and refuses a key that could not give the project away.

/** A second organization, of which the demo user is a plain member. */
const OTHER_ORG = SECOND_ORG_ID;

function inputs(values: Partial<ProjectInputs> = {}): ProjectInputs {
  return { ...values, __provider: PROVIDER_TEXT } as ProjectInputs;
}

describe("Project: moving between organizations", () => {
  const harness = useEmulator({ seed: withSecondOrg(demoSeed(), { [DEMO.userId]: "member" }) });
  const env = useTestEnv();
  const control = () => harness.emulator.control;
  /** The organization the emulator has the project in. */
  const orgOf = (id: string) =>
    control()
      .dumpState()
      .projects.find((p) => p.id === id)?.org_id;
  beforeEach(() => {
    forgetPreflight();
    control().clearRequests();
  });

  /** A project of the demo organization, made through the provider. */
  async function orgProject(name: string): Promise<ProjectOutputs> {
    return (await projectProvider.create(inputs({ name, orgId: DEMO.orgId }))).outs as ProjectOutputs;
  }

  it("plans an in-place update, says at preview that the project moves, and moves it keeping its branches and computes", async () => {
    const made = await orgProject("moving");
    const branches = control()
      .dumpState()
      .branches.filter((b) => b.project_id === made.projectId)
      .map((b) => b.id);
    const news = inputs({ name: "moving", orgId: OTHER_ORG });
    const { lines, result: diff } = await linesOf(() => projectProvider.diff!(made.projectId, made, news));
    assert.deepEqual([diff.changes, diff.replaces], [true, []]);
    assert.deepEqual(lines, [
      `project ${made.projectId} (moving): the update moves the project from organization ${DEMO.orgId} to ` +
        `organization ${OTHER_ORG} in place (a transfer: its id, branches, computes and data stay; ` +
        `project-scoped API keys of organization ${DEMO.orgId} stop working for good)`,
    ]);
    const checked = await projectProvider.check!(inputs({ name: "moving", orgId: DEMO.orgId }), news);
    assert.equal(checked.failures, undefined, JSON.stringify(checked.failures));

    control().clearRequests();
    const updated = (await projectProvider.update!(made.projectId, made, news)).outs as ProjectOutputs;
    assert.equal(updated.orgId, OTHER_ORG);
    assert.equal(updated.projectId, made.projectId);
    assert.equal(updated.defaultEndpointId, made.defaultEndpointId);
    assert.equal(orgOf(made.projectId), OTHER_ORG);
    assert.deepEqual(
      control()
        .dumpState()
        .branches.filter((b) => b.project_id === made.projectId)
        .map((b) => b.id),
      branches,
    );
    assert.deepEqual(
      harness
        .writes()
        .map((line) => line.replace(/transfer_requests\/[0-9a-f-]+$/, "transfer_requests/{id}")),
      [
        `POST /projects/${made.projectId}/transfer_requests`,
        `PUT /projects/${made.projectId}/transfer_requests/{id}`,
      ],
    );
    const again = await projectProvider.diff!(made.projectId, updated, news);
    assert.equal(again.changes, false, "the next preview shows no change");
  });

  it("moves a personal project into an organization", async () => {
    const made = (await projectProvider.create(inputs({ name: "mine" }))).outs as ProjectOutputs;
    assert.equal(made.orgId, null);
    const news = inputs({ name: "mine", orgId: DEMO.orgId });
    const { lines, result } = await linesOf(() => projectProvider.diff!(made.projectId, made, news));
    assert.deepEqual(result.replaces, []);
    assert.deepEqual(lines, [
      `project ${made.projectId} (mine): the update moves the project from the personal account to organization ` +
        `${DEMO.orgId} in place (a transfer: its id, branches, computes and data stay)`,
    ]);
    const updated = (await projectProvider.update!(made.projectId, made, news)).outs as ProjectOutputs;
    assert.equal(updated.orgId, DEMO.orgId);
    assert.equal(orgOf(made.projectId), DEMO.orgId);
  });

  it("refuses at preview a key that is not an admin of the organization the project leaves, saying which key can", async () => {
    env.set({ CLOUDDB_API_KEY: DEMO.memberPersonalKey });
    control().addMember(OTHER_ORG, DEMO.memberUserId, "member");
    const { failures } = await projectProvider.check!(
      inputs({ name: "p", orgId: DEMO.orgId }),
      inputs({ name: "p", orgId: OTHER_ORG }),
    );
    assert.equal(failures?.length, 1, JSON.stringify(failures));
    assert.equal(failures?.[0]?.property, "orgId");
    assert.equal(
      failures?.[0]?.reason,
      `moving the project from organization ${DEMO.orgId} to organization ${OTHER_ORG} takes an admin of ` +
        `organization ${DEMO.orgId}, and this API key belongs to a user whose role is "member" of it. ` +
        `Use the personal API key of a user who is an admin of organization ${DEMO.orgId} and a member of ` +
        `organization ${OTHER_ORG} for this stack (\`pulumi config set --secret clouddb:apiKey <key>\`, or ` +
        "CLOUDDB_API_KEY), or move the project in the console and run `pulumi up --refresh`",
    );
    control().removeMember(OTHER_ORG, DEMO.memberUserId);
  });

  it("refuses at preview an organization's own key, which acts in one organization only", async () => {
    env.set({ CLOUDDB_API_KEY: DEMO.orgKey });
    const { failures } = await projectProvider.check!(
      inputs({ name: "p", orgId: DEMO.orgId }),
      inputs({ name: "p", orgId: OTHER_ORG }),
    );
    const reasons = (failures ?? []).map((f) => f.reason);
    assert.ok(
      reasons.some((r) =>
        r.includes("takes a user's personal API key, and this is an organization's or a project's own key"),
      ),
      reasons.join("\n"),
    );
    assert.ok(
      reasons.some((r) => r.startsWith(`this API key may not use organization ${OTHER_ORG} (403 Forbidden`)),
      reasons.join("\n"),
    );
  });

  it("refuses the move at update with what to do when the key may not give the project away, and leaves it where it was", async () => {
    const made = await orgProject("stays");
    env.set({ CLOUDDB_API_KEY: DEMO.memberPersonalKey });
    control().addMember(OTHER_ORG, DEMO.memberUserId, "member");
    try {
      await assert.rejects(
        projectProvider.update!(made.projectId, made, inputs({ name: "stays", orgId: OTHER_ORG })),
        (err: Error) => {
          assert.match(
            err.message,
            new RegExp(
              `^project ${made.projectId} cannot move from organization ${DEMO.orgId} to organization ${OTHER_ORG} with this API key: .*only organization admins can transfer the organization's projects`,
            ),
          );
          assert.match(err.message, /Use the personal API key of a user who is an admin of organization/);
          return true;
        },
      );
    } finally {
      control().removeMember(OTHER_ORG, DEMO.memberUserId);
    }
    assert.equal(orgOf(made.projectId), DEMO.orgId);
  });
});
