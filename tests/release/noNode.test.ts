// A Python or YAML user's machine with no Node.js: the engine downloads the plugin binary by
// itself (automatic plugin acquisition on, for this suite only) from the release folder served on
// 127.0.0.1, the package's download server pointed there by PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES;
// the Python SDK is the release's wheel installed with no index. The preview environment comes
// up against the emulator with its real Postgres, the app's migration connects with DATABASE_URL,
// refresh and preview change nothing, a branch made outside is imported, destroy leaves nothing;
// then a PreviewEnvironment, which the downloaded plugin makes with its Construct.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { createClient } from "../../provider/client";
import { PLUGIN_DOWNLOAD_URL } from "../../scripts/derive-schema";
import { ensurePulumiCli } from "../../scripts/pulumi-cli";
import { archiveName } from "../../scripts/release/plugin";
import { copyFolder, venvPython } from "../e2e/support/languages";
import { fileBackendUrl, leaks } from "../e2e/support/stack";
import { previewOnBranch, runAppMigration } from "../e2e/support/workflow";
import { dataPlaneRun, sqlOutcome } from "../emulator/helpers";
import { pathWith, releaseFolder, type ServedFolder, serveFolder } from "./support";

const ROOT = path.join(__dirname, "../..");
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string })
  .version;
const PROJECT = DEMO.projectId;

/** The YAML example as a YAML user with no SDK writes it: each use of the package names its version and server. */
function yamlWithPluginSource(text: string): string {
  const options = `      options:\n        version: ${VERSION}\n        pluginDownloadURL: ${PLUGIN_DOWNLOAD_URL}\n`;
  return text
    .replace(
      /(\n {2}preview:\n {4}type: clouddb:index:Branch\n)/,
      `$1${options.replaceAll("      ", "    ")}`,
    )
    .replace(/(\n {2}app:\n {4}type: clouddb:index:Role\n)/, `$1${options.replaceAll("      ", "    ")}`)
    .replace(/( {6}function: clouddb:index:getConnectionUri\n)/, `$1${options}`);
}

