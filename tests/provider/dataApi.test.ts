import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { setHostLineWriter } from "../../provider/resources/host/progress";
import { forgetPreflight } from "../../provider/resources/lifecycle/preflight";
import {
  type DataApiInputs,
  type DataApiOutputs,
  dataApiProvider,
} from "../../provider/resources/public/dataApi";
import { type JwksInputs, type JwksOutputs, jwksProvider } from "../../provider/resources/public/jwks";
import { PROVIDER_TEXT, useEmulator } from "./support";

// DataApi and Jwks against the emulator (docs/api-rules.md §24): the Data API enabled with its
// settings, changed in place, replaced for its authentication, refreshed with drift made outside,
// taken over after a killed create, imported and disabled; a project's JWKS URL added, replaced on
// any change, refreshed, imported, taken after a killed create, and removed.

const P = DEMO.projectId;
const B = DEMO.branchId;

describe("DataApi and Jwks against the emulator", () => {
  const harness = useEmulator({ clock: "manual" });
  const control = () => harness.emulator.control;
  beforeEach(() => {
    forgetPreflight();
    control().clearRequests();
  });
  const branch = () =>
    control()
      .dumpState()
      .branches.find((b) => b.id === B);
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${harness.emulator.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${DEMO.personalKey}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const dataApi = (values: Partial<DataApiInputs> = {}): DataApiInputs =>
    ({
      projectId: P,
      branchId: B,
      databaseName: "neondb",
      settings: { dbMaxRows: 100 },
      ...values,
      __provider: PROVIDER_TEXT,
    }) as DataApiInputs;
  const jwks = (values: Partial<JwksInputs> = {}): JwksInputs =>
    ({
      projectId: P,
      jwksUrl: "https://clerk.example.com/.well-known/jwks.json",
      providerName: "Clerk",
      ...values,
      __provider: PROVIDER_TEXT,
    }) as JwksInputs;
  const D = `/projects/${P}/branches/${B}/data-api/neondb`;

  it("DataApi: enabled with its settings, changed in place, replaced for its authentication, drift refreshed, disabled", async () => {
    const made = await dataApiProvider.create(dataApi());
    const outs = made.outs as DataApiOutputs;
    assert.equal(made.id, `${P}/${B}/neondb`);
    assert.match(outs.url, /^https:\/\/ep-[a-z0-9-]+\.apirest\..*\/neondb\/rest\/v1$/);
    assert.equal(outs.status, "ready");
    assert.deepEqual(branch()?.data_apis?.[0]?.settings, { db_max_rows: 100 });
    assert.deepEqual(harness.writes(), [`POST ${D}`]);

    const inPlace = await dataApiProvider.diff!(
      made.id,
      outs,
      dataApi({ settings: { dbSchemas: ["public", "api"] } }),
    );
    assert.deepEqual([inPlace.changes, inPlace.replaces], [true, []]);
    const auth = await dataApiProvider.diff!(
      made.id,
      outs,
      dataApi({ jwksUrl: "https://auth.example.com/jwks" }),
    );
    assert.deepEqual(auth.replaces, ["jwksUrl"]);
    const database = await dataApiProvider.diff!(made.id, outs, dataApi({ databaseName: "other" }));
    assert.deepEqual(database.replaces, ["databaseName"]);

    control().clearRequests();
    const updated = await dataApiProvider.update!(
      made.id,
      outs,
      dataApi({ settings: { dbSchemas: ["public", "api"] } }),
    );
    assert.deepEqual(harness.writes(), [`PATCH ${D}`]);
    assert.deepEqual(
      branch()?.data_apis?.[0]?.settings,
      { db_schemas: ["public", "api"] },
      "dbMaxRows removed goes back to its default",
    );
    const uOuts = updated.outs as DataApiOutputs;

    const clean = await dataApiProvider.read!(made.id, uOuts);
    assert.deepEqual(
      clean.props?.settings,
      { dbSchemas: ["public", "api"] },
      "the defaults never show as drift",
    );
    assert.equal(
      (await api("PATCH", D, { settings: { db_schemas: ["public", "api"], db_anon_role: "web_anon" } }))
        .status,
      201,
    );
    const drift = await dataApiProvider.read!(made.id, uOuts);
    assert.deepEqual(drift.props?.settings, { dbSchemas: ["public", "api"], dbAnonRole: "web_anon" });

    control().clearRequests();
    await dataApiProvider.delete!(made.id, uOuts);
    assert.deepEqual(harness.writes(), [`DELETE ${D}`]);
    assert.deepEqual(branch()?.data_apis, []);
    assert.equal((await dataApiProvider.read!(made.id, uOuts)).id, "", "refresh drops a Data API disabled");
  });

  it("DataApi: a create after a killed run takes the Data API it made, saying so; import reads one made outside", async () => {
    assert.equal((await api("POST", D, { settings: { db_max_rows: 5 } })).status, 201);
    const said: string[] = [];
    setHostLineWriter((line) => said.push(line));
    let made: Awaited<ReturnType<typeof dataApiProvider.create>>;
    try {
      made = await dataApiProvider.create(dataApi());
    } finally {
      setHostLineWriter(undefined);
    }
    assert.match(
      said.join("\n"),
      /database neondb on branch .* already has the Data API: this resource takes it/,
    );
    assert.deepEqual(
      branch()?.data_apis?.[0]?.settings,
      { db_max_rows: 100 },
      "the declared settings applied",
    );
    const imported = await dataApiProvider.read!(made.id, undefined as unknown as DataApiOutputs);
    assert.deepEqual(
      [imported.id, imported.props?.url, imported.props?.settings],
      [made.id, made.outs?.url, { dbMaxRows: 100 }],
    );
    await dataApiProvider.delete!(made.id, made.outs as DataApiOutputs);
    const none = await dataApiProvider.read!(made.id, undefined as unknown as DataApiOutputs);
    assert.equal(none.id, "", "nothing to import once disabled");
  });

  it("DataApi: a create whose read-back fails records the Data API it enabled, and the next up finishes it", async () => {
    control().failNext("GET /projects/{project_id}/branches/{branch_id}/data-api/{database_name}", {
      status: 403,
    });
    const err = await dataApiProvider.create(dataApi()).then(
      () => assert.fail("the create succeeded"),
      (e: unknown) => e as { id?: string; message: string; properties?: DataApiOutputs },
    );
    assert.equal(err.id, `${P}/${B}/neondb`, `a partial failure: ${err.message}`);
    assert.match(err.message, /It is recorded in the state/);
    assert.equal(branch()?.data_apis?.length, 1, "enabled, and recorded");
    const diff = await dataApiProvider.diff!(err.id ?? "", err.properties as DataApiOutputs, dataApi());
    assert.equal(diff.changes, true, "the next up finishes it");
    const done = await dataApiProvider.update!(err.id ?? "", err.properties as DataApiOutputs, dataApi());
    assert.notEqual((done.outs as DataApiOutputs).url, "", "the next up reads it");
    await dataApiProvider.delete!(err.id ?? "", done.outs as DataApiOutputs);
  });

  it("DataApi: preview refuses external authentication without a JWKS URL, and settings the API refuses", async () => {
    const external = await dataApiProvider.check!({} as DataApiInputs, dataApi({ authProvider: "external" }));
    assert.match(external.failures?.[0]?.reason ?? "", /authProvider external needs jwksUrl/);
    const empty = await dataApiProvider.check!({} as DataApiInputs, dataApi({ settings: { dbSchemas: [] } }));
    assert.match(empty.failures?.[0]?.reason ?? "", /dbSchemas must name at least one schema/);
    assert.deepEqual(harness.writes(), []);
  });

  it("Jwks: added, replaced on any change, refreshed, imported, taken after a killed create, removed", async () => {
    const made = await jwksProvider.create(jwks({ jwtAudience: "app" }));
    const outs = made.outs as JwksOutputs;
    assert.equal(made.id, `${P}/${outs.jwksId}`);
    assert.deepEqual(outs.roleNames, ["authenticator", "authenticated", "anonymous"]);
    const change = await jwksProvider.diff!(made.id, outs, jwks({ jwtAudience: "api" }));
    assert.deepEqual(change.replaces, ["jwtAudience"]);
    const refreshed = await jwksProvider.read!(made.id, outs);
    assert.deepEqual([refreshed.props?.jwksUrl, refreshed.props?.jwtAudience], [outs.jwksUrl, "app"]);
    const imported = await jwksProvider.read!(made.id, undefined as unknown as JwksOutputs);
    assert.deepEqual(
      [imported.id, imported.props?.providerName, imported.props?.jwtAudience],
      [made.id, "Clerk", "app"],
    );

    const said: string[] = [];
    setHostLineWriter((line) => said.push(line));
    try {
      const again = await jwksProvider.create(jwks({ jwtAudience: "app" }));
      assert.equal(again.id, made.id, "a killed run's key set is taken, not added twice");
    } finally {
      setHostLineWriter(undefined);
    }
    assert.match(said.join("\n"), /already trusts https:\/\/clerk\.example\.com/);

    await jwksProvider.delete!(made.id, outs);
    assert.deepEqual(
      control()
        .dumpState()
        .projects.find((p) => p.id === P)?.jwks,
      [],
    );
    assert.equal((await jwksProvider.read!(made.id, outs)).id, "", "refresh drops a key set removed");
    const http = await jwksProvider.check!(
      {} as JwksInputs,
      jwks({ jwksUrl: "http://insecure.example.com/jwks" }),
    );
    assert.match(http.failures?.[0]?.reason ?? "", /jwksUrl must be an HTTPS URL/);
  });
});
