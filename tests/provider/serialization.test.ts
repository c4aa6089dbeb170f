import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import sinon from "sinon";
import { DEMO } from "../../emulator";
import { moduleRef } from "../../provider/resources/lifecycle/moduleRef";
import { kindOfStatePath, STATE_PATHS_0_0 } from "../../provider/resources/lifecycle/statePaths";
import { apiKeyProvider } from "../../provider/resources/public/apiKey";
import { DECLARATIONS } from "../../provider/resources/public/kinds";
import { providerSource } from "../../provider/resources/public/resource";
import { clearStackConfig, fakeConfig, useEmulator } from "./support";

// The provider as Pulumi stores it: the code the resource classes send as `__provider`, loaded the
// way the dynamic-provider plugin loads it (require-from-string: Module#_compile, `.handler()`) in a
// fresh Node process that has only the environment's credentials.

const ROOT = path.resolve(__dirname, "../..");
const run = promisify(execFile);

/** Loads a serialized provider from `argv[2]` like require-from-string and calls `create(argv[3])`. */
const RUNNER = `
const Module = require("node:module");
const fs = require("node:fs");
const path = require("node:path");
const [file, inputs] = process.argv.slice(2);
const m = new Module(file, module);
m.filename = file;
m.paths = Module._nodeModulePaths(path.dirname(file));
m._compile(fs.readFileSync(file, "utf8"), file);
const provider = m.exports.handler();
provider.create(JSON.parse(inputs)).then(
  (result) => process.stdout.write(JSON.stringify(result)),
  (err) => { process.stderr.write(String(err && err.stack || err)); process.exit(1); },
);
`;

describe("serialized providers", () => {
  const harness = useEmulator();
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-serialized-"));
    fs.writeFileSync(path.join(dir, "runner.js"), RUNNER);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  afterEach(() => {
    clearStackConfig();
    sinon.restore();
  });

  /** The `__provider` code of a resource of the kind `type`, as the state holds it. */
  const serialized = (type: string): string => providerSource(type);

  /** The code an earlier version (0.0.x) put in the state: the path of the kind's methods module. */
  const serializedBefore = (file: string): string => {
    const lazy = moduleRef(require.resolve("../../provider/resources/lifecycle/lazyProvider"));
    // The path as it was: the module itself has moved since.
    const methods = path.join(ROOT, "provider", "resources", `${file}.js`);
    return `exports.handler = () => require(${JSON.stringify(lazy)}).lazyProvider(${JSON.stringify(methods)});\n`;
  };
  /** Runs `create(inputs)` of the serialized provider in a fresh process; returns its result. */
  async function createInFreshProcess(name: string, text: string, inputs: object) {
    const file = path.join(dir, `${name}.js`);
    fs.writeFileSync(file, text);
    const { stdout } = await run(
      process.execPath,
      ["-r", "ts-node/register/transpile-only", path.join(dir, "runner.js"), file, JSON.stringify(inputs)],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? "",
          CLOUDDB_API_KEY: DEMO.personalKey,
          CLOUDDB_API_URL: harness.emulator.url,
          CLOUDDB_POLL_INTERVAL_MS: "5,20",
        },
        timeout: 60_000,
      },
    );
    return JSON.parse(stdout) as { id: string; outs: Record<string, unknown> };
  }

  function assertNoCredential(text: string): void {
    for (const secret of [DEMO.personalKey, DEMO.orgKey, DEMO.projectKey, DEMO.memberPersonalKey]) {
      assert.ok(!text.includes(secret), "no key in the serialized provider");
    }
    assert.doesNotMatch(text, /napi_[a-z0-9]{64}/);
    assert.doesNotMatch(text, /Bearer/i);
    assert.doesNotMatch(text, /authorization/i);
  }

  it("holds no credential in ApiKey's provider code, and the code creates a key from a fresh process", async () => {
    // Stack config recorded in this process must not leak into the serialized text either.
    await apiKeyProvider.configure!({
      config: fakeConfig({ "clouddb:apiKey": DEMO.orgKey, "clouddb:apiUrl": harness.emulator.url }),
    });
    const text = serialized("ApiKey");
    clearStackConfig();
    assertNoCredential(text);
    assert.match(text, /exports\.handler/);
    const result = await createInFreshProcess("apiKey", text, { name: "from-state" });
    const keyId = Number(result.id);
    assert.match(String(result.outs.key), /^napi_/);
    const stored = harness.emulator.control.dumpState().apiKeys.find((k) => k.id === keyId);
    assert.deepEqual([stored?.name, stored?.kind, stored?.revoked], ["from-state", "personal", false]);
  });

  it("holds no credential in Branch's provider code, and the code creates a branch from a fresh process", async () => {
    const text = serialized("Branch");
    assertNoCredential(text);
    assert.match(text, /\.provider\("Branch"\)/, "the code names the kind, not a file");
    const result = await createInFreshProcess("branch", text, {
      projectId: DEMO.projectId,
      name: "from-state",
      endpoints: [{ type: "read_write" }],
    });
    assert.match(result.id, /^br-/);
    const stored = harness.emulator.control.dumpState().branches.find((b) => b.id === result.id);
    assert.equal(stored?.name, "from-state");
    assert.equal(stored?.deleted_at_ms, undefined);
    assert.equal(result.outs.currentState, "ready");
  });

  it("keeps the provider code to one line: the client is required at run time, not copied", () => {
    for (const declaration of DECLARATIONS) {
      const text = serialized(declaration.type);
      assert.equal(text.trim().split("\n").length, 1, text);
      assert.doesNotMatch(text, /\bgot\b|zod|createClient|resources\//);
    }
  });

  it("runs the code of a stack made before the state named kinds: each kind's old module path finds its kind", async () => {
    for (const [file, type] of Object.entries(STATE_PATHS_0_0)) {
      assert.equal(kindOfStatePath(`pulumi-clouddb/lib/provider/${file}`), type);
      assert.equal(kindOfStatePath(`/home/ci/app/node_modules/pulumi-clouddb/lib/provider/${file}.js`), type);
    }
    // Every kind a 0.0.x stack may hold is still served; a kind added since has no row there.
    const declared = new Set(DECLARATIONS.map((d) => d.type));
    assert.deepEqual(
      Object.values(STATE_PATHS_0_0).filter((type) => !declared.has(type)),
      [],
      "a kind of 0.0.x is no longer declared",
    );
    const result = await createInFreshProcess("apiKeyBefore", serializedBefore("apiKeyMethods"), {
      name: "from-old-state",
    });
    assert.match(String(result.outs.key), /^napi_/);
  });
});
