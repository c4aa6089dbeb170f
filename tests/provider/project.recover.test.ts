import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { createClient } from "../../provider/client";
import { forgetPreflight } from "../../provider/resources/lifecycle/preflight";
import {
  type ProjectInputs,
  type ProjectOutputs,
  projectProvider,
} from "../../provider/resources/public/project";
import { linesOf, PROVIDER_TEXT, projectIdle, useEmulator } from "./support";

// Adopting a deleted project recovers it (docs/api-rules.md §22): within 7 days of its deletion the
// service brings it back with its branches and computes, and the preview says that it will.

const DAY = 86_400_000;

function inputs(values: Partial<ProjectInputs> = {}): ProjectInputs {
  return { ...values, __provider: PROVIDER_TEXT } as ProjectInputs;
}

describe("Project: adopting a deleted project recovers it", () => {
  const harness = useEmulator();
  const control = () => harness.emulator.control;
  const client = () => createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });

  /** A project made and deleted out of band, as a destroyed stack leaves it; its id and its branches' ids. */
  async function deletedProject(name: string): Promise<{ id: string; branches: string[] }> {
    const made = await client().createProject({ project: { name } });
    const id = made.project.id;
    await client().createBranch(id, { branch: { name: "dev" } });
    await projectIdle(harness.emulator, id);
    const branches = (await client().listBranches(id)).map((b) => b.id).sort();
    await client().deleteProject(id);
    control().clearRequests();
    return { id, branches };
  }

  beforeEach(() => {
    forgetPreflight();
    control().clearRequests();
  });

  it("says at preview that the create recovers the project, then recovers it with its branches and adopts it", async () => {
    const { id, branches } = await deletedProject("gone");
    const { lines: preview } = await linesOf(() =>
      projectProvider.check!({} as ProjectInputs, inputs({ adoptExisting: id })),
    );
    assert.deepEqual(preview, [
      `project ${id}: it was deleted and can still be recovered (for 7 days after its deletion): ` +
        "the create recovers it, with its branches and computes, and adopts it",
    ]);
    assert.deepEqual(harness.writes(), [], "the preview changed nothing");

    const { lines: up, result: made } = await linesOf(() =>
      projectProvider.create(inputs({ adoptExisting: id })),
    );
    assert.deepEqual(up, [
      `project ${id}: recovered (it was deleted less than 7 days ago), with its branches and computes`,
    ]);
    const outs = made.outs as ProjectOutputs;
    assert.equal(made.id, id);
    assert.equal(outs.name, "gone");
    assert.match(outs.connectionUri, /^postgresql:\/\//);
    assert.deepEqual(harness.writes(), [`POST /projects/${id}/recover`]);
    assert.deepEqual((await client().listBranches(id)).map((b) => b.id).sort(), branches);
  });

  it("adopts a live project without recovering anything, and says nothing at preview", async () => {
    const { lines: preview } = await linesOf(() =>
      projectProvider.check!({} as ProjectInputs, inputs({ adoptExisting: DEMO.projectId })),
    );
    assert.deepEqual(preview, []);
    await projectProvider.create(inputs({ adoptExisting: DEMO.projectId }));
    assert.deepEqual(harness.writes(), []);
  });

  it("refuses to adopt a project deleted past the recovery window, as one that does not exist, having said nothing at preview", async () => {
    const { id } = await deletedProject("long-gone");
    control().advance(7 * DAY + 1000);
    const { lines: preview } = await linesOf(() =>
      projectProvider.check!({} as ProjectInputs, inputs({ adoptExisting: id })),
    );
    assert.deepEqual(preview, []);
    await assert.rejects(
      projectProvider.create(inputs({ adoptExisting: id })),
      new RegExp(`adoptExisting: project ${id} was not found; check both ids`),
    );
    assert.deepEqual(harness.writes(), [`POST /projects/${id}/recover`]);
  });
});
