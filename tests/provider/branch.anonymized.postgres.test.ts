import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { createClient } from "../../provider/client";
import type { BranchInputs, BranchOutputs } from "../../provider/resources/public/branch";
import { branchProvider } from "../../provider/resources/public/branch";
import { dataPlaneRun, runSql } from "../emulator/helpers";
import { anonymizedInputs, branchSteps, EMAIL_RULE, linesOf, useEmulator } from "./support";

// Each way an anonymized branch could serve its parent's personal data, on the emulator's real
// Postgres: the parent holds a marker row, and a reader who asks the API for a connection string to
// each compute of the branch (what anyone with the project's key can do) must never read it.

const PROJECT = DEMO.projectId;

describe(`an anonymized Branch never serves its parent's real rows, on the emulator's Postgres${dataPlaneRun()}`, function () {
  this.timeout(120_000);
  const harness = useEmulator({ postgres: true, limits: false });
  const MARKER = "real.person@corp.example";
  const client = () => createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });
  const { create, update } = branchSteps(anonymizedInputs);
  afterEach(() => harness.emulator.control.clearFaults());

  /** The emails anyone with the key reads through each compute of the branch (none where refused). */
  async function readable(branchId: string): Promise<string[]> {
    const api = client();
    const endpoints = await api.listBranchEndpoints(PROJECT, branchId).catch(() => []);
    const emails: string[] = [];
    for (const ep of endpoints) {
      const database = (await api.listDatabases(PROJECT, branchId))[0];
      if (database === undefined) continue;
      const roleName = database.owner_name ?? "";
      const query = { branchId, endpointId: ep.id, databaseName: database.name, roleName };
      const uri = await api.getConnectionUri(PROJECT, query).catch(() => undefined);
      if (uri === undefined) continue;
      const rows = await runSql<{ email: string }>(
        uri,
        harness.emulator.caPath,
        "SELECT email FROM users",
      ).catch(() => []);
      emails.push(...rows.map((r) => r.email));
    }
    return emails;
  }

  /** The anonymized branches of the project now. */
  const anonymizedBranches = () =>
    harness.emulator.control
      .dumpState()
      .branches.filter((b) => b.anonymization !== undefined && b.deleted_at_ms === undefined)
      .map((b) => b.id);

  /** Runs `act` while a reader keeps reading every anonymized branch; answers the marker rows it read. */
  async function leaksDuring(act: () => Promise<unknown>): Promise<string[]> {
    let done = false;
    const leaked: string[] = [];
    const reader = (async () => {
      while (!done) {
        for (const id of anonymizedBranches()) {
          leaked.push(...(await readable(id)).filter((email) => email === MARKER).map(() => id));
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      await act().catch(() => undefined);
    } finally {
      done = true;
      await reader;
    }
    return leaked;
  }

  const masked = async (branchId: string) => {
    const emails = await readable(branchId);
    assert.ok(emails.length > 0, "the compute serves the masked rows");
    assert.ok(!emails.includes(MARKER), `no marker row: ${emails}`);
  };

  before(async () => {
    const parent = harness.emulator.control.dumpState().branches.find((b) => b.id === DEMO.branchId)!;
    const database = parent.databases[0]!;
    const uri = await client().getConnectionUri(PROJECT, {
      databaseName: database.name,
      roleName: database.owner_name,
    });
    await runSql(
      uri,
      harness.emulator.caPath,
      "CREATE TABLE users (id serial PRIMARY KEY, email text NOT NULL, name text)",
      `INSERT INTO users (email, name) VALUES ('${MARKER}', 'Real Person'), ('second@corp.example', 'Other')`,
    );
  });

  const declared = (name: string, extra: Partial<BranchInputs> = {}) => ({
    name,
    endpoints: [{ type: "read_write" as const }],
    maskingRules: [EMAIL_RULE],
    ...extra,
  });

  it("a create whose rule fails leaves no branch, no compute and no connection string: nothing reads the parent's rows", async () => {
    const bad = { ...EMAIL_RULE, columnName: "mail" };
    const leaked = await leaksDuring(() =>
      create(declared("pr-bad-rule", { maskingRules: [EMAIL_RULE, bad] })),
    );
    assert.deepEqual(leaked, []);
    const left = harness.emulator.control.dumpState().branches.filter((b) => b.name === "pr-bad-rule");
    assert.ok(
      left.every((b) => b.deleted_at_ms !== undefined),
      "the branch is deleted",
    );
    for (const b of left) assert.deepEqual(await readable(b.id), []);
  });

  it("a reset from the parent serves no real row at any moment, and serves masked rows after", async () => {
    const { id, outs } = await create(declared("pr-reset"));
    await masked(id);
    // The masking run starts late: the window in which the parent's rows are back, unmasked.
    harness.emulator.control.failNext(
      `POST /projects/${PROJECT}/branches/${id}/anonymize`,
      { delayMs: 800, passThrough: true },
      1,
    );
    const leaked = await leaksDuring(() => update(id, outs, declared("pr-reset", { resetTrigger: "1" })));
    assert.deepEqual(leaked, []);
    await masked(id);
  });

  it("a reset stopped after the restore (its masking fails) leaves the compute disabled; the next up masks and enables it", async () => {
    const { id, outs } = await create(declared("pr-killed"));
    harness.emulator.control.failNext(
      `POST /projects/${PROJECT}/branches/${id}/anonymize`,
      { status: 400 },
      1,
    );
    const news = declared("pr-killed", { resetTrigger: "1" });
    await assert.rejects(update(id, outs, news));
    assert.deepEqual(await readable(id), [], "the restored, unmasked data is not served");
    const endpoints = await client().listBranchEndpoints(PROJECT, id);
    assert.deepEqual(
      endpoints.map((ep) => ep.disabled),
      [true],
    );
    // The next up runs the same update again (its state was not written).
    await update(id, outs, news);
    await masked(id);
  });

  it("a reset outside the stack is disabled by the refresh that sees it; the next up masks and enables it", async () => {
    const { id, outs } = await create(declared("pr-outside"));
    await client().restoreBranch(PROJECT, id, { source_branch_id: DEMO.branchId });
    const read = await linesOf(() => branchProvider.read!(id, outs));
    const refreshed = read.result.props as BranchOutputs;
    assert.deepEqual(await readable(id), [], "after the refresh, nothing reads the restored rows");
    assert.equal(refreshed.anonymizationState, "initialized");
    assert.match(
      read.lines.join("\n"),
      /warning: .* is anonymized but its data is not known masked .* disabled/,
    );
    const diff = await branchProvider.diff!(id, refreshed, anonymizedInputs(declared("pr-outside")));
    assert.equal(diff.changes, true, "the next up masks it");
    await update(id, refreshed, declared("pr-outside"));
    await masked(id);
  });

  it("refuses at check an anonymized branch without masking rules: no full copy is made", async () => {
    const check = await branchProvider.check!({} as BranchInputs, anonymizedInputs({ name: "pr-no-rules" }));
    assert.match(check.failures?.[0]?.reason ?? "", /^maskingRules: .*none is given.*Add maskingRules/);
  });
});
