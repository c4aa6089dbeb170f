// The in-repo examples under the real Pulumi engine, against the emulator: the quickstart through
// the root Pulumi.yaml (what `npm start` runs), the GitOps preview-branches pattern, and the
// preview environment with the workflow users copy next to it.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { parse as parseYaml } from "yaml";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { apiKeySecretsIn, collect, createStack, type E2eStack, prepareEngine, ROOT } from "./support/stack";

const EXAMPLE = path.join(ROOT, "examples/preview-environment");
const execFileAsync = promisify(execFile);
const DAY_MS = 24 * 60 * 60 * 1000;

/** The parts of a GitHub Actions workflow the test runs. */
interface Workflow {
  env: Record<string, string>;
  jobs: Record<string, { steps: { run?: string }[] }>;
}

describe("e2e: the in-repo examples under the real Pulumi engine", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack | undefined;

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
  });
  after(async () => emulator?.stop());
  afterEach(async () => {
    if (e2e === undefined) return;
    await e2e.stack.destroy().catch(() => undefined);
    await e2e.dispose();
    // The Automation API writes the stack's config file next to Pulumi.yaml.
    fs.rmSync(path.join(e2e.stack.workspace.workDir, `Pulumi.${e2e.stack.name}.yaml`), { force: true });
    e2e = undefined;
  });

  it("quickstart (the root project): creates three keys and two branches, reads projects and operations, destroys", async () => {
    e2e = await createStack({
      workDir: ROOT,
      stackName: `e2e-quickstart-${process.pid}`,
      apiUrl: emulator.url,
      apiKey: DEMO.personalKey,
      config: { orgId: DEMO.orgId, projectId: DEMO.orgProjectId },
    });
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(up.summary.resourceChanges?.create, 6, e2e.output.join("\n"));
    const out = await e2e.stack.outputs();
    const secrets = apiKeySecretsIn(e2e.rawState());
    assert.equal(secrets.length, 3);
    for (const s of secrets) assert.ok(s.encrypted, `${s.urn}: key not encrypted in state`);
    const keys = out.keys!.value as Record<string, { id: number; token: string }>;
    assert.deepEqual(Object.keys(keys).sort(), ["app", "ci", "org"]);
    const branches = out.branches!.value as {
      dev: { endpoints: { type: string }[] };
      feature: { parent: string };
    };
    assert.deepEqual(branches.dev.endpoints.map((e) => e.type).sort(), ["read_only", "read_write"]);
    assert.ok((out.organizationProjects!.value as string[]).some((p) => p.startsWith(DEMO.orgProjectId)));
    const ops = out.recentOperations!.value as string[];
    assert.ok(ops.includes("create_branch: finished"), ops.join(", "));
    await e2e.stack.destroy(collect(e2e.output));
    const snap = emulator.control.snapshot();
    for (const k of Object.values(keys)) assert.equal(snap.apiKeys.find((x) => x.id === k.id)?.revoked, true);
  });

  it("preview-branches: adding a pull request creates its branch and key, removing it deletes both", async () => {
    e2e = await createStack({
      workDir: path.join(ROOT, "examples/preview-branches"),
      stackName: `e2e-previews-${process.pid}`,
      apiUrl: emulator.url,
      apiKey: DEMO.personalKey,
      config: { orgId: DEMO.orgId, projectId: DEMO.orgProjectId },
    });
    await e2e.stack.setConfig("pullRequests", { value: "[101, 102]" });
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(up.summary.resourceChanges?.create, 5, e2e.output.join("\n"));
    const previews = (await e2e.stack.outputs()).previews!.value as Record<
      string,
      { branchId: string; keyId: number }
    >;
    assert.deepEqual(Object.keys(previews).sort(), ["pr-101", "pr-102"]);

    await e2e.stack.setConfig("pullRequests", { value: "[102]" });
    const shrink = await e2e.stack.up(collect(e2e.output));
    assert.equal(shrink.summary.resourceChanges?.delete, 2, e2e.output.join("\n"));
    const snap = emulator.control.snapshot();
    const gone = previews["pr-101"]!;
    assert.ok(
      snap.branches.find((b) => b.id === gone.branchId)?.deleted_at_ms !== undefined,
      "branch deleted",
    );
    assert.equal(snap.apiKeys.find((k) => k.id === gone.keyId)?.revoked, true, "key revoked");
    const kept = previews["pr-102"]!;
    assert.equal(snap.branches.find((b) => b.id === kept.branchId)?.deleted_at_ms, undefined);
  });

  /** The branches of the demo organization's project, by name. */
  const branchesByName = () =>
    new Map(
      emulator.control
        .snapshot()
        .branches.filter((b) => b.project_id === DEMO.orgProjectId && b.deleted_at_ms === undefined)
        .map((b) => [b.name, b]),
    );

  it("preview-environment: a pull request's stack: a schema-only branch that expires, a role, a database, DATABASE_URL as a secret; destroy removes them", async () => {
    e2e = await createStack({
      workDir: EXAMPLE,
      stackName: `e2e-pr-${process.pid}`,
      apiUrl: emulator.url,
      apiKey: DEMO.personalKey,
      config: { projectId: DEMO.orgProjectId, pullRequest: "7", expiresInDays: "2" },
    });
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(up.summary.resourceChanges?.create, 4, e2e.output.join("\n"));

    const out = await e2e.stack.outputs();
    assert.equal(out.DATABASE_URL?.secret, true, "DATABASE_URL must be a secret output");
    const url = new URL(String(out.DATABASE_URL?.value));
    assert.equal(url.protocol, "postgresql:");
    assert.equal(url.username, "app");
    assert.equal(url.pathname, "/app");
    assert.ok(url.password.length > 0, "the connection string carries the role's password");

    const branch = branchesByName().get("preview/pr-7");
    assert.ok(branch, "the branch is named after the pull request");
    assert.equal(branch.id, out.branchId?.value);
    assert.equal(branch.init_source, "schema-only");
    const ttl = Date.parse(String(out.expiresAt?.value)) - Date.now();
    assert.ok(ttl > 1.9 * DAY_MS && ttl <= 2 * DAY_MS, `expires in ${ttl} ms, not about 2 days`);

    const raw = e2e.rawState();
    assert.ok(!raw.includes("postgresql://"), "a connection string is in the state in plaintext");
    assert.ok(!raw.includes(url.password), "the role's password is in the state in plaintext");

    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { same: 4 }, e2e.output.join("\n"));

    await e2e.stack.destroy(collect(e2e.output));
    assert.equal(branchesByName().get("preview/pr-7"), undefined, "destroy leaves the branch behind");
  });

  it("preview-environment's workflow: its own commands, run in order: opened creates the stack and masks DATABASE_URL; closed destroys and removes it", async () => {
    prepareEngine();
    const workflow = parseYaml(
      fs.readFileSync(path.join(EXAMPLE, "preview-environment.yml"), "utf8"),
    ) as Workflow;
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-workflow-"));
    const programDir = path.join(work, "program");
    fs.cpSync(EXAMPLE, programDir, {
      recursive: true,
      filter: (src) => !path.basename(src).startsWith("Pulumi.") || src.endsWith("Pulumi.yaml"),
    });
    // The copied program imports the package by name: this repository, as a user's node_modules would hold it.
    fs.mkdirSync(path.join(programDir, "node_modules"));
    fs.symlinkSync(ROOT, path.join(programDir, "node_modules", "pulumi-clouddb"));
    for (const dep of ["@pulumi", "typescript", "ts-node", "@types"])
      fs.symlinkSync(path.join(ROOT, "node_modules", dep), path.join(programDir, "node_modules", dep));
    fs.writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: "preview-environment" }));
    const githubEnv = path.join(work, "github-env");
    fs.writeFileSync(githubEnv, "");
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "",
      HOME: work,
      PULUMI_HOME: path.join(work, ".pulumi-home"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      GITHUB_ENV: githubEnv,
      // What GitHub substitutes into the workflow's env block.
      PROGRAM_DIR: programDir,
      STACK: "pr-9",
      PULL_REQUEST: "9",
      CLOUDDB_PROJECT_ID: DEMO.orgProjectId,
      CLOUDDB_API_KEY: DEMO.personalKey,
      CLOUDDB_API_URL: emulator.url,
      PULUMI_BACKEND_URL: `file://${work}`,
      PULUMI_CONFIG_PASSPHRASE: "workflow-passphrase",
    };
    assert.deepEqual(
      Object.keys(workflow.env).sort(),
      Object.keys(env)
        .filter((k) => k in workflow.env)
        .sort(),
    );
    // The emulator answers from this process: steps run without blocking it.
    const runJob = async (job: string) => {
      const log: string[] = [];
      for (const step of workflow.jobs[job]?.steps ?? []) {
        // Dependencies come from this repository; the workflow's `npm ci` installs them in a user's.
        if (step.run === undefined || step.run.trim() === "npm ci") continue;
        // How GitHub Actions runs a `run:` step with bash.
        const run = await execFileAsync(
          "bash",
          ["--noprofile", "--norc", "-eo", "pipefail", "-c", step.run],
          {
            cwd: programDir,
            env,
            encoding: "utf8",
          },
        ).catch((err: { stdout?: string; stderr?: string }) =>
          assert.fail(`${step.run}\n${err.stdout ?? ""}\n${err.stderr ?? ""}`),
        );
        log.push(run.stdout);
      }
      return log.join("\n");
    };
    try {
      const upLog = await runJob("up");
      const exported = fs.readFileSync(githubEnv, "utf8");
      const url = /^DATABASE_URL=(postgresql:\/\/\S+)$/m.exec(exported)?.[1];
      assert.ok(url, `the up job exports DATABASE_URL: ${exported}`);
      assert.ok(
        upLog.includes(`::add-mask::${url}`),
        "the connection string is masked before it is exported",
      );
      assert.ok(branchesByName().has("preview/pr-9"));

      await runJob("destroy");
      assert.equal(branchesByName().get("preview/pr-9"), undefined);
      const { stdout: stacks } = await execFileAsync("pulumi", ["stack", "ls", "--json"], {
        cwd: programDir,
        env,
        encoding: "utf8",
      });
      assert.deepEqual(JSON.parse(stacks), [], "the pull request's stack is removed");
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
