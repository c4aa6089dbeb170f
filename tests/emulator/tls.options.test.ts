import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, startEmulator } from "../../emulator";
import { endpointCertificates } from "../../emulator/data-plane/certificates";
import { api, dataPlaneRun, selectOne, tlsProject, verifyFull, withParams } from "./helpers";

// TLS under the emulator's options, with real `pg` clients: plain connections allowed, and the CA
// kept with a state file (docs/api-rules.md §14).

describe(`emulator endpoints with plain connections allowed${dataPlaneRun()}`, function () {
  this.timeout(60_000);

  it("lets a login without TLS in, and TLS still works", async () => {
    const emu = await startEmulator({
      postgres: true,
      allowPlainConnections: true,
      opDurationMs: 20,
      limits: false,
    });
    try {
      const { uri } = await tlsProject(emu);
      assert.match(uri, /\?sslmode=require$/, "the URIs still say sslmode=require");
      assert.deepEqual(await selectOne({ connectionString: withParams(uri, { sslmode: "disable" }) }), {
        one: 1,
        encrypted: false,
      });
      assert.deepEqual(await selectOne({ connectionString: verifyFull(uri, emu.caPath) }), {
        one: 1,
        encrypted: true,
      });
    } finally {
      await emu.stop();
    }
  });
});

describe(`emulator endpoints' CA with a state file${dataPlaneRun()}`, function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "clouddb-tls-state-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps the CA beside the state file and reuses it after a restart, so a client trusting it still connects", async () => {
    const stateFile = join(dir, "state.json");
    const first = await startEmulator({ stateFile, postgres: true, opDurationMs: 20, limits: false });
    let ca: string;
    try {
      assert.equal(first.caPath, `${stateFile}.ca.pem`);
      assert.equal(
        statSync(`${stateFile}.ca.key`).mode & 0o777,
        0o600,
        "the CA's key is readable by its owner only",
      );
      ca = first.caCertificate as string;
    } finally {
      await first.stop();
    }
    assert.ok(existsSync(`${stateFile}.ca.pem`), "the kept CA stays after a stop");

    const second = await startEmulator({ stateFile, postgres: true, opDurationMs: 20, limits: false });
    try {
      assert.equal(second.caCertificate, ca, "the same CA after a restart");
      assert.equal(second.caPath, `${stateFile}.ca.pem`);
      const served = await api(second, DEMO.personalKey).get(
        `/projects/${DEMO.projectId}/connection_uri?database_name=neondb&role_name=neondb_owner`,
      );
      assert.equal(served.status, 200, served.text);
      assert.deepEqual(
        await selectOne({ connectionString: verifyFull(served.body.uri, `${stateFile}.ca.pem`) }),
        {
          one: 1,
          encrypted: true,
        },
      );
    } finally {
      await second.stop();
    }
  });

  it("refuses to start with a kept CA it cannot read, naming the files", async () => {
    const stateFile = join(dir, "broken.json");
    const made = await endpointCertificates({ stateFile, hosts: ["127.0.0.1"] });
    made.dispose();
    writeFileSync(`${stateFile}.ca.key`, "not a key");
    await assert.rejects(
      startEmulator({ stateFile, postgres: true }),
      /cannot load the endpoints' CA from \S+broken\.json\.ca\.pem and \S+broken\.json\.ca\.key/,
    );
  });
});
