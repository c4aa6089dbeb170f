// The bulk import recipe (examples/bulk-import/README.md) under the real engine: a project of 30
// objects made outside Pulumi; the example's lookup-driven script writes the import file; one
// `pulumi import --file` brings them all into a YAML program through the provider plugin and
// generates the program's code; that program then previews with no change, no request changing
// anything, no secret in the state file or the output. Pulumi's other way too: a program written
// first, `pulumi preview --import-file` listing what it would create, the ids filled from the
// lookups, one `pulumi import --file`, then no change. And from Terraform: a state the community
// `kislerdm/neon` provider wrote against the emulator (tests/fixtures/terraform/, made by
// tools/terraform-neon/make-fixture.sh), turned into the import file by `clouddb from-terraform`.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { getBranch, getEndpoint } from "../../provider";
import { createClient } from "../../provider/client";
import { projectIdle } from "../provider/support";
import { programStack } from "./support/programStack";
import {
  collect,
  type E2eStack,
  isEncryptedSecret,
  mutatingRequests,
  ROOT,
  stateResources,
} from "./support/stack";

const BRANCHES = 7;

describe("e2e: a project of 30 objects made outside Pulumi, brought into a YAML program with one pulumi import --file", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  let scratch: string;
  let projectId: string;
  const passwords: string[] = [];

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 10 });
    // Made by hand: a project; branches, each with a compute, a role and a database of that role; a snapshot.
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    projectId = (await client.createProject({ project: { name: "legacy-shop" } })).project.id;
    await projectIdle(emulator, projectId);
    let first = "";
    for (let i = 1; i <= BRANCHES; i++) {
      const branch = await client.createBranch(projectId, {
        branch: { name: `feature-${i}` },
        endpoints: [{ type: "read_write" }],
      });
      first ||= branch.branch.id;
      await projectIdle(emulator, projectId);
      const role = await client.createRole(projectId, branch.branch.id, { role: { name: `app_${i}` } });
      passwords.push(role.role.password ?? "");
      await projectIdle(emulator, projectId);
      await client.createDatabase(projectId, branch.branch.id, {
        database: { name: `shop_${i}`, owner_name: `app_${i}` },
      });
      await projectIdle(emulator, projectId);
    }
    await client.createSnapshot(projectId, first, { name: "before-import" });
    await projectIdle(emulator, projectId);

    // An empty YAML program next to the example's script, with the package installed for the script.
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-e2e-bulk-"));
    fs.copyFileSync(
      path.join(ROOT, "examples/bulk-import/write-import-file.js"),
      path.join(scratch, "write-import-file.js"),
    );
    fs.writeFileSync(path.join(scratch, "Pulumi.yaml"), "name: clouddb-e2e-bulk-import\nruntime: yaml\n");
    e2e = await programStack({ packed: scratch, emulator, language: "yaml" });
  });
  after(async () => {
    await e2e?.dispose();
    if (scratch !== undefined) fs.rmSync(scratch, { recursive: true, force: true });
    await emulator?.stop();
  });

  it("imports every object the script lists with one import, and the generated program previews with no change", async () => {
    const workDir = e2e.stack.workspace.workDir;
    // Run asynchronously: the emulator answering it runs in this process.
    const { stdout: written } = await promisify(execFile)(
      process.execPath,
      ["write-import-file.js", projectId],
      {
        cwd: workDir,
        encoding: "utf8",
        env: { ...process.env, CLOUDDB_API_KEY: DEMO.personalKey, CLOUDDB_API_URL: emulator.url },
      },
    );
    const { resources } = JSON.parse(written) as { resources: { type: string; name: string; id: string }[] };
    const count = (type: string) => resources.filter((r) => r.type === `clouddb:index:${type}`).length;
    assert.deepEqual(
      ["Project", "Branch", "Endpoint", "Role", "Database", "Snapshot"].map(count),
      [1, BRANCHES, BRANCHES, BRANCHES, BRANCHES, 1],
      written,
    );
    assert.equal(resources.length, 30);

    emulator.control.clearRequests();
    const imported = await e2e.stack.import({ resources, generateCode: true, ...collect(e2e.output) });
    const printed = [...e2e.output];
    assert.equal(imported.summary.resourceChanges?.import, 30, e2e.output.join("\n"));

    // The program is the code the import generated for YAML.
    const program = path.join(workDir, "Pulumi.yaml");
    fs.appendFileSync(program, imported.generatedCode);
    const preview = await e2e.stack.preview(collect(e2e.output));
    printed.push(...e2e.output);
    assert.deepEqual(
      preview.changeSummary,
      { same: 31 },
      `${imported.generatedCode}\n${e2e.output.join("\n")}`,
    );
    assert.deepEqual(mutatingRequests(emulator), [], "the import or the preview changed something");

    const raw = e2e.rawState();
    const roles = stateResources(raw).filter((r) => r.type === "clouddb:index:Role");
    assert.equal(roles.length, BRANCHES);
    for (const role of roles)
      assert.ok(isEncryptedSecret(role.outputs?.password), "a role's password is encrypted");
    for (const password of passwords) {
      assert.ok(password !== "" && !raw.includes(password), "a password is in the state in plain text");
      assert.ok(!printed.some((line) => line.includes(password)), "a password is in the output");
      assert.ok(!imported.generatedCode.includes(password), "a password is in the generated program");
    }
  });

  it("a program written first: preview --import-file lists what it would create, the ids filled from the lookups, one import takes them and the program previews with no change", async () => {
    // A branch of the project, its compute, its role and the role's database, declared by hand.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-e2e-import-file-"));
    const of = (branch: string) => `      projectId: \${projectId}\n      branchId: \${${branch}.branchId}\n`;
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      [
        "name: clouddb-e2e-import-file",
        "runtime: yaml",
        "config:",
        "  projectId:",
        "    type: string",
        "resources:",
        "  feature-2:",
        "    type: clouddb:index:Branch",
        "    properties:",
        `      projectId: \${projectId}`,
        "      name: feature-2",
        "  feature-2-compute:",
        "    type: clouddb:index:Endpoint",
        "    properties:",
        `${of("feature-2")}      type: read_write`,
        "  feature-2-app_2:",
        "    type: clouddb:index:Role",
        "    properties:",
        `${of("feature-2")}      name: app_2`,
        "  feature-2-shop_2:",
        "    type: clouddb:index:Database",
        "    properties:",
        `${of("feature-2")}      name: shop_2`,
        "      ownerName: app_2",
        "",
      ].join("\n"),
    );
    const taker = await programStack({ copyOf: dir, emulator, language: "yaml", config: { projectId } });
    fs.rmSync(dir, { recursive: true, force: true });
    try {
      const file = path.join(taker.stack.workspace.workDir, "import.json");
      await taker.stack.preview({ importFile: file, ...collect(taker.output) });
      type Entry = { type: string; name: string; id: string };
      const listed = JSON.parse(fs.readFileSync(file, "utf8")) as { resources: Entry[] };
      assert.deepEqual(
        listed.resources.map((r) => `${r.type} ${r.name} ${r.id}`).sort(),
        [
          "clouddb:index:Branch feature-2 <PLACEHOLDER>",
          "clouddb:index:Database feature-2-shop_2 <PLACEHOLDER>",
          "clouddb:index:Endpoint feature-2-compute <PLACEHOLDER>",
          "clouddb:index:Role feature-2-app_2 <PLACEHOLDER>",
        ],
        "the file lists each declared resource, its id a placeholder to fill",
      );
      // The ids, from the lookups by the names the program uses.
      const account = { apiKey: DEMO.personalKey, apiUrl: emulator.url };
      const { branch } = await getBranch({ projectId, name: "feature-2" }, account);
      const { endpoint } = await getEndpoint({ projectId, branchId: branch.id }, account);
      const ids: Record<string, string> = {
        "feature-2": `${projectId}/${branch.id}`,
        "feature-2-compute": `${projectId}/${endpoint.id}`,
        "feature-2-app_2": `${projectId}/${branch.id}/app_2`,
        "feature-2-shop_2": `${projectId}/${branch.id}/shop_2`,
      };
      const resources = listed.resources.map((r) => ({ ...r, id: ids[r.name] ?? "" }));
      emulator.control.clearRequests();
      const imported = await taker.stack.import({ resources, ...collect(taker.output) });
      assert.equal(imported.summary.resourceChanges?.import, 4, taker.output.join("\n"));
      const preview = await taker.stack.preview(collect(taker.output));
      assert.deepEqual(preview.changeSummary, { same: 5 }, taker.output.join("\n"));
      assert.deepEqual(mutatingRequests(emulator), [], "the import or the preview changed something");
    } finally {
      await taker.dispose();
    }
  });
});