for (const language of ["python", "yaml"] as const) {
  describe(`${language} with no Node.js: the engine downloads the plugin binary from the release${dataPlaneRun()}`, function () {
    this.timeout(15 * 60 * 1000);
    let emulator: RunningEmulator;
    let server: ServedFolder;
    let work: string;
    let env: NodeJS.ProcessEnv;
    const printed: string[] = [];

    /**
     * Runs the CLI in the program's folder (asynchronously: the emulator answers from this process);
     * its output joins what the suite checks for leaks unless `shown` is false (secrets asked for).
     */
    function pulumi(
      args: readonly string[],
      shown = true,
      folder = "program",
    ): Promise<{ code: number | null; output: string }> {
      return new Promise((resolve) => {
        const child = spawn("pulumi", args, { cwd: path.join(work, folder), env });
        let output = "";
        child.stdout.on("data", (chunk) => {
          output += chunk;
        });
        child.stderr.on("data", (chunk) => {
          output += chunk;
        });
        child.on("close", (code) => {
          if (shown) printed.push(output);
          resolve({ code, output });
        });
      });
    }

    before(async () => {
      const { dir } = await releaseFolder();
      server = await serveFolder(dir);
      emulator = await startEmulator({ seed: "demo", opDurationMs: 200, postgres: true });
      work = fs.mkdtempSync(path.join(os.tmpdir(), `clouddb-no-node-${language}-`));
      const program = path.join(work, "program");
      fs.cpSync(path.join(ROOT, `examples/preview-environment-${language}`), program, { recursive: true });
      const first: string[] = [];
      if (language === "python") {
        // A venv of its own: the pulumi SDK from the suites' cached venv (a .pth to its packages),
        // the clouddb SDK the release's wheel, installed with no index.
        const venv = path.join(work, "venv");
        spawnSync("python3", ["-m", "venv", venv], { stdio: "inherit" });
        const sdkSite = spawnSync(venvPython(), ["-c", "import site; print(site.getsitepackages()[0])"], {
          encoding: "utf8",
        }).stdout.trim();
        const site = spawnSync(
          path.join(venv, "bin/python"),
          ["-c", "import site; print(site.getsitepackages()[0])"],
          {
            encoding: "utf8",
          },
        ).stdout.trim();
        fs.writeFileSync(path.join(site, "pulumi-sdk.pth"), `${sdkSite}\n`);
        const pip = spawnSync(
          path.join(venv, "bin/python"),
          ["-m", "pip", "install", "--no-index", "--find-links", dir, `pulumi_clouddb==${VERSION}`],
          { encoding: "utf8", env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" } },
        );
        assert.equal(pip.status, 0, `${pip.stdout}${pip.stderr}`);
        first.push(path.join(venv, "bin"));
      } else {
        const file = path.join(program, "Pulumi.yaml");
        const changed = yamlWithPluginSource(fs.readFileSync(file, "utf8"));
        assert.equal(changed.split(`pluginDownloadURL: ${PLUGIN_DOWNLOAD_URL}`).length - 1, 3, changed);
        fs.writeFileSync(file, changed);
      }
      // The CLI and its language hosts, the venv, and a folder of links to nothing: no node, no
      // pulumi-resource-clouddb.
      const PATH = [...first, path.dirname(ensurePulumiCli().binary), pathWith([])].join(path.delimiter);
      for (const command of ["node", "pulumi-resource-clouddb"]) {
        const found = spawnSync("/bin/bash", ["-c", `command -v ${command}`], { env: { PATH } });
        assert.notEqual(found.status, 0, `${command} is on the suite's PATH`);
      }
      env = {
        PATH,
        HOME: process.env.HOME,
        PULUMI_HOME: path.join(work, "pulumi-home"),
        PULUMI_BACKEND_URL: fileBackendUrl(path.join(work, "state")),
        PULUMI_CONFIG_PASSPHRASE: "no-node",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        // A pattern on the download URL the SDK or the program names, not on the plugin's name.
        PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${PLUGIN_DOWNLOAD_URL}=${server.url}`,
        CLOUDDB_POLL_INTERVAL_MS: "50,200",
        // The kinds over SQL verify the computes' certificates against the emulator's CA.
        PGSSLROOTCERT: emulator.caPath,
      };
      fs.mkdirSync(path.join(work, "state"));
      // The component's program: the pull-request-database example, whose PreviewEnvironment the
      // downloaded plugin's Construct makes (its `migrations/`, a link, copied as the folder).
      const component = path.join(work, "component");
      copyFolder(path.join(ROOT, `examples/pull-request-database/${language}`), component);
      if (language === "yaml") {
        const file = path.join(component, "Pulumi.yaml");
        const text = fs.readFileSync(file, "utf8");
        const options = `    options:\n      version: ${VERSION}\n      pluginDownloadURL: ${PLUGIN_DOWNLOAD_URL}\n`;
        const changed = text.replace(
          /(\n {2}preview:\n {4}type: clouddb:index:PreviewEnvironment\n)/,
          `$1${options}`,
        );
        assert.notEqual(changed, text, "the component's YAML names its plugin's version and server");
        fs.writeFileSync(file, changed);
      }
      for (const args of [
        ["stack", "init", "pr-51", "--non-interactive"],
        ["config", "set", "clouddb:apiUrl", emulator.url],
        ["config", "set", "--secret", "clouddb:apiKey", DEMO.personalKey],
        ["config", "set", "projectId", PROJECT],
        ["config", "set", "pullRequest", "51"],
      ]) {
        const result = await pulumi(args);
        assert.equal(result.code, 0, result.output);
      }
      const database = emulator.control.dumpState().branches.find((b) => b.id === DEMO.branchId)
        ?.databases[0]?.name;
      for (const args of [
        ["stack", "init", "pr-52", "--non-interactive"],
        ["config", "set", "clouddb:apiUrl", emulator.url],
        ["config", "set", "--secret", "clouddb:apiKey", DEMO.personalKey],
        ["config", "set", "projectId", PROJECT],
        ["config", "set", "pullRequest", "52"],
        ["config", "set", "databaseName", database ?? "neondb"],
      ]) {
        const result = await pulumi(args, true, "component");
        assert.equal(result.code, 0, result.output);
      }
    });
    after(async () => {
      await pulumi(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
      await pulumi(["destroy", "--yes", "--skip-preview"], true, "component").catch(() => undefined);
      await server?.close();
      await emulator?.stop();
      if (work !== undefined) fs.rmSync(work, { recursive: true, force: true });
      assert.deepEqual(leaks(printed.join("\n")), [], "a key or a password in the CLI's output");
    });

    it("comes up with the plugin the engine downloaded (the linux-amd64 archive only) into PULUMI_HOME; the migration connects with DATABASE_URL", async () => {
      const up = await pulumi(["up", "--yes", "--skip-preview"]);
      assert.equal(up.code, 0, up.output);
      assert.deepEqual(
        server.requests.filter((r) => !r.endsWith("/")),
        [`GET /${archiveName(VERSION, { os: "linux", arch: "amd64" })}`],
      );
      const installed = path.join(env.PULUMI_HOME!, "plugins", `resource-clouddb-v${VERSION}`);
      assert.ok(fs.existsSync(path.join(installed, "pulumi-resource-clouddb")), `no plugin in ${installed}`);

      const url = JSON.parse(
        (await pulumi(["stack", "output", "--json", "--show-secrets"], false)).output,
      ).DATABASE_URL;
      const { roles } = previewOnBranch(emulator, PROJECT, "51");
      assert.equal(roles.length, 1);
      assert.deepEqual(await runAppMigration(url, emulator.caPath), [{ who: roles[0]?.name, n: 1 }]);
    });

    it("refreshes and previews with no change", async () => {
      const refresh = await pulumi(["refresh", "--yes", "--skip-preview", "--expect-no-changes"]);
      assert.equal(refresh.code, 0, refresh.output);
      const preview = await pulumi(["preview", "--expect-no-changes"]);
      assert.equal(preview.code, 0, preview.output);
    });

    it("imports a branch made outside Pulumi into the stack", async () => {
      const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
      const made = await client.createBranch(PROJECT, { branch: { name: `outside-${language}` } });
      const imported = await pulumi([
        "import",
        "clouddb:index:Branch",
        "outside",
        `${PROJECT}/${made.branch.id}`,
        "--protect=false",
        "--yes",
        "--skip-preview",
      ]);
      const state = (await pulumi(["stack", "export"])).output;
      assert.match(state, /"urn": "urn:pulumi:pr-51::[^"]+::clouddb:index:Branch::outside"/, imported.output);
      if (imported.code !== 0) {
        // The Python language host built here (v3.68) has no GenerateProgram: the import is recorded,
        // then the CLI fails writing the program's code.
        assert.equal(language, "python", imported.output);
        assert.match(imported.output, /GenerateProgram not implemented/, imported.output);
      }
    });

    it("destroys everything it made", async () => {
      const destroy = await pulumi(["destroy", "--yes", "--skip-preview"]);
      assert.equal(destroy.code, 0, destroy.output);
      assert.deepEqual(previewOnBranch(emulator, PROJECT, "51"), { branches: [], roles: [] });
    });

    it("makes a PreviewEnvironment with the downloaded plugin's Construct: the runtime role writes rows and cannot create a table", async () => {
      const up = await pulumi(["up", "--yes", "--skip-preview"], true, "component");
      assert.equal(up.code, 0, up.output);
      const out = JSON.parse(
        (await pulumi(["stack", "output", "--json", "--show-secrets"], false, "component")).output,
      ) as { runtimeUri: string; appliedMigrations: { name: string }[] };
      assert.deepEqual(
        out.appliedMigrations.map((m) => m.name),
        ["0001_orders.sql", "0002_seed.sql"],
      );
      assert.equal(
        await sqlOutcome(out.runtimeUri, emulator.caPath, "INSERT INTO orders (item) VALUES ('tea')"),
        "ok",
      );
      assert.equal(
        await sqlOutcome(out.runtimeUri, emulator.caPath, "CREATE TABLE sneaky (id int)"),
        "42501",
      );
      const destroy = await pulumi(["destroy", "--yes", "--skip-preview"], true, "component");
      assert.equal(destroy.code, 0, destroy.output);
    });
  });
}
