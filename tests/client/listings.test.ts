import assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { type CloudDbClient, createClient, resetRegistry } from "../../provider/client";
import { ListingCache } from "../../provider/client/listing-cache";

describe("shared listings", () => {
  it("hands an in-flight listing to every identical ask, and a recent one until the time-to-live passes", async () => {
    let now = 1_000;
    const listings = new ListingCache(5_000, () => now);
    let loads = 0;
    const load = async () => ++loads;
    assert.deepEqual(await Promise.all([listings.get("a", load), listings.get("a", load)]), [1, 1]);
    now += 4_999;
    assert.equal(await listings.get("a", load), 1);
    assert.equal(await listings.get("b", load), 2, "another listing is its own");
    now += 1;
    assert.equal(await listings.get("a", load), 3, "past the time-to-live the listing is asked again");
  });

  it("never hands out a listing begun before a change, even one still in flight", async () => {
    const listings = new ListingCache(60_000);
    let release: (n: number) => void = () => undefined;
    const before = listings.get("a", () => new Promise<number>((resolve) => (release = resolve)));
    listings.invalidate();
    const after = listings.get("a", async () => 2);
    release(1);
    assert.equal(await before, 1);
    assert.equal(await after, 2);
    assert.equal(await listings.get("a", async () => 3), 2);
  });

  it("does not keep a failed listing", async () => {
    const listings = new ListingCache(60_000);
    await assert.rejects(
      listings.get("a", async () => Promise.reject(new Error("503"))),
      /503/,
    );
    assert.equal(await listings.get("a", async () => 1), 1);
  });
});

describe("client: reads share listings per account, and a change through the client outdates them", () => {
  let emulator: RunningEmulator;
  let client: CloudDbClient;
  beforeEach(async () => {
    resetRegistry();
    emulator = await startEmulator({ seed: "demo", opDurationMs: 20 });
    client = createClient({
      apiKey: DEMO.personalKey,
      apiUrl: emulator.url,
      pollIntervalMs: { first: 5, max: 20 },
    });
  });
  afterEach(async () => emulator.stop());

  const listings = (route: string) => emulator.control.requests().filter((r) => r.route === route).length;

  it("fifty concurrent reads of keys and of branches cost one listing each", async () => {
    emulator.control.clearRequests();
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 === 0 ? client.cached.listApiKeys() : client.cached.listBranches(DEMO.projectId),
      ),
    );
    assert.equal(listings("GET /api_keys"), 1);
    assert.equal(listings("GET /projects/{project_id}/branches"), 1);
  });

  it("a key created through the client is in the next shared listing", async () => {
    await client.cached.listApiKeys();
    const made = await client.createApiKey({ keyName: "after-listing" });
    assert.ok((await client.cached.listApiKeys()).some((k) => k.id === made.id));
  });

  it("another key's reads do not share this key's listing", async () => {
    const other = createClient({ apiKey: DEMO.memberPersonalKey, apiUrl: emulator.url });
    emulator.control.clearRequests();
    await Promise.all([client.cached.listApiKeys(), other.cached.listApiKeys()]);
    assert.equal(listings("GET /api_keys"), 2);
  });
});
