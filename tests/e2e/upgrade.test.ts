// A stack made by an earlier version of the package keeps working under this one: the package as
// it was on commit EARLIER (its state's code names module files by path: `lazyProvider(".../
// resources/branchMethods.js")`, files this version has moved) makes a stack, then the program is
// upgraded to this package. Refresh and a delete run the earlier state's code; preview, refresh and
// an update after it show what a user expects: no change, then exactly the change made.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { CRASH_FIXTURE, type Declared, declareResources } from "./support/crashFixture";
import { runCli } from "./support/kill";
import { installPacked } from "./support/package";
import { programStack } from "./support/programStack";
import { type E2eStack, prepareEngine, ROOT, stateResources } from "./support/stack";

/** The last commit whose package put module paths in the state (the 0.0.x state format). */
const EARLIER = "edd6786";

const PROJECT = DEMO.projectId;
const program = (branchName: string, withKey: boolean): Declared[] => [
  ...(withKey ? [{ kind: "ApiKey", res: "key", args: { name: "upgrade-key" } }] : []),
  { kind: "Branch", res: "app", args: { projectId: PROJECT, name: branchName } },
  { kind: "Endpoint", res: "compute", args: { projectId: PROJECT, branchId: "@app.branchId" } },
  { kind: "Role", res: "owner", args: { projectId: PROJECT, branchId: "@compute.branchId" } },
  {
    kind: "Database",
    res: "db",
    args: { projectId: PROJECT, branchId: "@owner.branchId", ownerName: "@owner.name" },
  },
  {
    kind: "Bucket",
    res: "files",
    args: { projectId: PROJECT, branchId: "@app.branchId", forceDestroy: true },
  },
];

/** The package's source at `commit`, built (`lib/provider/`) with this checkout's dependencies. */
function builtAt(commit: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-earlier-"));
  execFileSync("bash", ["-c", `git -C "${ROOT}" archive ${commit} | tar -x -C "${dir}"`]);
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
  });
  return dir;
}

describe("e2e: a stack made by the earlier package previews, refreshes, updates and destroys under this one", function () {
  this.timeout(15 * 60 * 1000);
  const pulumiVersion = (
    JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    }
  ).devDependencies["@pulumi/pulumi"] as string;
  let earlier: string;
  let project: string;
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  const cli = (...args: string[]) => runCli(e2e, args);
  const resources = () => stateResources(e2e.rawState()).filter((r) => r.type.includes("clouddb:"));
  const codeOf = (r: { inputs?: Record<string, unknown> }) => String(r.inputs?.__provider ?? "");

  before(async () => {
    prepareEngine();
    earlier = builtAt(EARLIER);
    project = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-upgrade-"));
    for (const file of ["index.js", "Pulumi.yaml"])
      fs.copyFileSync(path.join(CRASH_FIXTURE, file), path.join(project, file));
    installPacked(earlier, project, { "@pulumi/pulumi": pulumiVersion });
    emulator = await startEmulator({ seed: "demo", opDurationMs: 20 });
    e2e = await programStack({
      workDir: project,
      emulator,
      config: { resources: JSON.stringify(program("upgrade-app", true)) },
      env: { CLOUDDB_POLL_INTERVAL_MS: "20,100" },
    });
  });
  after(async () => {
    if (e2e !== undefined) await cli("destroy", "--yes", "--skip-preview").catch(() => undefined);
    await e2e?.dispose();
    await emulator?.stop();
    for (const dir of [earlier, project])
      if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("the earlier package makes the stack, its state naming each kind's module file", async () => {
    const up = await cli("up", "--yes", "--skip-preview");
    assert.equal(up.code, 0, up.output);
    const made = resources();
    assert.equal(made.length, 6, made.map((r) => r.urn).join("\n"));
    for (const r of made) assert.match(codeOf(r), /\.lazyProvider\(".*\/resources\/\w+(\.js)?"\)/, r.urn);
    assert.match(
      codeOf(made.find((r) => r.type.endsWith(":Branch")) ?? {}),
      /resources\/branchMethods(\.js)?"/,
    );
  });

  it("under this package, refresh runs the earlier state's code and sees no change, and so does preview", async () => {
    // Both packages say 0.1.0: the earlier one is removed first, as an upgrade to a new version replaces it.
    for (const gone of ["node_modules/pulumi-clouddb", "package-lock.json"])
      fs.rmSync(path.join(project, gone), { recursive: true, force: true });
    installPacked(ROOT, project, { "@pulumi/pulumi": pulumiVersion });
    const installed = path.join(project, "node_modules", "pulumi-clouddb", "lib", "provider");
    assert.ok(fs.existsSync(path.join(installed, "dynamic.js")), "this package is installed");
    assert.ok(
      !fs.existsSync(path.join(installed, "resources", "branchMethods.js")),
      "the module the earlier state names has moved",
    );
    const refresh = await cli("refresh", "--yes", "--skip-preview", "--expect-no-changes");
    assert.equal(refresh.code, 0, refresh.output);
    assert.ok(
      resources().every((r) => /\.lazyProvider\(/.test(codeOf(r))),
      "refresh keeps the state's code",
    );
    const preview = await cli("preview", "--expect-no-changes", "--diff");
    assert.equal(preview.code, 0, preview.output);
  });

  it("an update renames the branch in place and deletes the key with the earlier state's code; then no change", async () => {
    const key = resources().find((r) => r.type.endsWith(":ApiKey"));
    const branchId = String(resources().find((r) => r.type.endsWith(":Branch"))?.id);
    await declareResources(e2e, program("upgrade-app-renamed", false));
    const up = await cli("up", "--yes", "--skip-preview");
    assert.equal(up.code, 0, up.output);
    assert.match(up.output, /1 updated/);
    assert.match(up.output, /1 deleted/);
    const state = emulator.control.dumpState();
    assert.equal(state.branches.find((b) => b.id === branchId)?.name, "upgrade-app-renamed");
    assert.equal(state.apiKeys.find((k) => String(k.id) === key?.id)?.revoked, true, "the key is revoked");
    const after = resources();
    assert.equal(after.length, 5);
    for (const r of after)
      assert.match(codeOf(r), /require\("pulumi-clouddb\/dynamic"\)\.provider\("\w+"\)/, r.urn);
    const refresh = await cli("refresh", "--yes", "--skip-preview", "--expect-no-changes");
    assert.equal(refresh.code, 0, refresh.output);
  });

  it("destroy deletes what the stack holds", async () => {
    const destroy = await cli("destroy", "--yes", "--skip-preview");
    assert.equal(destroy.code, 0, destroy.output);
    assert.deepEqual(resources(), []);
    const branches = emulator.control.dumpState().branches.filter((b) => b.name.startsWith("upgrade-app"));
    assert.deepEqual(
      branches.filter((b) => b.deleted_at_ms === undefined).map((b) => b.name),
      [],
    );
  });
});
