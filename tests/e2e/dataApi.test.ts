// The Data API and a project's JWKS URLs through the real engine (docs/api-rules.md §24). In
// TypeScript: `up` killed (SIGKILL of the CLI and the provider) after the service enabled the Data API
// and added the key set and before either answer reached the provider; the next unattended `up` takes
// both, so the database has one Data API and the project one key set; then a preview and a refresh
// with no change, the settings changed in place with one PATCH, and a destroy that leaves neither. In
// YAML through the provider plugin: a Data API and a key set made outside Pulumi imported (neither
// kind adopts), one of each made, the same cycle. Neither kind has a secret output.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator } from "../../emulator";
import { call } from "../emulator/helpers";
import { projectIdle } from "../provider/support";
import { type Declared, declareResources, useCrashFixture } from "./support/crashFixture";
import { nextRun, upKilledThenRerun } from "./support/kill";
import { useDemoBranchYaml } from "./support/programStack";
import { assertNothingToChange, changesOf, collect, mutatingRequests } from "./support/stack";

const P = DEMO.projectId;
const B = DEMO.branchId;
const ENABLE = "POST /projects/{project_id}/branches/{branch_id}/data-api/{database_name}";
const CHANGE = "PATCH /projects/{project_id}/branches/{branch_id}/data-api/{database_name}";
const ADD_JWKS = "POST /projects/{project_id}/jwks";
const CLERK = "https://clerk.example.com/.well-known/jwks.json";

/** The Data APIs of the branch's databases, as the emulator holds them. */
const dataApis = (emulator: RunningEmulator) =>
  emulator.control.dumpState().branches.find((b) => b.id === B)?.data_apis ?? [];
/** The project's JWKS URLs, as the emulator holds them. */
const keySets = (emulator: RunningEmulator) =>
  emulator.control.dumpState().projects.find((p) => p.id === P)?.jwks ?? [];

describe("e2e: a Data API and a JWKS URL converge after a killed create, the settings change in place, destroy leaves neither", function () {
  this.timeout(8 * 60 * 1000);
  const suite = useCrashFixture("crash-data-api");
  const declared = (dbMaxRows: number): Declared[] => [
    {
      kind: "DataApi",
      res: "api",
      args: { projectId: P, branchId: B, databaseName: "neondb", settings: { dbMaxRows } },
    },
    {
      kind: "Jwks",
      res: "clerk",
      args: { projectId: P, branchId: B, jwksUrl: CLERK, providerName: "Clerk" },
    },
  ];

  it("kills up once both are made and their answers held; the next up takes them and makes no other", async () => {
    const { emulator, e2e } = suite;
    await declareResources(e2e, declared(100));
    emulator.control.failNext(ENABLE, { holdMs: 60_000 });
    emulator.control.failNext(ADD_JWKS, { holdMs: 60_000 });
    await upKilledThenRerun(
      e2e,
      { killWhen: () => dataApis(emulator).length === 1 && keySets(emulator).length === 1, killAfterMs: 300 },
      () => emulator.control.clearFaults(),
    );
    assert.equal(dataApis(emulator).length, 1, "one Data API on the database");
    assert.deepEqual(
      keySets(emulator).map((j) => j.jwks_url),
      [CLERK],
      "one key set, not two",
    );
  });

  it("previews and refreshes with no change and no request that changes anything; the settings change in place with one PATCH", async () => {
    const { emulator, e2e } = suite;
    await assertNothingToChange(emulator, e2e, 3);

    const [jwks] = keySets(emulator);
    await declareResources(e2e, declared(200));
    const up = await e2e.stack.up(collect(e2e.output));
    assert.deepEqual(changesOf(up), { same: 2, update: 1 }, e2e.output.join("\n"));
    assert.deepEqual(
      mutatingRequests(emulator).map((r) => r.route),
      [CHANGE],
    );
    assert.deepEqual(dataApis(emulator)[0]?.settings, { db_max_rows: 200 });
    assert.equal(keySets(emulator)[0]?.id, jwks?.id, "the same key set");
  });

  it("destroy disables the Data API and removes the key set", async () => {
    const { emulator, e2e } = suite;
    const run = await nextRun(e2e, "destroy");
    assert.equal(run.code, 0, run.output);
    assert.deepEqual(dataApis(emulator), []);
    assert.deepEqual(keySets(emulator), []);
  });
});

describe("e2e: a Data API and a JWKS URL imported into a YAML program through the plugin, one of each made", function () {
  this.timeout(8 * 60 * 1000);
  const suite = useDemoBranchYaml("data-api-yaml");
  const byHand = async (method: string, path: string, body: unknown) => {
    const answer = await call(suite.emulator.url, method, path, { key: DEMO.personalKey, body });
    assert.equal(answer.status, 201, answer.text);
    await projectIdle(suite.emulator, P);
    return answer.body;
  };

  it("imports both; up makes the others; previews and refreshes with no change; settings in place; destroy leaves none", async () => {
    const { emulator, e2e } = suite;
    await byHand("POST", `/projects/${P}/branches/${B}/databases`, {
      database: { name: "shop", owner_name: "neondb_owner" },
    });
    await byHand("POST", `/projects/${P}/branches/${B}/data-api/shop`, { settings: { db_max_rows: 50 } });
    const clerk = await byHand("POST", `/projects/${P}/jwks`, { jwks_url: CLERK, provider_name: "Clerk" });
    const imported = await e2e.stack.import({
      resources: [
        { type: "clouddb:index:DataApi", name: "shop", id: `${P}/${B}/shop` },
        { type: "clouddb:index:Jwks", name: "clerk", id: `${P}/${clerk.jwks.id}` },
      ],
      generateCode: false,
      ...collect(e2e.output),
    });
    assert.equal(imported.summary.resourceChanges?.import, 2, e2e.output.join("\n"));
    emulator.control.clearRequests();
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changesOf(up).create, 2, e2e.output.join("\n"));
    assert.deepEqual(
      mutatingRequests(emulator)
        .map((r) => r.route)
        .sort(),
      [ENABLE, ADD_JWKS].sort(),
      "the imported ones are left as they are",
    );
    assert.equal(dataApis(emulator).length, 2);
    assert.equal(keySets(emulator).length, 2);

    await assertNothingToChange(emulator, e2e, 5);

    await e2e.stack.setConfig("maxRows", { value: "500" });
    const changed = await e2e.stack.up(collect(e2e.output));
    assert.equal(changesOf(changed).update, 2, e2e.output.join("\n"));
    assert.deepEqual(
      mutatingRequests(emulator).map((r) => r.route),
      [CHANGE, CHANGE],
    );
    assert.deepEqual(
      dataApis(emulator).map((d) => d.settings),
      [{ db_max_rows: 500 }, { db_max_rows: 500 }],
    );

    await e2e.stack.destroy(collect(e2e.output));
    assert.deepEqual(dataApis(emulator), []);
    assert.deepEqual(keySets(emulator), []);
  });
});
