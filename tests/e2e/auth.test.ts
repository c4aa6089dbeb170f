// Auth on a branch through the real engine: an `up` killed (SIGKILL of the CLI and the provider)
// after the service enabled Auth and before its answer reached the provider, and the next `up`
// taking that Auth over with keys of its own; a preview and a refresh with no change; a trusted
// domain changed in place; no client secret or key in the state file or the engine's output;
// destroy. Then Auth enabled outside Pulumi, brought into a YAML program through the provider
// plugin with `pulumi import`, changed in place, destroyed.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { call } from "../emulator/helpers";
import { crashFixtureStack, type Declared, declareResources } from "./support/crashFixture";
import { type CliRun, runCli } from "./support/kill";
import { fixture, programStack } from "./support/programStack";
import { changesOf, collect, type E2eStack, mutatingRequests, stateResources } from "./support/stack";

const P = DEMO.projectId;
const B = DEMO.branchId;
const CLIENT_SECRET = "gh-client-secret-5f1c";

const authOf = (emulator: RunningEmulator) =>
  emulator.control.dumpState().branches.find((b) => b.id === B)?.auth;

/**
 * The program's resources the state file records. The crash fixture takes its declarations from a
 * plain stack config, which the state copies into the engine's own resources (the stack, the
 * providers): a program gives a secret as a secret config instead, as the YAML program below does,
 * whose whole state file is checked.
 */
const resourcesOf = (e2e: E2eStack) =>
  JSON.stringify(stateResources(e2e.rawState()).filter((r) => !r.type.startsWith("pulumi:")));

/** Neither the secrets nor the keys of the branch's Auth appear in `texts` in the clear. */
function noSecretIn(emulator: RunningEmulator, texts: Record<string, string>, secrets: string[]): void {
  const auth = authOf(emulator);
  for (const secret of [...secrets, auth?.pub_client_key ?? "", auth?.secret_server_key ?? ""].filter(
    Boolean,
  ))
    for (const [where, text] of Object.entries(texts)) {
      const at = text.indexOf(secret);
      const around = text.slice(Math.max(0, at - 300), at).replaceAll(secret, "<secret>");
      assert.ok(at < 0, `${where} holds a secret in the clear (${secret.slice(0, 6)}...), after: ${around}`);
    }
}

