// Functions and triggers through the real engine (docs/api-rules.md §27). In TypeScript: `up`
// killed (SIGKILL of the CLI and the provider) after the service took a function's first deployment
// and before its answer reached the provider, then again after it made a trigger; each next
// unattended `up` takes the object its generated slug or name marks as the resource's own and
// records it once. Then a preview and a refresh with no change, new code and a new cron applied in
// place (a new deployment, a PATCH), and destroy. In YAML through the provider plugin: a function
// deployed outside Pulumi imported (the next `up` deploys the program's code to it), another
// adopted, a third with a generated slug invoked by a trigger with a generated name; the same
// cycle, the function's answer at its invocation URL (the emulator runs it) the program's code with
// the new value. No environment value reaches a state file or the engine's output.
import * as assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, type RunningEmulator } from "../../emulator";
import { createClient } from "../../provider/client";
import { zipFolder } from "../../provider/resources/inputs/zip";
import { type Declared, declareResources, useCrashFixture } from "./support/crashFixture";
import { upKilledThenRerun } from "./support/kill";
import { useDemoBranchYaml } from "./support/programStack";
import { assertNothingToChange, changesOf, collect, type E2eStack } from "./support/stack";

const P = DEMO.projectId;
const B = DEMO.branchId;
const DEPLOY = "POST /projects/{project_id}/branches/{branch_id}/functions/{slug}/deployments";
const CREATE_TRIGGER = "POST /projects/{project_id}/branches/{branch_id}/triggers";

/** The branch's functions and triggers as the emulator holds them. */
const onBranch = (emulator: RunningEmulator) => {
  const branch = emulator.control.dumpState().branches.find((b) => b.id === B);
  return { functions: branch?.functions ?? [], triggers: branch?.triggers ?? [] };
};

/** The resources of `type` (`Function`, `Trigger`) a stack's state records, by any provider. */
function recorded(e2e: E2eStack, type: string): { id?: string; outputs?: Record<string, unknown> }[] {
  const state = JSON.parse(e2e.rawState()) as {
    checkpoint: {
      latest?: { resources?: { type: string; id?: string; outputs?: Record<string, unknown> }[] };
    };
  };
  return (state.checkpoint.latest?.resources ?? []).filter((r) => r.type.endsWith(`clouddb:${type}`));
}

/** Asserts that `secret` is in neither the state file nor the engine's output. */
function neverShown(e2e: E2eStack, secret: string): void {
  assert.ok(!e2e.rawState().includes(secret), "an environment value is in the state file in plain text");
  assert.ok(!e2e.output.join("\n").includes(secret), "an environment value is in the engine's output");
}

describe("e2e: a function and its trigger converge after killed creates, change in place, and destroy", function () {
  this.timeout(8 * 60 * 1000);
  const suite = useCrashFixture("crash-function");
  const TOKEN = "tok-ts-9c41e0a7d2";
  let code: string;
  before(() => {
    code = mkdtempSync(join(tmpdir(), "clouddb-e2e-function-"));
    writeFileSync(join(code, "index.mjs"), "export default () => new Response('v1');\n");
  });
  after(() => rmSync(code, { recursive: true, force: true }));

  const api: Declared = {
    kind: "Function",
    res: "api",
    args: { projectId: P, branchId: B, environment: { API_TOKEN: "$secret:apiToken" } },
  };
  const nightly = (cron: string): Declared => ({
    kind: "Trigger",
    res: "nightly",
    args: { projectId: P, branchId: B, type: "schedule", functionSlug: "@api.slug", cron },
  });
  const declare = (...resources: Declared[]) =>
    declareResources(
      suite.e2e,
      resources.map((r) => (r.kind === "Function" ? { ...r, args: { ...r.args, source: code } } : r)),
    );

  it("kills up once the function's deployment is taken, then once the trigger is made; each next up takes its own, none twice", async () => {
    const { emulator, e2e } = suite;
    await e2e.stack.setConfig("apiToken", { value: TOKEN, secret: true });
    await declare(api);
    emulator.control.failNext(DEPLOY, { holdMs: 60_000 });
    await upKilledThenRerun(
      e2e,
      { killWhen: () => onBranch(emulator).functions.length === 1, killAfterMs: 300 },
      () => emulator.control.clearFaults(),
    );
    const [fn] = onBranch(emulator).functions;
    assert.equal(onBranch(emulator).functions.length, 1, "one function, not two");
    assert.match(fn?.slug ?? "", /^api[0-9a-f]{10}$/, "its slug generated from the resource's name");
    assert.equal(
      fn?.deployments.length,
      2,
      "the killed run's deployment, then the code deployed again to it",
    );
    assert.equal(recorded(e2e, "Function").length, 1, "recorded once");

    await declare(api, nightly("0 3 * * *"));
    emulator.control.failNext(CREATE_TRIGGER, { holdMs: 60_000 });
    await upKilledThenRerun(
      e2e,
      { killWhen: () => onBranch(emulator).triggers.length === 1, killAfterMs: 300 },
      () => emulator.control.clearFaults(),
    );
    const { triggers } = onBranch(emulator);
    assert.equal(triggers.length, 1, "one trigger, not two");
    assert.equal(triggers[0]?.function_slug, fn?.slug);
    assert.equal(recorded(e2e, "Trigger").length, 1, "recorded once");
    neverShown(e2e, TOKEN);
  });

  it("previews and refreshes with no change; new code deploys again and a new cron is a PATCH, both in place", async () => {
    const { emulator, e2e } = suite;
    await assertNothingToChange(emulator, e2e, 3);
    const [before] = recorded(e2e, "Function");
    writeFileSync(join(code, "index.mjs"), "export default () => new Response('v2');\n");
    await declare(api, nightly("*/30 * * * *"));
    const preview = await e2e.stack.preview({ diff: true });
    assert.match(
      preview.stdout,
      /~ sourceHash *: /,
      `the preview names new code as sourceHash: ${preview.stdout}`,
    );
    const up = await e2e.stack.up(collect(e2e.output));
    assert.deepEqual(changesOf(up), { same: 1, update: 2 }, e2e.output.join("\n"));
    const [after] = recorded(e2e, "Function");
    assert.equal(after?.id, before?.id, "the same function");
    assert.equal(after?.outputs?.deploymentId, 3, "a third deployment, completed before up ended");
    assert.equal(after?.outputs?.deploymentStatus, "completed");
    assert.deepEqual(
      onBranch(emulator).triggers.map((t) => [t.cron, t.version]),
      // Version 1 made by the killed run, 2 its PATCH to the inputs by the next, 3 the new cron.
      [["*/30 * * * *", 3]],
    );
    neverShown(e2e, TOKEN);
  });

  it("destroy deletes the trigger and the function", async () => {
    const { emulator, e2e } = suite;
    await e2e.stack.destroy(collect(e2e.output));
    assert.deepEqual(onBranch(emulator), { functions: [], triggers: [] });
    neverShown(e2e, TOKEN);
  });
});

