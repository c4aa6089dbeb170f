// A branch's service credentials through the real engine. In TypeScript: an `up` killed (SIGKILL of
// the CLI and the provider) after the service issued the credential and before its answer reached
// the provider; the next unattended `up` takes that credential, with its secrets, and issues no
// second one; then a preview and a refresh with no change, a rotation that issues the new
// credential before it revokes the old one, and destroy. Through the plugin, in YAML: credentials
// issued outside Pulumi imported and adopted with their secrets, one issued and rotated, destroy.
// No token or S3 secret is in the state file or the engine's output, in either.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import type { CredentialRecord } from "../../emulator/records";
import { call } from "../emulator/helpers";
import { crashFixtureStack, declareResources } from "./support/crashFixture";
import { type CliRun, runCli } from "./support/kill";
import { fixture, programStack } from "./support/programStack";
import { changesOf, collect, type E2eStack, mutatingRequests } from "./support/stack";

const P = DEMO.projectId;
const B = DEMO.branchId;
const ISSUE = "POST /projects/{project_id}/branches/{branch_id}/credentials";
const REVOKE = "DELETE /projects/{project_id}/branches/{branch_id}/credentials/{token_id}";

/** The branch's credentials as the emulator holds them. */
const credentials = (emulator: RunningEmulator): CredentialRecord[] =>
  emulator.control.dumpState().branches.find((b) => b.id === B)?.credentials ?? [];
const live = (emulator: RunningEmulator) =>
  credentials(emulator).filter((c) => c.revoked_at_ms === undefined);

/** Asserts that no secret of any credential the emulator ever issued is in the state file or the output. */
function noSecretLeaks(emulator: RunningEmulator, e2e: E2eStack): void {
  const state = e2e.rawState();
  const output = e2e.output.join("\n");
  const secrets = credentials(emulator).flatMap((c) => [c.api_token, c.s3_secret_access_key]);
  assert.ok(secrets.length > 0);
  for (const secret of secrets) {
    assert.ok(!state.includes(secret), "a credential's secret is in the state file in plain text");
    assert.ok(!output.includes(secret), "a credential's secret is in the engine's output");
  }
}

describe("e2e: a credential converges after a killed run, rotates create-before-revoke, keeps its secrets secret", function () {
  this.timeout(8 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  const declared = (rotation: string) => [
    {
      kind: "Credential",
      res: "uploads",
      args: {
        projectId: P,
        branchId: B,
        name: "uploads",
        scopes: ["storage:read"],
        rotationTrigger: rotation,
      },
    },
  ];

  async function nextRun(command: "up" | "destroy", kill?: Parameters<typeof runCli>[2]): Promise<CliRun> {
    await runCli(e2e, ["cancel", "--yes"]);
    return runCli(e2e, [command, "--yes", "--skip-preview"], kill);
  }

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
    e2e = await crashFixtureStack(emulator, "crash-credential", {
      env: { CLOUDDB_POLL_INTERVAL_MS: "50,200" },
    });
  });
  after(async () => {
    await nextRun("destroy").catch(() => undefined);
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("kills up once the credential is issued and its answer held; the next up takes it and issues no other", async () => {
    await declareResources(e2e, declared("1"));
    emulator.control.failNext(ISSUE, { holdMs: 60_000 });
    const killed = await nextRun("up", {
      killWhen: () => credentials(emulator).length > 0,
      killAfterMs: 300,
    });
    assert.equal(
      killed.code,
      "killed",
      `up was not killed after the credential was issued:\n${killed.output}`,
    );
    assert.deepEqual(killed.leftover, [], "processes of the killed run still running 15 s after it");
    emulator.control.clearFaults();
    const run = await nextRun("up");
    assert.equal(run.code, 0, run.output);
    assert.equal(credentials(emulator).length, 1, "no second credential");
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(Object.keys(preview.changeSummary), ["same"], "nothing left to change");
  });

  it("previews and refreshes with no change and no request that changes anything", async () => {
    emulator.control.clearRequests();
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { same: 2 }, e2e.output.join("\n"));
    const refresh = await e2e.stack.refresh(collect(e2e.output));
    assert.deepEqual(refresh.summary.resourceChanges, { same: 2 }, e2e.output.join("\n"));
    assert.deepEqual(mutatingRequests(emulator), []);
  });

  it("rotates: the new credential is issued before the old one is revoked", async () => {
    const [old] = live(emulator);
    await declareResources(e2e, declared("2"));
    emulator.control.clearRequests();
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changesOf(up).replace, 1, e2e.output.join("\n"));
    assert.deepEqual(
      mutatingRequests(emulator).map((r) => r.route),
      [ISSUE, REVOKE],
    );
    const [fresh] = live(emulator);
    assert.ok(old && fresh && fresh.token_id !== old.token_id);
    assert.equal(live(emulator).length, 1);
  });

  it("destroy revokes it; no secret was ever in the state file or the output", async () => {
    const run = await nextRun("destroy");
    assert.equal(run.code, 0, run.output);
    assert.deepEqual(live(emulator), []);
    noSecretLeaks(emulator, e2e);
    for (const c of credentials(emulator)) assert.ok(!run.output.includes(c.api_token));
  });
});

