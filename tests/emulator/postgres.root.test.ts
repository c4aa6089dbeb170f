import assert from "node:assert/strict";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadPackages, startPostgres } from "../../emulator/data-plane/postgres";

// The data plane's Postgres installed and started by root from a folder only root can enter (0700):
// the emulator's own copy of the binaries, reachable by the unprivileged user Postgres runs as.

describe("emulator data plane as root from a 0700 folder", function () {
  this.timeout(60_000);
  let hidden: string;
  let savedTmpdir: string | undefined;

  before(function () {
    if (process.getuid?.() !== 0) this.skip();
    hidden = mkdtempSync(join(tmpdir(), "clouddb-hidden-"));
    savedTmpdir = process.env["TMPDIR"];
  });
  after(() => {
    if (savedTmpdir === undefined) delete process.env["TMPDIR"];
    else process.env["TMPDIR"] = savedTmpdir;
    if (hidden !== undefined) rmSync(hidden, { recursive: true, force: true });
  });

  it("runs Postgres as an unprivileged user when its binaries and TMPDIR are in a folder only root can enter", async () => {
    assert.equal(statSync(hidden).mode & 0o777, 0o700);
    const packages = await loadPackages();
    // The platform package (its native folder and package.json), as a clone in a private folder has it.
    const platformDir = join(hidden, "linux-package");
    cpSync(dirname(dirname(packages.binDir)), platformDir, { recursive: true, verbatimSymlinks: true });
    process.env["TMPDIR"] = hidden;
    const server = await startPostgres({ binDir: join(platformDir, "native", "bin"), pg: packages.pg });
    let dataDir: string;
    try {
      assert.notEqual(statSync(`/proc/${server.pid}`).uid, 0, "postgres does not run as root");
      assert.ok(
        !readlinkSync(`/proc/${server.pid}/exe`).startsWith(hidden),
        "it runs from a folder it can reach",
      );
      const admin = await server.connectAdmin("postgres");
      try {
        await admin.query("CREATE TABLE notes (body text)");
        await admin.query("INSERT INTO notes VALUES ('kept')");
        assert.deepEqual((await admin.query("SELECT body FROM notes")).rows, [{ body: "kept" }]);
        dataDir = (await admin.query("SELECT current_setting('data_directory') AS dir")).rows[0].dir;
      } finally {
        await admin.end();
      }
      assert.ok(!dataDir.startsWith(hidden), `the cluster ${dataDir} is where postgres can reach it`);
    } finally {
      await server.stop();
    }
    assert.equal(existsSync(dataDir), false, "stop removes the cluster");
  });

  it("will not run Postgres from a work folder another user could write to, and says what to do", async () => {
    const packages = await loadPackages();
    const open = join(hidden, "open");
    mkdirSync(join(open, "clouddb-postgres"), { recursive: true });
    chmodSync(hidden, 0o755);
    chmodSync(open, 0o755);
    chmodSync(join(open, "clouddb-postgres"), 0o777);
    process.env["TMPDIR"] = open;
    try {
      await assert.rejects(
        startPostgres(packages),
        /work folder .*clouddb-postgres exists but is not a folder owned by uid 0 and writable only by it: remove it/,
      );
    } finally {
      chmodSync(hidden, 0o700);
    }
  });
});