describe("e2e: functions imported, adopted and made, and a trigger, in a YAML program through the plugin", function () {
  this.timeout(8 * 60 * 1000);
  const TOKEN = "tok-yaml-5b1d9c0e7a";
  const suite = useDemoBranchYaml("function-yaml", { CLOUDDB_POLL_INTERVAL_MS: "50,200" });

  it("imports one and deploys the program's code to it, adopts another, makes a third and its trigger; no change after; in place; destroy", async () => {
    const { emulator, e2e } = suite;
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    const elsewhere = mkdtempSync(join(tmpdir(), "clouddb-e2e-by-hand-"));
    try {
      writeFileSync(join(elsewhere, "index.mjs"), "export default () => new Response('by hand');\n");
      for (const slug of ["byhand", "keptbyhand"])
        await client.deployFunction(P, B, slug, { zip: zipFolder(elsewhere) });
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    const imported = await e2e.stack.import({
      resources: [{ type: "clouddb:index:Function", name: "api", id: `${P}/${B}/byhand` }],
      generateCode: false,
      ...collect(e2e.output),
    });
    assert.equal(imported.summary.resourceChanges?.import, 1, e2e.output.join("\n"));

    const up = await e2e.stack.up(collect(e2e.output));
    assert.deepEqual(changesOf(up), { same: 1, update: 1, create: 3 }, e2e.output.join("\n"));
    const { functions, triggers } = onBranch(emulator);
    const deployments = Object.fromEntries(functions.map((f) => [f.slug, f.deployments.length]));
    const fresh = String(up.outputs.freshSlug?.value);
    assert.deepEqual(
      deployments,
      { byhand: 2, keptbyhand: 2, [fresh]: 1 },
      "the program's code deployed to each",
    );
    assert.match(fresh, /^fresh[0-9a-f]{10}$/);
    assert.equal(functions.find((f) => f.slug === "keptbyhand")?.name, "Kept by hand");
    assert.deepEqual(
      triggers.map((t) => [t.name, t.function_slug]),
      [[String(up.outputs.nightlyName?.value), fresh]],
    );
    assert.match(String(up.outputs.nightlyName?.value), /^nightly_[0-9a-f]{10}$/);

    await assertNothingToChange(emulator, e2e, 5);

    await e2e.stack.setConfig("greeting", { value: "bonjour" });
    await e2e.stack.setConfig("cron", { value: "15 4 * * 1-5" });
    const preview = await e2e.stack.preview({ diff: true });
    assert.match(
      preview.stdout,
      /~ environment: \{\s*~ GREETING: \[secret\] => \[secret\]/,
      `the plugin's detailed diff names the variable, not its value: ${preview.stdout}`,
    );
    assert.ok(!preview.stdout.includes("bonjour"), "never its value");
    const changed = await e2e.stack.up(collect(e2e.output));
    assert.deepEqual(changesOf(changed), { same: 3, update: 2 }, e2e.output.join("\n"));
    const after = onBranch(emulator);
    assert.deepEqual(after.functions.find((f) => f.slug === "byhand")?.deployments.at(-1)?.environment, [
      "API_TOKEN",
      "GREETING",
    ]);
    assert.equal(after.functions.find((f) => f.slug === "byhand")?.deployments.length, 3);
    // The emulator runs the active deployment: the program's code, with the new greeting.
    const { invocation_url } = await client.getFunction(P, B, "byhand");
    const answer = await fetch(`${invocation_url}greet`);
    assert.deepEqual(await answer.json(), { greeting: "bonjour", path: "/greet" });
    assert.deepEqual(
      after.triggers.map((t) => t.cron),
      ["15 4 * * 1-5"],
    );

    await e2e.stack.destroy(collect(e2e.output));
    assert.deepEqual(onBranch(emulator), { functions: [], triggers: [] });
    neverShown(e2e, TOKEN);
  });
});