describe("e2e: a branch's Auth converges after a killed create, changes in place, keeps its secrets", function () {
  this.timeout(8 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  const declared = (domain: string): Declared[] => [
    {
      kind: "BranchAuth",
      res: "auth",
      args: {
        projectId: P,
        branchId: B,
        trustedDomains: [domain],
        oauthProviders: [{ id: "github", clientId: "gh-id", clientSecret: CLIENT_SECRET }],
      },
    },
  ];
  const recorded = () =>
    stateResources(e2e.rawState()).filter((r) => r.type === "pulumi-nodejs:dynamic/clouddb:BranchAuth");

  async function nextRun(command: "up" | "destroy", kill?: Parameters<typeof runCli>[2]): Promise<CliRun> {
    await runCli(e2e, ["cancel", "--yes"]);
    return runCli(e2e, [command, "--yes", "--skip-preview"], kill);
  }

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
    e2e = await crashFixtureStack(emulator, "crash-auth", { env: { CLOUDDB_POLL_INTERVAL_MS: "50,200" } });
  });
  after(async () => {
    await nextRun("destroy").catch(() => undefined);
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("kills up as Auth is enabled and its answer held; the next up takes it over once, with its keys", async () => {
    await declareResources(e2e, declared("https://app.example.com"));
    emulator.control.failNext("POST /projects/{project_id}/branches/{branch_id}/auth", { holdMs: 60_000 });
    const killed = await nextRun("up", { killWhen: () => authOf(emulator) !== undefined, killAfterMs: 300 });
    assert.equal(killed.code, "killed", `up was not killed after Auth was enabled:\n${killed.output}`);
    assert.deepEqual(killed.leftover, [], "processes of the killed run still running 15 s after it");
    emulator.control.clearFaults();
    const run = await nextRun("up");
    assert.equal(run.code, 0, run.output);
    assert.equal(recorded().length, 1, "recorded once");
    const auth = authOf(emulator);
    assert.deepEqual(auth?.domains, ["https://app.example.com"]);
    assert.equal(auth?.oauth_providers.find((p) => p.id === "github")?.client_secret, CLIENT_SECRET);
    noSecretIn(emulator, { "the state's resources": resourcesOf(e2e), "the engine's output": run.output }, [
      CLIENT_SECRET,
    ]);
  });

  it("previews and refreshes with no change and no request that changes anything", async () => {
    emulator.control.clearRequests();
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { same: 2 }, e2e.output.join("\n"));
    const refresh = await e2e.stack.refresh(collect(e2e.output));
    assert.deepEqual(refresh.summary.resourceChanges, { same: 2 }, e2e.output.join("\n"));
    assert.deepEqual(mutatingRequests(emulator), []);
  });

  it("changes the trusted domain in place, its id and keys kept; destroy disables Auth; no secret anywhere", async () => {
    const before = authOf(emulator);
    const id = recorded()[0]?.id;
    await declareResources(e2e, declared("https://shop.example.com"));
    emulator.control.clearRequests();
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changesOf(up).update, 1, e2e.output.join("\n"));
    assert.deepEqual(
      mutatingRequests(emulator)
        .map((r) => r.route)
        .sort(),
      [
        "DELETE /projects/{project_id}/branches/{branch_id}/auth/domains",
        "POST /projects/{project_id}/branches/{branch_id}/auth/domains",
      ],
    );
    assert.equal(recorded()[0]?.id, id);
    assert.equal(authOf(emulator)?.pub_client_key, before?.pub_client_key);
    noSecretIn(
      emulator,
      { "the state's resources": resourcesOf(e2e), "the engine's output": e2e.output.join("\n") },
      [CLIENT_SECRET],
    );
    const run = await nextRun("destroy");
    assert.equal(run.code, 0, run.output);
    assert.equal(authOf(emulator), undefined);
  });
});

describe("e2e: a branch's Auth enabled outside Pulumi, imported into a YAML program through the plugin", function () {
  this.timeout(8 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  const byHand = async (method: string, path: string, body: unknown) => {
    const answer = await call(emulator.url, method, `/projects/${P}/branches/${B}/auth${path}`, {
      key: DEMO.personalKey,
      body,
    });
    assert.ok(answer.status < 300, answer.text);
  };

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
    e2e = await programStack({
      copyOf: fixture("auth-import-yaml"),
      emulator,
      language: "yaml",
      config: { projectId: P, branchId: B },
      secrets: { githubSecret: CLIENT_SECRET },
    });
  });
  after(async () => {
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("imports it; previews and refreshes with no change; changes a domain in place; destroy; no secret in the clear", async () => {
    await byHand("POST", "", { auth_provider: "better_auth" });
    await byHand("POST", "/domains", { domain: "https://app.example.com", auth_provider: "better_auth" });
    await byHand("PATCH", "/oauth_providers/github", { client_id: "gh-id", client_secret: CLIENT_SECRET });
    const imported = await e2e.stack.import({
      resources: [{ type: "clouddb:index:BranchAuth", name: "auth", id: `${P}/${B}` }],
      generateCode: false,
      ...collect(e2e.output),
    });
    assert.equal(imported.summary.resourceChanges?.import, 1, e2e.output.join("\n"));
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { same: 2 }, e2e.output.join("\n"));
    const refresh = await e2e.stack.refresh(collect(e2e.output));
    assert.deepEqual(
      Object.keys(refresh.summary.resourceChanges ?? {}).filter((kind) => kind !== "same"),
      [],
      e2e.output.join("\n"),
    );
    await e2e.stack.setConfig("domain", { value: "https://shop.example.com" });
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changesOf(up).update, 1, e2e.output.join("\n"));
    assert.deepEqual(authOf(emulator)?.domains, ["https://shop.example.com"]);
    noSecretIn(emulator, { "the state file": e2e.rawState(), "the engine's output": e2e.output.join("\n") }, [
      CLIENT_SECRET,
    ]);
    await e2e.stack.destroy(collect(e2e.output));
    assert.equal(authOf(emulator), undefined);
  });
});