describe("e2e: a Terraform state of the community neon provider, brought in with clouddb from-terraform and one pulumi import --file", function () {
  this.timeout(10 * 60 * 1000);
  const FIXTURE = path.join(ROOT, "tests", "fixtures", "terraform");
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  let scratch: string;

  before(async () => {
    // The emulator as the provider left it: the state file it kept during `tofu apply` (a copy: a run writes it).
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-e2e-terraform-"));
    fs.copyFileSync(path.join(FIXTURE, "emulator-state.json"), path.join(scratch, "emulator-state.json"));
    emulator = await startEmulator({
      stateFile: path.join(scratch, "emulator-state.json"),
      opDurationMs: 10,
    });
    const program = path.join(scratch, "program");
    fs.mkdirSync(program);
    fs.writeFileSync(path.join(program, "Pulumi.yaml"), "name: clouddb-e2e-from-terraform\nruntime: yaml\n");
    e2e = await programStack({ copyOf: program, emulator, language: "yaml" });
  });
  after(async () => {
    await e2e?.dispose();
    await emulator?.stop();
    if (scratch !== undefined) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("maps every object but the API key, which it names; one import takes them, and the program then previews with no change", async () => {
    const state = fs.readFileSync(path.join(FIXTURE, "terraform.tfstate"), "utf8");
    const workDir = e2e.stack.workspace.workDir;
    const file = path.join(workDir, "import.json");
    const run = await promisify(execFile)(
      process.execPath,
      [
        path.join(ROOT, "bin", "clouddb"),
        "from-terraform",
        path.join(FIXTURE, "terraform.tfstate"),
        "--out",
        file,
      ],
      { encoding: "utf8" },
    ).then(
      () => ({ code: 0, stderr: "" }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
    );
    assert.equal(run.code, 10, `some resources are left out, said by the exit code:\n${run.stderr}`);
    assert.match(run.stderr, /left out neon_api_key\.ci: an API key's token is shown once/);
    const { resources } = JSON.parse(fs.readFileSync(file, "utf8")) as {
      resources: { type: string; name: string; id: string }[];
    };
    assert.deepEqual(resources.map((r) => `${r.type} ${r.name}`).sort(), [
      "clouddb:index:Branch dev",
      "clouddb:index:Database app",
      "clouddb:index:Endpoint dev",
      "clouddb:index:Project shop",
      "clouddb:index:ProjectPermission ada",
      "clouddb:index:Role app",
    ]);

    emulator.control.clearRequests();
    const imported = await e2e.stack.import({ resources, generateCode: true, ...collect(e2e.output) });
    const printed = [...e2e.output];
    assert.equal(imported.summary.resourceChanges?.import, 6, e2e.output.join("\n"));
    fs.appendFileSync(path.join(workDir, "Pulumi.yaml"), imported.generatedCode);
    const preview = await e2e.stack.preview(collect(e2e.output));
    printed.push(...e2e.output);
    assert.deepEqual(
      preview.changeSummary,
      { same: 7 },
      `${imported.generatedCode}\n${e2e.output.join("\n")}`,
    );
    assert.deepEqual(mutatingRequests(emulator), [], "the import or the preview changed something");

    // The Terraform state's secrets (the role's password, the project's connection strings, the key)
    // reach neither the import file, nor the Pulumi state in plain text, nor the output.
    const tf = JSON.parse(state) as {
      resources: { type: string; instances: { attributes: Record<string, unknown> }[] }[];
    };
    const attribute = (type: string, name: string) =>
      String(tf.resources.find((r) => r.type === type)?.instances[0]?.attributes[name] ?? "");
    const secrets = [
      attribute("neon_role", "password"),
      attribute("neon_project", "database_password"),
      attribute("neon_api_key", "key"),
    ];
    const raw = e2e.rawState();
    for (const secret of secrets) {
      assert.ok(secret.length > 8, "the fixture holds the secret");
      assert.ok(!fs.readFileSync(file, "utf8").includes(secret), "a secret is in the import file");
      assert.ok(!raw.includes(secret), "a secret is in the Pulumi state in plain text");
      assert.ok(!printed.some((line) => line.includes(secret)), "a secret is in the output");
    }
  });
});
