import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import sinon from "sinon";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { createClient, isConfigError, isInvalidArgument, resetRegistry } from "../../provider/client";
import { ROUTE_MODULES } from "../../provider/client/routes";

/** Every route module, by the name of its file: each file of provider/client/api/ is one object family. */
const API = join(__dirname, "../../provider/client/api");
const BY_FILE: Array<[string, Record<string, unknown>]> = readdirSync(API)
  .filter((name) => name.endsWith(".ts"))
  .map((name) => [name.slice(0, -".ts".length), require(join(API, name))]);
const FAMILIES = BY_FILE.map(([, family]) => family);

describe("client routes", () => {
  let emulator: RunningEmulator | undefined;
  afterEach(async () => {
    sinon.restore();
    await emulator?.stop();
    emulator = undefined;
  });

  it("are one client method each, named as the route module exports them, that a test can replace", async () => {
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: "http://127.0.0.1:9/api/v2" });
    const routes = FAMILIES.flatMap((family) => Object.keys(family)).sort();
    assert.ok(FAMILIES.length >= 8 && routes.length >= 40, `only ${routes.length} routes found`);
    assert.deepEqual(
      Object.keys(client)
        .filter((name) => name !== "cached")
        .sort(),
      routes,
    );
    const branch = { branch: { id: "br-1" } };
    sinon.stub(client, "getBranch").resolves(branch as never);
    assert.equal(await client.getBranch("p-1", "br-1"), branch);
  });

  it("come from the one list of route modules, which names every module of api/ as its file", () => {
    assert.deepEqual(
      Object.entries(ROUTE_MODULES).sort(([a], [b]) => a.localeCompare(b)),
      [...BY_FILE].sort(([a], [b]) => a.localeCompare(b)),
    );
  });

  it("reject, not throw, when an argument cannot be put in the path", async () => {
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: "http://127.0.0.1:9/api/v2" });
    const pending = client.getBranch("p-1", "..");
    assert.ok(pending instanceof Promise);
    await assert.rejects(pending, isInvalidArgument);
  });

  it("resolve the key of a listing when it is iterated, not when it is asked for", async () => {
    resetRegistry();
    emulator = await startEmulator({ seed: "demo" });
    sinon.stub(process, "env").value({});
    const client = createClient({ apiUrl: emulator.url });
    const listing = client.listProjects({ limit: 1, maxItems: 1 });
    await assert.rejects(async () => {
      for await (const _ of listing) break;
    }, isConfigError);
    sinon.stub(process, "env").value({ CLOUDDB_API_KEY: DEMO.personalKey });
    const ids: string[] = [];
    for await (const project of listing) ids.push(project.id);
    assert.equal(ids.length, 1);
  });
});
