// The release folder alone, as a user or a registry would take it: every platform's plugin,
// emulator and clouddb binary is what its name says, the linux-amd64 plugin serves the package
// with no Node.js on PATH (the emulator binary: emulator.test.ts; clouddb's:
// tests/e2e/sweep.test.ts), the CLI installs an archive by its checksum and refuses a wrong one,
// pip finds the wheel, go gets the SDK through a file:// module proxy, npm installs the tarballs,
// and all of them carry one version.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { ensurePulumiCli } from "../../scripts/pulumi-cli";
import { emulatorArchiveName, emulatorBinaryName } from "../../scripts/release/emulator";
import { archiveName, binaryName } from "../../scripts/release/plugin";
import { filesUnder, goProxyDir } from "../../scripts/release/release";
import { seaArchiveName, seaBinaryName, TARGETS } from "../../scripts/release/sea";
import { SWEEP } from "../../scripts/release/sweep";
import {
  configure,
  type EngineStandIn,
  engineStandIn,
  forResource,
  type Plugin,
  proto,
  secret,
  startPlugin,
  struct,
} from "../plugin/support";
import { finished } from "../support/child-output";
import { pathWith, releaseFolder, type ServedFolder, serveFolder, sha256, unpackBinary } from "./support";

const ROOT = path.join(__dirname, "../..");
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string })
  .version;
const SCHEMA = fs.readFileSync(path.join(ROOT, "schema.json"), "utf8");

/** What a binary's header says it is: format and machine. */
function header(file: string): string {
  const fd = fs.openSync(file, "r");
  const b = Buffer.alloc(4096);
  fs.readSync(fd, b, 0, b.length, 0);
  fs.closeSync(fd);
  if (b.readUInt32BE(0) === 0x7f454c46) {
    const machine = b.readUInt16LE(18);
    return `ELF${b[4] === 2 ? "64" : "32"} ${machine === 0x3e ? "x86-64" : machine === 0xb7 ? "aarch64" : machine}`;
  }
  if (b.toString("latin1", 0, 2) === "MZ") {
    const pe = b.readUInt32LE(0x3c);
    assert.equal(b.toString("latin1", pe, pe + 4), "PE\0\0", "an MZ file with no PE header");
    const machine = b.readUInt16LE(pe + 4);
    const magic = b.readUInt16LE(pe + 24);
    return `${magic === 0x20b ? "PE32+" : "PE32"} ${machine === 0x8664 ? "x86-64" : machine}`;
  }
  if (b.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = b.readUInt32LE(4);
    return `Mach-O64 ${cpu === 0x01000007 ? "x86-64" : cpu === 0x0100000c ? "arm64" : cpu}`;
  }
  return `unknown ${b.subarray(0, 4).toString("hex")}`;
}

