import assert from "node:assert/strict";
import { createApiClient } from "@neondatabase/api-client";
import { DEMO, type RunningEmulator } from "../../emulator";
import {
  type api,
  api as apiOf,
  dataPlaneProject,
  dataPlaneRun,
  type Json,
  runSql,
  start,
  untilIdle,
} from "./helpers";

// Anonymized branches: a team copies production into a branch whose personal data is masked by
// rules, and re-masks when the rules change. With the data plane the masking is real, on the
// branch's own copy; without it the rules and the states behave the same and nothing is masked.

/** A rule on `public.users` of `neondb`. */
const rule = (column: string, masking: { masking_function?: string; masking_value?: string }) => ({
  database_name: "neondb",
  schema_name: "public",
  table_name: "users",
  column_name: column,
  ...masking,
});

const EMAIL = /^[a-z]+\.[a-z]+\.[0-9a-f]{8}@example\.(com|net|org)$/;

const PEOPLE = [
  ["ada.lovelace@analytical.org", "Ada", "Lovelace", "+44 20 7946 0001", 36],
  ["alan.turing@bletchley.uk", "Alan", "Turing", "+44 20 7946 0002", 41],
  ["grace.hopper@navy.mil", "Grace", "Hopper", "+1 202 555 0143", 85],
  ["edsger@dijkstra.nl", "Edsger", "Dijkstra", "+31 20 555 0199", 72],
  ["barbara.liskov@mit.edu", "Barbara", "Liskov", "+1 617 555 0110", 84],
] as const;

