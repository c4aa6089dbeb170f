import assert from "node:assert/strict";
import { DEMO, type RunningEmulator } from "../../emulator";
import { api, type Json, start } from "./helpers";

// The Data API on a branch's database and a project's JWKS URLs (docs/api-rules.md §24): the url
// it answers on the branch's read-write compute, its settings with the documented defaults, a
// change replacing them, what it follows when its database or branch goes, and the key sets a
// project trusts, for every branch or for one.

const P = `/projects/${DEMO.projectId}`;
const B = `${P}/branches/${DEMO.branchId}`;
const D = `${B}/data-api/neondb`;

describe("emulator: the Data API and JWKS", () => {
  let emu: RunningEmulator;
  let http: ReturnType<typeof api>;
  beforeEach(async () => {
    emu = await start();
    http = api(emu, DEMO.personalKey);
  });
  afterEach(() => emu.stop());

  it("answers on the branch's read-write compute, its unset settings reading as the documented defaults", async () => {
    const created = await http.post(D, { settings: { db_max_rows: 100 } });
    assert.equal(created.status, 201, created.text);
    assert.equal(
      created.body.url,
      `https://${DEMO.endpointId}.apirest.us-east-2.aws.clouddb.local/neondb/rest/v1`,
    );
    const got = await http.get(D);
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body, {
      url: created.body.url,
      status: "ready",
      settings: {
        db_aggregates_enabled: true,
        db_anon_role: "anonymous",
        db_schemas: ["public"],
        jwt_role_claim_key: ".role",
        openapi_mode: "disabled",
        db_max_rows: 100,
      },
      available_schemas: ["public"],
    });
  });

  it("a change replaces the settings as a whole; one without settings only refreshes the schema cache", async () => {
    await http.post(D, { settings: { db_max_rows: 100, server_timing_enabled: true } });
    const changed = await http.patch(D, { settings: { db_schemas: ["public", "api"] } });
    assert.deepEqual([changed.status, changed.body], [201, {}]);
    let settings = (await http.get(D)).body.settings;
    assert.deepEqual(
      [settings.db_schemas, settings.db_max_rows, settings.server_timing_enabled],
      [["public", "api"], undefined, undefined],
    );
    assert.equal((await http.patch(D, {})).status, 201);
    settings = (await http.get(D)).body.settings;
    assert.deepEqual(settings.db_schemas, ["public", "api"]);
    const refused = await http.patch(D, { settings: { openapi_mode: "everything" } });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /openapi_mode must be "ignore-privileges" or "disabled"/);
  });

  it("external authentication needs an HTTPS JWKS URL; neon_auth takes none", async () => {
    const none = await http.post(D, { auth_provider: "external" });
    assert.equal(none.status, 400);
    const plain = await http.post(D, { jwks_url: "http://auth.example.com/jwks" });
    assert.equal(plain.status, 400);
    assert.match(plain.body.message, /must be an HTTPS URL/);
    const mixed = await http.post(D, {
      auth_provider: "neon_auth",
      jwks_url: "https://auth.example.com/jwks",
    });
    assert.equal(mixed.status, 400);
    const external = await http.post(D, {
      jwks_url: "https://auth.example.com/jwks",
      provider_name: "Clerk",
      jwt_audience: "app",
    });
    assert.equal(external.status, 201, external.text);
    const record = emu.control.dumpState().branches.find((b) => b.id === DEMO.branchId)?.data_apis?.[0];
    assert.deepEqual(
      [record?.auth_provider, record?.jwks_url, record?.provider_name, record?.jwt_audience],
      ["external", "https://auth.example.com/jwks", "Clerk", "app"],
    );
  });

  it("goes with its database: a database made again under the same name starts without it", async () => {
    const db = `${B}/databases`;
    emu.control.advance(60_000);
    assert.equal(
      (await http.post(db, { database: { name: "app", owner_name: "neondb_owner" } })).status,
      201,
    );
    emu.control.advance(60_000);
    assert.equal((await http.post(`${B}/data-api/app`, {})).status, 201);
    emu.control.advance(60_000);
    assert.equal((await http.delete(`${db}/app`)).status, 200);
    emu.control.advance(60_000);
    const gone = await http.get(`${B}/data-api/app`);
    assert.equal(gone.status, 404);
    assert.match(gone.body.message, /database app not found/);
    assert.equal(
      (await http.post(db, { database: { name: "app", owner_name: "neondb_owner" } })).status,
      201,
    );
    emu.control.advance(60_000);
    const fresh = await http.get(`${B}/data-api/app`);
    assert.equal(fresh.status, 404);
    assert.match(fresh.body.message, /not enabled for database app/);
  });

  it("lives on its branch: a branch without a read-write compute is refused; a deleted branch's comes back with it", async () => {
    const child = await http.post(`${P}/branches`, { branch: { name: "bare" } });
    assert.equal(child.status, 201, child.text);
    emu.control.advance(60_000);
    const bare = await http.post(`${P}/branches/${child.body.branch.id}/data-api/neondb`, {});
    assert.equal(bare.status, 409);
    assert.match(bare.body.message, /no read-write compute/);
    const made = await http.post(`${P}/branches`, {
      branch: { name: "app" },
      endpoints: [{ type: "read_write" }],
    });
    const C = `${P}/branches/${made.body.branch.id}`;
    emu.control.advance(60_000);
    assert.equal((await http.post(`${C}/data-api/neondb`, {})).status, 201);
    assert.equal((await http.delete(C)).status, 200);
    emu.control.advance(60_000);
    assert.equal((await http.get(`${C}/data-api/neondb`)).status, 404);
    assert.equal((await http.post(`${C}/recover`)).status, 200);
    emu.control.advance(60_000);
    assert.equal((await http.get(`${C}/data-api/neondb`)).status, 200);
  });

  it("JWKS: added for every branch or one, with the default roles; listed, removed; errors name the fix", async () => {
    const J = `${P}/jwks`;
    const all = await http.post(J, {
      jwks_url: "https://clerk.example.com/.well-known/jwks.json",
      provider_name: "Clerk",
    });
    assert.equal(all.status, 201, all.text);
    assert.deepEqual(all.body.operations, []);
    assert.deepEqual(all.body.jwks.role_names, ["authenticator", "authenticated", "anonymous"]);
    assert.equal(all.body.jwks.branch_id, undefined);
    const one = await http.post(J, {
      jwks_url: "https://auth0.example.com/jwks",
      provider_name: "Auth0",
      branch_id: DEMO.branchId,
      jwt_audience: "api",
      role_names: ["authenticated"],
    });
    assert.equal(one.status, 201, one.text);
    const listed = (await http.get(J)).body.jwks as Json[];
    assert.deepEqual(
      listed.map((j) => [j.provider_name, j.branch_id, j.jwt_audience, j.role_names]),
      [
        ["Clerk", undefined, undefined, ["authenticator", "authenticated", "anonymous"]],
        ["Auth0", DEMO.branchId, "api", ["authenticated"]],
      ],
    );
    const again = await http.post(J, {
      jwks_url: "https://clerk.example.com/.well-known/jwks.json",
      provider_name: "Clerk",
    });
    assert.equal(again.status, 409);
    assert.match(again.body.message, new RegExp(`already added to project ${DEMO.projectId}`));
    const noBranch = await http.post(J, {
      jwks_url: "https://x.example.com/jwks",
      provider_name: "X",
      branch_id: "br-none-00000000",
    });
    assert.equal(noBranch.status, 404);
    assert.equal((await http.post(J, { jwks_url: "not a url", provider_name: "X" })).status, 400);
    const removed = await http.delete(`${J}/${all.body.jwks.id}`);
    assert.deepEqual([removed.status, removed.body.id], [200, all.body.jwks.id]);
    assert.deepEqual(
      ((await http.get(J)).body.jwks as Json[]).map((j) => j.id),
      [one.body.jwks.id],
    );
    const gone = await http.delete(`${J}/${all.body.jwks.id}`);
    assert.equal(gone.status, 404);
    assert.match(gone.body.message, new RegExp(`JWKS ${all.body.jwks.id} not found`));
  });
});