/** Runs `command` with `env` over this environment; returns its exit code and output. */
function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd = os.tmpdir()) {
  const result = spawnSync(command, args, { cwd, env: { ...process.env, ...env }, encoding: "utf8" });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

/** `run` without blocking this process (which serves the release folder to it). */
const runAsync = (command: string, args: readonly string[], env: NodeJS.ProcessEnv) =>
  finished(command, args, { cwd: os.tmpdir(), env });

describe("the release folder", function () {
  // The first build of the plugin binaries takes minutes (they are cached after).
  this.timeout(15 * 60 * 1000);
  let dir: string;

  before(async () => {
    ({ dir } = await releaseFolder());
  });

  it("holds an archive per platform of the plugin, the emulator and clouddb, each its binary alone at its root, of that platform, with Node.js's single-executable blob injected", () => {
    const expected: Record<string, string> = {
      "linux-amd64": "ELF64 x86-64",
      "linux-arm64": "ELF64 aarch64",
      "windows-amd64": "PE32+ x86-64",
      "darwin-amd64": "Mach-O64 x86-64",
    };
    for (const target of TARGETS) {
      for (const [archive, name] of [
        [archiveName(VERSION, target), binaryName(target)],
        [emulatorArchiveName(VERSION, target), emulatorBinaryName(target)],
        [seaArchiveName(SWEEP, VERSION, target), seaBinaryName(SWEEP, target)],
      ] as const) {
        const binary = unpackBinary(path.join(dir, archive));
        try {
          assert.equal(path.basename(binary), name);
          assert.equal(header(binary), expected[`${target.os}-${target.arch}`], archive);
          // postject flips the fuse Node.js checks to find its blob.
          const fuse = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1";
          assert.ok(fs.readFileSync(binary).includes(fuse), `${archive} has no injected blob`);
        } finally {
          fs.rmSync(path.dirname(binary), { recursive: true, force: true });
        }
      }
    }
  });

  it("lists every file's SHA-256 in SHA256SUMS, the Go, Maven and .NET trees' too, as sha256sum checks it", () => {
    const listed = fs.readFileSync(path.join(dir, "SHA256SUMS"), "utf8").trim().split("\n");
    const names = listed.map((line) => line.split("  ")[1]).sort();
    assert.deepEqual(
      names,
      filesUnder(dir).filter((f) => f !== "SHA256SUMS" && f !== "release.json"),
    );
    for (const tree of [
      /^go\/.*\/@v\/v[^/]+\.zip$/,
      /^maven\/.*\.jar$/,
      /^maven\/.*\.pom$/,
      /^dotnet\/.*\.cs$/,
    ]) {
      assert.ok(
        names.some((name) => tree.test(name ?? "")),
        `no ${tree} in SHA256SUMS`,
      );
    }
    for (const line of listed) {
      const [sum, file] = line.split("  ") as [string, string];
      assert.equal(sha256(path.join(dir, file)), sum, file);
    }
    execFileSync("sha256sum", ["--check", "--quiet", "SHA256SUMS"], { cwd: dir });
  });

  describe("the linux-amd64 binary, with no Node.js on PATH", () => {
    let emulator: RunningEmulator;
    let engine: EngineStandIn;
    let plugin: Plugin;
    let binary: string;
    let bare: string;

    before(async () => {
      binary = unpackBinary(path.join(dir, archiveName(VERSION, { os: "linux", arch: "amd64" })));
      bare = pathWith([]);
      assert.notEqual(spawnSync("/bin/bash", ["-c", "command -v node"], { env: { PATH: bare } }).status, 0);
      emulator = await startEmulator({ seed: "demo", opDurationMs: 20 });
      engine = await engineStandIn();
      plugin = await startPlugin(engine.address, [binary], { PATH: bare });
      await configure(plugin, { apiKey: secret(DEMO.personalKey), apiUrl: emulator.url });
    });
    after(async () => {
      await plugin?.stop();
      await engine?.close();
      await emulator?.stop();
      if (binary !== undefined) fs.rmSync(path.dirname(binary), { recursive: true, force: true });
    });

    it("reports the package's version and serves schema.json, embedded in it", async () => {
      const info = await plugin.call<Empty, { getVersion(): string }>("getPluginInfo", new Empty());
      assert.equal(info.getVersion(), VERSION);
      const schema = await plugin.call<proto.GetSchemaRequest, proto.GetSchemaResponse>(
        "getSchema",
        new proto.GetSchemaRequest(),
      );
      assert.equal(schema.getSchema(), SCHEMA);
    });

    it("creates and deletes a branch against the API", async () => {
      const type = "clouddb:index:Branch";
      const create = forResource(new proto.CreateRequest(), type, "binary").setProperties(
        struct({ projectId: DEMO.projectId, name: "made-by-the-binary" }),
      );
      const made = await plugin.call<proto.CreateRequest, proto.CreateResponse>("create", create);
      const id = made.getId();
      const alive = () =>
        emulator.control.dumpState().branches.some((b) => b.id === id && b.deleted_at_ms === undefined);
      assert.ok(alive(), `the branch ${id} exists`);
      const remove = forResource(new proto.DeleteRequest(), type, "binary")
        .setId(id)
        .setProperties(made.getProperties() ?? struct({}));
      await plugin.call("delete", remove);
      assert.ok(!alive(), `the branch ${id} is deleted`);
    });
  });

  describe("pulumi plugin install with a checksum", () => {
    let server: ServedFolder;
    let home: string;
    const linux = () => archiveName(VERSION, { os: "linux", arch: "amd64" });
    const listedSum = (name: string) =>
      new RegExp(`^([0-9a-f]{64})  ${name.replaceAll(".", "\\.")}$`, "m").exec(
        fs.readFileSync(path.join(dir, "SHA256SUMS"), "utf8"),
      )?.[1];
    const installed = () =>
      path.join(home, "plugins", `resource-clouddb-v${VERSION}`, "pulumi-resource-clouddb");
    const pulumi = (args: readonly string[]) =>
      runAsync("pulumi", args, {
        PATH: ensurePulumiCli().path,
        PULUMI_HOME: home,
        PULUMI_SKIP_UPDATE_CHECK: "true",
      });
    const install = (from: string[], checksum: string) =>
      pulumi(["plugin", "install", "resource", "clouddb", VERSION, ...from, "--checksum", checksum]);

    before(async () => {
      server = await serveFolder(dir);
    });
    beforeEach(() => {
      home = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-pulumi-home-"));
    });
    afterEach(() => fs.rmSync(home, { recursive: true, force: true }));
    after(() => server?.close());

    it("installs the archive from a file with the checksum SHA256SUMS lists, the binary under PULUMI_HOME/plugins", async () => {
      const checksum = listedSum(linux());
      assert.ok(checksum !== undefined, `SHA256SUMS lists ${linux()}`);
      const result = await install(["--file", path.join(dir, linux())], checksum);
      assert.equal(result.code, 0, result.output);
      assert.ok(fs.existsSync(installed()), `no ${installed()}`);
      const plugins = JSON.parse((await pulumi(["plugin", "ls", "--json"])).output) as {
        name: string;
        kind: string;
        version: string;
      }[];
      assert.deepEqual(
        plugins.filter((p) => p.name === "clouddb").map((p) => `${p.kind} ${p.version}`),
        [`resource ${VERSION}`],
      );
    });

    it("downloads the archive from the release's server with the checksum SHA256SUMS lists, and refuses one whose checksum is not the one given", async () => {
      // `--file` installs the file as given, whatever `--checksum` says (the CLI checks a download
      // only): the installation page says to check a file against SHA256SUMS first.
      const wrong = listedSum(archiveName(VERSION, { os: "linux", arch: "arm64" }))!;
      const refused = await install(["--server", server.url], wrong);
      assert.notEqual(refused.code, 0, refused.output);
      assert.match(refused.output, new RegExp(`invalid checksum, expected ${wrong}`));
      assert.ok(!fs.existsSync(installed()), "a plugin refused by its checksum is installed");
      const right = await install(["--server", server.url], listedSum(linux())!);
      assert.equal(right.code, 0, right.output);
      assert.ok(fs.existsSync(installed()), `no ${installed()}`);
      assert.deepEqual(
        server.requests.filter((r) => r.includes("pulumi-resource-clouddb")),
        [`GET /${linux()}`, `GET /${linux()}`],
      );
    });
  });

  it("gives pip the wheel by name with no index, its pulumi-plugin.json naming the version and the download server", () => {
    const into = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-pip-"));
    try {
      const pip = run(
        "python3",
        [
          "-m",
          "pip",
          "download",
          "--no-index",
          "--find-links",
          dir,
          "--no-deps",
          "--dest",
          into,
          `pulumi_clouddb==${VERSION}`,
        ],
        { PIP_DISABLE_PIP_VERSION_CHECK: "1" },
      );
      assert.equal(pip.code, 0, pip.output);
      const wheel = fs.readdirSync(into).find((f) => f.endsWith(".whl"));
      assert.equal(wheel, `pulumi_clouddb-${VERSION}-py3-none-any.whl`);
      const plugin = execFileSync(
        "python3",
        [
          "-c",
          "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read('pulumi_clouddb/pulumi-plugin.json').decode())",
          path.join(into, wheel),
        ],
        { encoding: "utf8" },
      );
      const schema = JSON.parse(SCHEMA) as { version: string; pluginDownloadURL: string };
      assert.deepEqual(JSON.parse(plugin), {
        resource: true,
        name: "clouddb",
        version: schema.version,
        server: schema.pluginDownloadURL,
      });
      assert.ok(
        fs.existsSync(path.join(dir, `pulumi_clouddb-${VERSION}.tar.gz`)),
        "the sdist is beside the wheel",
      );
    } finally {
      fs.rmSync(into, { recursive: true, force: true });
    }
  });

  it("lets go get the SDK at its tag through a file:// module proxy, offline, with no replace", () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-go-get-"));
    const { manifest } = { manifest: JSON.parse(fs.readFileSync(path.join(dir, "release.json"), "utf8")) };
    try {
      // A fresh module cache: the SDK comes from the release's zip; its dependencies from the
      // machine's module cache, itself laid out as a module proxy.
      const modcache = execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim();
      const env = {
        GOPROXY: `file://${goProxyDir(dir)},file://${modcache}/cache/download`,
        GOMODCACHE: path.join(work, "modcache"),
        GOFLAGS: "-mod=mod -modcacherw",
        GOSUMDB: "off",
        GONOSUMDB: manifest.goModule,
        GOTOOLCHAIN: "local",
      };
      fs.writeFileSync(path.join(work, "go.mod"), "module example.com/uses-clouddb\n\ngo 1.25\n");
      fs.writeFileSync(
        path.join(work, "main.go"),
        `package main\n\nimport "${manifest.goModule}/clouddb"\n\nvar _ = clouddb.NewBranch\n\nfunc main() {}\n`,
      );
      const get = run("go", ["get", `${manifest.goModule}@v${VERSION}`], env, work);
      assert.equal(get.code, 0, get.output);
      const goMod = fs.readFileSync(path.join(work, "go.mod"), "utf8");
      assert.match(
        goMod,
        new RegExp(`${manifest.goModule.replaceAll(".", "\\.")} v${VERSION.replaceAll(".", "\\.")}`),
      );
      assert.ok(!goMod.includes("replace"), goMod);
      const listed = run("go", ["list", "-m", "-f", "{{.Version}} {{.Dir}}", manifest.goModule], env, work);
      assert.equal(listed.code, 0, listed.output);
      const [version, moduleDir] = listed.output.trim().split(" ") as [string, string];
      assert.equal(version, `v${VERSION}`);
      const plugin = JSON.parse(
        fs.readFileSync(path.join(moduleDir, "clouddb", "pulumi-plugin.json"), "utf8"),
      );
      assert.equal(plugin.version, VERSION);
      assert.ok(
        manifest.tags.includes(`sdk/go/v${VERSION}`),
        `the release names the Go tag: ${manifest.tags}`,
      );
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it("installs the npm tarballs into a project, the provider with its plugin command and schema at the version", () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-npm-"));
    try {
      fs.writeFileSync(path.join(work, "package.json"), '{"name":"scratch","private":true}');
      const install = run(
        "npm",
        [
          "install",
          "--prefer-offline",
          "--no-audit",
          "--no-fund",
          "--legacy-peer-deps",
          "--ignore-scripts",
          path.join(dir, `pulumi-clouddb-${VERSION}.tgz`),
          path.join(dir, `pulumi-clouddb-emulator-${VERSION}.tgz`),
        ],
        {},
        work,
      );
      assert.equal(install.code, 0, install.output);
      const installed = (name: string, file: string) =>
        JSON.parse(fs.readFileSync(path.join(work, "node_modules", name, file), "utf8"));
      assert.equal(installed("pulumi-clouddb", "package.json").version, VERSION);
      assert.equal(installed("pulumi-clouddb-emulator", "package.json").version, VERSION);
      assert.equal(installed("pulumi-clouddb", "schema.json").version, VERSION);
      assert.ok(fs.existsSync(path.join(work, "node_modules", ".bin", "pulumi-resource-clouddb")));
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