/** Reads the anonymization status until it leaves the running states; answers the last status. */
async function settled(http: ReturnType<typeof api>, project: string, branch: string): Promise<Json> {
  for (;;) {
    const status = await http.get(`/projects/${project}/branches/${branch}/anonymized_status`);
    assert.equal(status.status, 200, status.text);
    if (!["created", "anonymizing"].includes(status.body.state)) return status.body;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe(`anonymized branches with the data plane (real masking${dataPlaneRun()})`, function () {
  this.timeout(120_000);
  let emu: RunningEmulator;
  let http: ReturnType<typeof api>;
  let project: string;
  let main: string;
  let mainUri: string;
  let anon: string;
  let anonUri: string;
  const query = (uri: string, sql: string) => runSql(uri, emu.caPath, sql);
  const users = (uri: string) => query(uri, "SELECT * FROM users ORDER BY id");
  let parentRows: Json[];

  before(async () => {
    ({ emu, http, project, main, mainUri } = await dataPlaneProject("anonymized"));
    // No UNIQUE on email: a partial email of random fake ones (the re-mask below) can repeat, which
    // a unique column refuses, as the service's masking would.
    await query(
      mainUri,
      "CREATE TABLE users (id serial PRIMARY KEY, email text NOT NULL, first_name text, " +
        "last_name varchar(40), phone text, note text, age int, token text)",
    );
    const values = PEOPLE.map(
      ([email, first, last, phone, age]) =>
        `('${email}', '${first}', '${last}', '${phone}', 'vip', ${age}, 'x')`,
    );
    await query(
      mainUri,
      `INSERT INTO users (email, first_name, last_name, phone, note, age, token) VALUES ${values.join(", ")}`,
    );
    parentRows = await users(mainUri);
    await untilIdle(http, project);
    const created = await http.post(`/projects/${project}/branch_anonymized`, {
      branch_create: { branch: { name: "masked" }, endpoints: [{ type: "read_write" }] },
      masking_rules: [
        rule("email", { masking_function: "anon.fake_email()" }),
        rule("first_name", { masking_function: "anon.fake_first_name()" }),
        rule("last_name", { masking_function: "anon.fake_last_name()" }),
        rule("phone", { masking_function: "anon.partial(phone, 3, '******', 2)" }),
        rule("note", { masking_value: "redacted" }),
        rule("age", { masking_function: "anon.random_int_between(18, 65)" }),
      ],
      start_anonymization: true,
      annotation_value: { team: "data" },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(
      created.body.operations.map((op: Json) => op.action),
      ["create_branch", "start_compute"],
    );
    anon = created.body.branch.id;
    anonUri = created.body.connection_uris[0].connection_uri;
  });

  after(() => emu?.stop());

  it("masks the branch's own copy by every rule and leaves the parent as it was", async () => {
    const status = await settled(http, project, anon);
    assert.equal(status.state, "anonymized", status.status_message);
    assert.equal(status.last_run.masked_columns, 6);
    assert.equal(status.last_run.triggered_by, DEMO.userId);
    const rows = await users(anonUri);
    assert.equal(rows.length, PEOPLE.length);
    const parentValues = new Set(parentRows.flatMap((r) => [r.email, r.first_name, r.last_name]));
    for (const [i, row] of rows.entries()) {
      const before = parentRows[i];
      for (const column of ["email", "first_name", "last_name"]) {
        assert.ok(!parentValues.has(row[column]), `${column} ${row[column]} is a parent's value`);
      }
      assert.match(row.email, EMAIL);
      assert.match(row.first_name, /^[A-Z][a-z]+$/);
      assert.equal(row.phone, `${before.phone.slice(0, 3)}******${before.phone.slice(-2)}`);
      assert.equal(row.note, "redacted");
      assert.ok(row.age >= 18 && row.age <= 65, `age ${row.age}`);
      assert.equal(row.token, "x", "a column without a rule keeps its value");
    }
    assert.deepEqual(await users(mainUri), parentRows);
    const annotated = await http.get(`/projects/${project}/branches/${anon}`);
    assert.deepEqual(annotated.body.annotation.value, { team: "data", anonymized: "true" });
  });

  it("answers the rules as they were given", async () => {
    const rules = await http.get(`/projects/${project}/branches/${anon}/masking_rules`);
    assert.equal(rules.status, 200, rules.text);
    assert.equal(rules.body.masking_rules.length, 6);
    assert.deepEqual(rules.body.masking_rules[4], rule("note", { masking_value: "redacted" }));
  });

  it("re-masks the branch's current data when a changed rule is run again", async () => {
    const patched = await http.patch(`/projects/${project}/branches/${anon}/masking_rules`, {
      masking_rules: [
        rule("email", { masking_function: "anon.partial_email(email)" }),
        rule("token", { masking_function: "anon.random_string(12)" }),
        rule("last_name", { masking_function: "anon.hash(last_name)" }),
        rule("first_name", { masking_function: "NULL" }),
      ],
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.masking_rules.length, 4);
    const started = await http.post(`/projects/${project}/branches/${anon}/anonymize`);
    assert.equal(started.status, 200, started.text);
    assert.ok(["anonymizing", "anonymized"].includes(started.body.state), JSON.stringify(started.body));
    const status = await settled(http, project, anon);
    assert.equal(status.state, "anonymized", status.status_message);
    const rows = await users(anonUri);
    assert.equal(rows.length, PEOPLE.length);
    for (const row of rows) {
      assert.match(row.email, /^[a-z.]{2}\*{6}@ex\*{6}\.(com|net|org)$/);
      assert.match(row.token, /^[A-Z0-9]{12}$/);
      assert.match(row.last_name, /^[0-9a-f]{40}$/, "a SHA-256 digest cut to the column's 40 characters");
      assert.equal(row.first_name, null);
    }
    assert.deepEqual(await users(mainUri), parentRows);
  });

  it("masks the same data the same way: restored from its parent and anonymized again, the values repeat", async () => {
    await http.patch(`/projects/${project}/branches/${anon}/masking_rules`, {
      masking_rules: [
        rule("email", { masking_function: "anon.fake_email()" }),
        rule("last_name", { masking_function: "anon.fake_last_name()" }),
        rule("token", { masking_function: "anon.random_string(8)" }),
      ],
    });
    const fromParent = async () => {
      await untilIdle(http, project);
      const restored = await http.post(`/projects/${project}/branches/${anon}/restore`, {
        source_branch_id: main,
      });
      assert.equal(restored.status, 200, restored.text);
      assert.equal(
        (await settled(http, project, anon)).state,
        "initialized",
        "the restore replaced the masked data",
      );
      assert.deepEqual(
        (await users(anonUri)).map((r) => r.email),
        parentRows.map((r) => r.email),
      );
      assert.equal((await http.post(`/projects/${project}/branches/${anon}/anonymize`)).status, 200);
      assert.equal((await settled(http, project, anon)).state, "anonymized");
      return users(anonUri);
    };
    const first = await fromParent();
    assert.ok(first.every((r) => EMAIL.test(r.email)));
    assert.deepEqual(await fromParent(), first);
  });

  it("stops at a rule it cannot run, names it, and changes no row; a fixed rule runs again", async () => {
    const before = await users(anonUri);
    const runWith = async (rules: Json[]) => {
      await http.patch(`/projects/${project}/branches/${anon}/masking_rules`, { masking_rules: rules });
      const started = await http.post(`/projects/${project}/branches/${anon}/anonymize`);
      assert.equal(started.status, 200, started.text);
      return settled(http, project, anon);
    };
    /** The status message of a run that fails; the first rule is one that runs. */
    const failure = async (broken: Json) => {
      const status = await runWith([rule("note", { masking_value: "gone" }), broken]);
      assert.equal(status.state, "error");
      assert.ok(status.failed_at);
      return status.status_message as string;
    };
    assert.match(
      await failure(rule("email", { masking_function: "anon.fake_emial()" })),
      /^masking rule 2 \(neondb\.public\.users\.email\): unknown masking function anon\.fake_emial\(\)/,
    );
    assert.equal(
      await failure(rule("nickname", { masking_function: "anon.fake_first_name()" })),
      "masking rule 2 (neondb.public.users.nickname): column nickname does not exist in table public.users",
    );
    assert.match(
      await failure({ ...rule("email", { masking_value: "x" }), table_name: "people" }),
      /^masking rule 2 .*: table public\.people does not exist in database neondb$/,
    );
    assert.match(
      await failure(rule("age", { masking_function: "anon.partial(age, 1, 'x', 1)" })),
      /^masking rule 2 \(neondb\.public\.users\.age\): invalid input syntax for type integer/,
    );
    assert.deepEqual(
      await users(anonUri),
      before,
      "a failed run changes nothing, its earlier rules included",
    );
    const fixed = await runWith([rule("note", { masking_value: "gone" })]);
    assert.equal(fixed.state, "anonymized", fixed.status_message);
    assert.deepEqual(
      (await users(anonUri)).map((r) => r.note),
      PEOPLE.map(() => "gone"),
    );
  });
});

describe("anonymized branches without the data plane (rules and states)", () => {
  let emu: RunningEmulator;
  let http: ReturnType<typeof api>;
  const P = `/projects/${DEMO.projectId}`;

  beforeEach(async () => {
    emu = await start({ opDurationMs: { default: 1000, anonymize: 3000 } });
    http = apiOf(emu, DEMO.personalKey);
  });
  afterEach(() => emu.stop());

  const status = async (branch: string) => (await http.get(`${P}/branches/${branch}/anonymized_status`)).body;

  it("goes created, initialized, anonymizing, anonymized, and says that no data was masked", async () => {
    const created = await http.post(`${P}/branch_anonymized`, {
      masking_rules: [rule("email", { masking_function: "anon.fake_email()" })],
    });
    assert.equal(created.status, 201, created.text);
    const id = created.body.branch.id;
    assert.equal((await status(id)).state, "created");
    const early = await http.post(`${P}/branches/${id}/anonymize`);
    assert.equal(early.status, 409, early.text);
    assert.match(
      early.body.message,
      /is created: anonymization starts only from the initialized, error or anonymized state/,
    );
    emu.control.advance(1000);
    assert.equal((await status(id)).state, "initialized");
    const started = await http.post(`${P}/branches/${id}/anonymize`);
    assert.equal(started.status, 200, started.text);
    assert.equal(started.body.state, "anonymizing");
    assert.equal(started.body.status_message, "Anonymizing table neondb.public.users (1/1)");
    assert.equal((await http.post(`${P}/branches/${id}/anonymize`)).status, 409);
    emu.control.advance(3000);
    const done = await status(id);
    assert.equal(done.state, "anonymized");
    assert.match(
      done.status_message,
      /no data was masked: the emulator runs without its Postgres data plane/,
    );
    assert.equal(done.last_run.masked_columns, 0);
    assert.equal(Date.parse(done.last_run.completed_at) - Date.parse(done.last_run.started_at), 3000);
  });

  it("starts the run asked for with the create once the branch is made", async () => {
    const created = await http.post(`${P}/branch_anonymized`, {
      masking_rules: [rule("email", { masking_function: "anon.nope()" })],
      start_anonymization: true,
    });
    const id = created.body.branch.id;
    assert.equal((await status(id)).state, "created");
    emu.control.advance(1000);
    assert.equal((await status(id)).state, "anonymizing");
    emu.control.advance(3000);
    const failed = await status(id);
    assert.equal(failed.state, "error");
    assert.match(
      failed.status_message,
      /^masking rule 1 \(neondb\.public\.users\.email\): unknown masking function anon\.nope\(\)/,
    );
  });

  it("keeps a disabled compute disabled through a restore from the parent, and starts it no more", async () => {
    const created = await http.post(`${P}/branch_anonymized`, {
      branch_create: { endpoints: [{ type: "read_write" }] },
      masking_rules: [rule("email", { masking_function: "anon.fake_email()" })],
    });
    const id = created.body.branch.id;
    const endpoint = created.body.endpoints[0].id;
    emu.control.advance(3000);
    const disabled = await http.patch(`${P}/endpoints/${endpoint}`, { endpoint: { disabled: true } });
    assert.equal(disabled.status, 200, disabled.text);
    emu.control.advance(3000);
    const restored = await http.post(`${P}/branches/${id}/restore`, { source_branch_id: DEMO.branchId });
    assert.equal(restored.status, 200, restored.text);
    assert.deepEqual(
      restored.body.operations.map((op: Json) => op.action),
      ["suspend_compute", "create_branch"],
      "no start_compute for the disabled compute",
    );
    emu.control.advance(3000);
    const after = (await http.get(`${P}/endpoints/${endpoint}`)).body.endpoint;
    assert.equal(after.disabled, true);
    assert.equal(after.current_state, "idle");
  });

  it("refuses rules that give both or neither of a function and a value", async () => {
    const both = await http.post(`${P}/branch_anonymized`, {
      masking_rules: [rule("email", { masking_function: "NULL", masking_value: "x" })],
    });
    assert.equal(both.status, 400, both.text);
    assert.match(
      both.body.message,
      /masking_rules\[0\]: masking rule 1 \(neondb\.public\.users\.email\) gives both/,
    );
    const created = await http.post(`${P}/branch_anonymized`, {});
    assert.equal(created.status, 201, created.text);
    const neither = await http.patch(`${P}/branches/${created.body.branch.id}/masking_rules`, {
      masking_rules: [rule("email", {})],
    });
    assert.equal(neither.status, 400, neither.text);
    assert.match(neither.body.message, /gives neither masking_function nor masking_value/);
  });

  it("answers 404 for the rules and status of a branch not made anonymized, and 400 for changing or running them", async () => {
    const B = `${P}/branches/${DEMO.branchId}`;
    const message = new RegExp(`branch ${DEMO.branchId} is not an anonymized branch`);
    for (const [reply, code] of [
      [await http.get(`${B}/masking_rules`), 404],
      [await http.get(`${B}/anonymized_status`), 404],
      [await http.patch(`${B}/masking_rules`, { masking_rules: [] }), 400],
      [await http.post(`${B}/anonymize`), 400],
    ] as const) {
      assert.equal(reply.status, code, reply.text);
      assert.match(reply.body.message, message);
    }
  });

  it("is served to the official client unchanged", async () => {
    const client = createApiClient({ apiKey: DEMO.personalKey, baseURL: emu.url });
    const created = await client.createProjectBranchAnonymized(DEMO.projectId, {
      branch_create: { branch: { name: "official-anon" } },
      masking_rules: [rule("email", { masking_function: "anon.fake_email()" })],
    });
    assert.equal(created.status, 201);
    const id = created.data.branch.id;
    const rules = await client.getMaskingRules(DEMO.projectId, id);
    assert.equal(rules.data.masking_rules[0]?.masking_function, "anon.fake_email()");
    const updated = await client.updateMaskingRules(DEMO.projectId, id, {
      masking_rules: [rule("email", { masking_function: "anon.partial_email(email)" })],
    });
    assert.equal(updated.data.masking_rules[0]?.masking_function, "anon.partial_email(email)");
    emu.control.advance(1000);
    const started = await client.startAnonymization(DEMO.projectId, id);
    assert.equal(started.data.state, "anonymizing");
    emu.control.advance(3000);
    const status = await client.getAnonymizedBranchStatus(DEMO.projectId, id);
    assert.equal(status.data.state, "anonymized");
    assert.equal(status.data.branch_id, id);
  });
});
