import assert from "node:assert/strict";
import { DEMO, type RunningEmulator } from "../../emulator";
import { call, type Json, start } from "./helpers";

// A branch's backup schedule: the frequencies the official document lists, each taking its
// snapshots at the hours it names as the emulator's clock passes them.

const HOUR_MS = 3_600_000;

describe("backup schedules: the frequencies the document lists, each falling due when it says", () => {
  let emulator: RunningEmulator;
  const P = `/projects/${DEMO.projectId}`;
  const schedule = `${P}/branches/${DEMO.branchId}/backup_schedule`;
  const key = DEMO.personalKey;
  before(async () => {
    emulator = await start({ seed: "demo" });
  });
  after(async () => emulator.stop());

  /** The scheduled (not manual) snapshots' points in time, oldest first. */
  async function scheduledAt(): Promise<string[]> {
    const listed = await call(emulator.url, "GET", `${P}/snapshots`, { key });
    assert.equal(listed.status, 200, listed.text);
    return (listed.body.snapshots as Json[])
      .filter((s) => s.manual === false)
      .map((s) => String(s.timestamp))
      .sort();
  }

  /** Moves the emulator's clock to `iso` (forward only). */
  function advanceTo(iso: string): void {
    emulator.control.advance(Date.parse(iso) - emulator.control.now());
  }

  it("keeps a yearly entry and takes its snapshot at its hour on its day of its month, once a year", async () => {
    const entry = { frequency: "yearly", hour: 5, day: 10, month: 3 };
    const set = await call(emulator.url, "PUT", schedule, { key, body: { schedule: [entry] } });
    assert.equal(set.status, 200, set.text);
    const read = await call(emulator.url, "GET", schedule, { key });
    assert.deepEqual(read.body.schedule, [entry]);

    advanceTo("2026-03-10T04:59:00Z");
    assert.deepEqual(await scheduledAt(), [], "not before its hour");
    emulator.control.advance(2 * HOUR_MS);
    assert.deepEqual(await scheduledAt(), ["2026-03-10T05:00:00Z"]);
    advanceTo("2027-03-10T04:00:00Z");
    assert.deepEqual(await scheduledAt(), ["2026-03-10T05:00:00Z"], "not on the 10th of other months");
    emulator.control.advance(2 * HOUR_MS);
    assert.deepEqual(await scheduledAt(), ["2026-03-10T05:00:00Z", "2027-03-10T05:00:00Z"]);
  });

  it("still refuses a frequency the document does not list, naming the ones it does", async () => {
    const refused = await call(emulator.url, "PUT", schedule, {
      key,
      body: { schedule: [{ frequency: "fortnightly" }] },
    });
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.body.message, /hourly, daily, weekly, monthly, yearly, got "fortnightly"/);
  });
});
