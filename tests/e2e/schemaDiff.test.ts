// getSchemaDiff under the real engine: a YAML program invokes it through the provider plugin,
// against the emulator with its Postgres data plane, after a table was made on a feature branch
// through a real connection; the stack's output is the diff a pull request comment would show.
import * as assert from "node:assert/strict";
import { Client } from "pg";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { api, verifyFull } from "../emulator/helpers";
import { projectIdle } from "../provider/support";
import { fixture, programStack } from "./support/programStack";
import { collect, type E2eStack } from "./support/stack";

describe("e2e: getSchemaDiff invoked from a YAML program, through the provider plugin", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  let featureId: string;

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 50, postgres: true });
    const made = await api(emulator, DEMO.personalKey).post(`/projects/${DEMO.projectId}/branches`, {
      branch: { parent_id: DEMO.branchId, name: "feature" },
      endpoints: [{ type: "read_write" }],
    });
    assert.equal(made.status, 201, made.text);
    featureId = made.body.branch.id;
    await projectIdle(emulator, DEMO.projectId);
    const client = new Client({
      connectionString: verifyFull(made.body.connection_uris[0].connection_uri, emulator.caPath),
    });
    await client.connect();
    await client.query(
      "CREATE TABLE reviews (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, body text)",
    );
    await client.end();
    e2e = await programStack({
      copyOf: fixture("schema-diff-yaml"),
      emulator,
      language: "yaml",
      config: { projectId: DEMO.projectId, featureBranchId: featureId },
    });
  });
  after(async () => {
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("puts the table made on the feature branch in the stack's diff output, and finds nothing between a branch and itself", async () => {
    const up = await e2e.stack.up(collect(e2e.output));
    const log = e2e.output.join("\n");
    const { diff, changed, itselfChanged } = up.outputs;
    assert.equal(changed?.value, true, log);
    assert.equal(itselfChanged?.value, false, log);
    const text = String(diff?.value);
    assert.match(
      text,
      new RegExp(
        `^--- neondb \\(branch ${DEMO.branchId}\\)\\n\\+\\+\\+ neondb \\(branch ${featureId}\\)$`,
        "m",
      ),
    );
    assert.match(text, /^\+CREATE TABLE public\.reviews \($/m);
    assert.match(text, /^\+ {4}id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,$/m);
    assert.deepEqual(
      emulator.control
        .requests({ route: "GET /projects/{project_id}/branches/{branch_id}/compare_schema" })
        .map((r) => r.status),
      [200, 200],
    );
  });
});
