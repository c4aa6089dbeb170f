import assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { api, branchWithCompute, dataPlaneRun, type Json, newProject, runSql, untilIdle } from "./helpers";

// An anonymized branch's status says when its masking run completed; the data at that time is
// masked, however long the masking itself took (docs/api-rules.md §16, "History"). The clock runs a
// thousand times faster than the wall, so the masking's few wall milliseconds are seconds of it.

const MARKER = "marker.real@corp.example";

describe(`an anonymized branch's history with the data plane${dataPlaneRun()}`, function () {
  this.timeout(120_000);
  let emu: RunningEmulator;
  let http: ReturnType<typeof api>;

  before(async () => {
    emu = await startEmulator({
      postgres: true,
      limits: false,
      timeScale: 1000,
      opDurationMs: { default: 20, anonymize: 0 },
    });
    http = api(emu, DEMO.personalKey);
  });
  after(() => emu?.stop());

  it("completes a run no earlier than its masking: a child at the second after completed_at reads no unmasked row", async () => {
    const { project, branch: main, uri } = await newProject(http, "history");
    await runSql(
      uri,
      emu.caPath,
      "CREATE TABLE users (id serial PRIMARY KEY, email text NOT NULL)",
      `INSERT INTO users (email) VALUES ('${MARKER}')`,
    );
    await untilIdle(http, project);
    const created = await http.post(`/projects/${project}/branch_anonymized`, {
      branch_create: { branch: { name: "masked", parent_id: main } },
      masking_rules: [
        {
          database_name: "neondb",
          schema_name: "public",
          table_name: "users",
          column_name: "email",
          masking_function: "anon.fake_email()",
        },
      ],
      start_anonymization: true,
    });
    assert.equal(created.status, 201, created.text);
    const anon = created.body.branch.id as string;
    let status: Json;
    do {
      status = (await http.get(`/projects/${project}/branches/${anon}/anonymized_status`)).body;
    } while (status.state !== "anonymized" && status.state !== "error");
    assert.equal(status.state, "anonymized", status.status_message);
    const safe = Math.floor(Date.parse(status.last_run.completed_at) / 1000) * 1000 + 1000;
    while (emu.control.now() <= safe) await new Promise((resolve) => setTimeout(resolve, 5));
    const child = await branchWithCompute(http, project, {
      parent_id: anon,
      parent_timestamp: new Date(safe).toISOString(),
    });
    const rows = await runSql(child.uri, emu.caPath, "SELECT email FROM users");
    assert.equal(rows.length, 1);
    assert.notEqual(rows[0].email, MARKER);
  });
});
