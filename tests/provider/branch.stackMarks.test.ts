import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { createClient } from "../../provider/client";
import { STACK_MARKS, stackOfUrn } from "../../provider/resources/lifecycle/owner";
import { type BranchInputs, branchProvider } from "../../provider/resources/public/branch";
import { type ProjectInputs, projectProvider } from "../../provider/resources/public/project";
import { PROVIDER_TEXT, useEmulator } from "./support";

// Every branch a stack makes carries the stack's mark in its annotation: the Pulumi project and
// stack of the resource's URN, the create's time and, for a preview, its pull request.

const URN = "urn:pulumi:pr-123::shop::pulumi-nodejs:dynamic/clouddb:Branch::preview";

describe("the stack's mark on the branches a stack makes", () => {
  const harness = useEmulator();
  const api = () => createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });

  it("reads the stack and the project from a URN, and nothing from what is not one", () => {
    assert.deepEqual(stackOfUrn(URN), { stack: "pr-123", project: "shop" });
    assert.deepEqual(stackOfUrn("urn:pulumi:dev::app::clouddb:index:Branch::b"), {
      stack: "dev",
      project: "app",
    });
    assert.equal(stackOfUrn("04da6b54-80e4-46f7-96ec-b56ff0331ba9"), undefined);
    assert.equal(stackOfUrn("urn:pulumi:dev"), undefined);
  });

  it("annotates a new branch with its project, stack, creation time and pull request", async () => {
    const before = Date.now();
    const news = { projectId: DEMO.projectId, pullRequest: "123", __owner: URN, __provider: PROVIDER_TEXT };
    const checked = await branchProvider.check!({} as BranchInputs, news as BranchInputs);
    assert.deepEqual(checked.failures ?? [], []);
    const made = await branchProvider.create(checked.inputs as BranchInputs);
    const { annotations } = await api().listAnnotatedBranches(DEMO.projectId);
    const mark = annotations.get(made.id) ?? {};
    assert.equal(mark[STACK_MARKS.project], "shop");
    assert.equal(mark[STACK_MARKS.stack], "pr-123");
    assert.equal(mark[STACK_MARKS.pullRequest], "123");
    const at = Date.parse(mark[STACK_MARKS.createdAt] ?? "");
    assert.ok(at >= before && at <= Date.now(), `created-at ${mark[STACK_MARKS.createdAt]}`);
    assert.equal(made.outs?.pullRequest, "123");
    // The URN is kept for the create only: the outputs never record it.
    assert.equal((made.outs as Record<string, unknown>).__owner, undefined);
  });

  it("leaves the pull request out of the mark of a branch that names none", async () => {
    const news = { projectId: DEMO.projectId, __owner: `${URN}2`, __provider: PROVIDER_TEXT };
    const checked = await branchProvider.check!({} as BranchInputs, news as BranchInputs);
    const made = await branchProvider.create(checked.inputs as BranchInputs);
    const mark = (await api().listAnnotatedBranches(DEMO.projectId)).annotations.get(made.id) ?? {};
    assert.equal(mark[STACK_MARKS.stack], "pr-123");
    assert.equal(STACK_MARKS.pullRequest in mark, false);
  });

  it("annotates a new project's default branch with the project's stack", async () => {
    const owner = "urn:pulumi:staging::shop::pulumi-nodejs:dynamic/clouddb:Project::main";
    const news = { __owner: owner, __provider: PROVIDER_TEXT };
    const checked = await projectProvider.check!({} as ProjectInputs, news as ProjectInputs);
    const made = await projectProvider.create(checked.inputs as ProjectInputs);
    const { branches, annotations } = await api().listAnnotatedBranches(made.id);
    const root = branches.find((b) => b.default === true);
    assert.ok(root !== undefined, "the project has a default branch");
    const mark = annotations.get(root.id) ?? {};
    assert.equal(mark[STACK_MARKS.stack], "staging");
    assert.equal(mark[STACK_MARKS.project], "shop");
    assert.ok(!Number.isNaN(Date.parse(mark[STACK_MARKS.createdAt] ?? "")));
  });
});