describe("e2e: credentials imported and adopted into a YAML program through the plugin, one issued and rotated", function () {
  this.timeout(8 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  const byHand = async (name: string, scopes: string[]): Promise<string> => {
    const answer = await call(emulator.url, "POST", `/projects/${P}/branches/${B}/credentials`, {
      key: DEMO.personalKey,
      body: { name, scopes, principal_type: "user" },
    });
    assert.equal(answer.status, 201, answer.text);
    return answer.body.token_id;
  };

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
  });
  after(async () => {
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("imports one, adopts another, issues a third; previews and refreshes with no change; rotates; destroy", async () => {
    const importedId = await byHand("imported by hand", ["storage:read"]);
    const adoptedId = await byHand("adopted by hand", ["storage:read", "storage:write"]);
    e2e = await programStack({
      copyOf: fixture("credential-yaml"),
      emulator,
      language: "yaml",
      config: { projectId: P, branchId: B, adoptedTokenId: adoptedId },
    });
    const imported = await e2e.stack.import({
      resources: [{ type: "clouddb:index:Credential", name: "imported", id: `${P}/${B}/${importedId}` }],
      generateCode: false,
      ...collect(e2e.output),
    });
    assert.equal(imported.summary.resourceChanges?.import, 1, e2e.output.join("\n"));
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changesOf(up).create, 2, e2e.output.join("\n"));
    assert.equal(credentials(emulator).length, 3, "the adopted one taken, one issued");
    assert.equal(up.outputs.apiToken?.secret, true, "the token output is a secret");

    emulator.control.clearRequests();
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(Object.keys(preview.changeSummary), ["same"], e2e.output.join("\n"));
    const refresh = await e2e.stack.refresh(collect(e2e.output));
    assert.deepEqual(
      Object.keys(refresh.summary.resourceChanges ?? {}).filter((kind) => kind !== "same"),
      [],
      e2e.output.join("\n"),
    );
    assert.deepEqual(mutatingRequests(emulator), []);

    await e2e.stack.setConfig("rotation", { value: "r2" });
    const rotated = await e2e.stack.up(collect(e2e.output));
    assert.equal(changesOf(rotated).replace, 1, e2e.output.join("\n"));
    assert.deepEqual(
      mutatingRequests(emulator).map((r) => r.route),
      [ISSUE, REVOKE],
    );
    assert.equal(live(emulator).length, 3);

    await e2e.stack.destroy(collect(e2e.output));
    assert.deepEqual(live(emulator), [], "destroy revokes the imported, adopted and issued credentials");
    noSecretLeaks(emulator, e2e);
  });
});
