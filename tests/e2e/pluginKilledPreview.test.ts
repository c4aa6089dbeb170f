// The YAML preview environment (examples/preview-environment-yaml) when only its provider plugin
// dies: `kill -9` of `pulumi-resource-clouddb` during the branch's create, and on the next run
// during the role's, while the CLI lives on and fails the update. The workflow's command
// (`pulumi cancel`, then `pulumi up --refresh --yes`) converges with one branch and one role, no
// orphan, then a preview with no change; destroy leaves nothing; no key and no connection string
// with its password in any file of the backend or anything the CLI printed.
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { killPlugins, runCli } from "./support/kill";
import { programStack } from "./support/programStack";
import { collect, type E2eStack, leaks, leaksUnder, ROOT } from "./support/stack";
import { previewOnBranch } from "./support/workflow";

const PULL_REQUEST = "77";

describe("e2e: the YAML preview environment, its provider plugin killed during creates, converges", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  /** Everything the CLI printed, across the suite's commands. */
  const printed: string[] = [];

  /** The pull request's live branches and the roles on them that are not their parent's. */
  const onBranch = () => previewOnBranch(emulator, DEMO.projectId, PULL_REQUEST);

  before(async () => {
    // Operations take 1.5 s: the plugin waits on each create's, so the kill lands inside it.
    emulator = await startEmulator({ seed: "demo", opDurationMs: 1500 });
    e2e = await programStack({
      copyOf: path.join(ROOT, "examples/preview-environment-yaml"),
      emulator,
      language: "yaml",
      stackName: `pr-${PULL_REQUEST}`,
      config: { projectId: DEMO.projectId, pullRequest: PULL_REQUEST },
      env: { CLOUDDB_POLL_INTERVAL_MS: "50,200" },
    });
  });
  after(async () => {
    await e2e?.dispose({ destroy: true });
    await emulator?.stop();
  });

  it("fails the update when the plugin is killed during the branch's create, then the role's; the workflow's command converges with no orphan", async () => {
    const kills: [string, () => boolean][] = [
      ["the branch's create", () => onBranch().branches.length >= 1],
      ["the role's create", () => onBranch().roles.length >= 1],
    ];
    for (const [what, when] of kills) {
      await runCli(e2e, ["cancel", "--yes"]);
      const up = runCli(e2e, ["up", "--yes", "--skip-preview"]);
      let killed = 0;
      let ended = false;
      void up.then(() => {
        ended = true;
      });
      while (!ended && killed === 0) {
        if (when()) killed = killPlugins(e2e.stack.workspace.workDir);
        await new Promise((r) => setTimeout(r, 25));
      }
      const run = await up;
      printed.push(run.output);
      assert.ok(killed >= 1, `no plugin process was killed during ${what}:\n${run.output}`);
      // The CLI lives on: it reports the failed update and exits with an error of its own.
      assert.notEqual(
        run.code,
        0,
        `up succeeded though its plugin was killed during ${what}:\n${run.output}`,
      );
      assert.notEqual(run.code, "killed");
    }
    assert.equal(onBranch().branches.length, 1, "the killed runs made one branch");

    // The workflow's command.
    await runCli(e2e, ["cancel", "--yes"]);
    const run = await runCli(e2e, ["up", "--refresh", "--yes"]);
    printed.push(run.output);
    assert.equal(run.code, 0, run.output);
    const { branches, roles } = onBranch();
    assert.equal(branches.length, 1, `one branch, no orphan: ${JSON.stringify(branches.map((b) => b.id))}`);
    assert.equal(roles.length, 1, `one role, no orphan: ${JSON.stringify(roles.map((r) => r.name))}`);
    const outputs = await e2e.stack.outputs();
    assert.equal(outputs.branchId?.value, branches[0]?.id);
    assert.equal(outputs.roleName?.value, roles[0]?.name);
    assert.equal(outputs.DATABASE_URL?.secret, true, "DATABASE_URL is a secret output");

    const preview = await e2e.stack.preview(collect(e2e.output));
    printed.push(...e2e.output);
    assert.deepEqual(
      Object.keys(preview.changeSummary).filter((kind) => kind !== "same"),
      [],
      e2e.output.join("\n"),
    );
    assert.deepEqual(leaksUnder(e2e.backendDir), [], "in the backend's files");

    await e2e.stack.destroy(collect(e2e.output));
    printed.push(...e2e.output);
    assert.deepEqual(onBranch(), { branches: [], roles: [] });
    assert.deepEqual(leaks(printed.join("\n")), [], "in the CLI's output");
  });
});
