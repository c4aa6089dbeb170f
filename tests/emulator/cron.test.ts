import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { CronError, nextRun, parseCron } from "../../emulator/cron";
import { api, deployTo, start, zipOf } from "./helpers";

// The schedule triggers' cron expressions (emulator/cron.ts): five numeric UTC fields parsed once,
// each checked against its range, and the next whole minute a schedule runs at after a time.

const at = (iso: string) => Date.parse(iso);
const next = (cron: string, after: string) => {
  const ms = nextRun(parseCron(cron), at(after));
  return ms === undefined ? undefined : new Date(ms).toISOString();
};

describe("emulator: cron", () => {
  it("parses each field's forms: any, a number, a range, a step, a list, Sunday as 0 or 7", () => {
    const s = parseCron(" 0,30 9-11 */10 1-12/6 7 ");
    assert.deepEqual(s.minutes, [0, 30]);
    assert.deepEqual(s.hours, [9, 10, 11]);
    assert.deepEqual([...s.days], [1, 11, 21, 31]);
    assert.deepEqual([...s.months], [1, 7]);
    assert.deepEqual([...s.weekdays], [0], "7 is Sunday");
    assert.deepEqual(parseCron("5/20 * * * *").minutes, [5, 25, 45], "a number with a step runs to the end");
  });

  it("refuses what is not five numeric fields in range, naming the field", () => {
    for (const [cron, says] of [
      ["61 3 * * *", /minute field holds 61, outside 0-59/],
      ["0 24 * * *", /hour field holds 24, outside 0-23/],
      ["0 0 0 * *", /day of month field holds 0, outside 1-31/],
      ["0 3 * * MON", /day of week field "MON" is not/],
      ["0 0 3 * * *", /6 fields/],
      ["0  3 * * *", /6 fields separated by single spaces/],
      ["0 5-2 * * *", /range 5-2, which ends before it starts/],
      ["*/0 * * * *", /step of 0/],
    ] as const)
      assert.throws(
        () => parseCron(cron),
        (e: unknown) => e instanceof CronError && says.test(e.message),
        cron,
      );
  });

  it("finds the next whole minute strictly after the time given", () => {
    assert.equal(next("30 2 * * *", "2026-01-01T00:00:00Z"), "2026-01-01T02:30:00.000Z");
    assert.equal(
      next("30 2 * * *", "2026-01-01T02:30:00Z"),
      "2026-01-02T02:30:00.000Z",
      "not the same minute",
    );
    assert.equal(next("*/15 * * * *", "2026-03-04T10:07:30Z"), "2026-03-04T10:15:00.000Z");
    assert.equal(next("59 23 31 12 *", "2026-01-01T00:00:00Z"), "2026-12-31T23:59:00.000Z");
  });

  it("runs on a day matching either restricted day field, and on both when one is *", () => {
    // 2026-02-01 is a Sunday; the 13th a Friday.
    assert.equal(next("0 0 13 * 1", "2026-02-01T12:00:00Z"), "2026-02-02T00:00:00.000Z", "the Monday first");
    assert.equal(next("0 0 13 * *", "2026-02-01T12:00:00Z"), "2026-02-13T00:00:00.000Z");
    assert.equal(next("0 0 * * 0", "2026-02-01T12:00:00Z"), "2026-02-08T00:00:00.000Z");
  });

  it("finds a leap day years ahead, and nothing for a day no month has", () => {
    assert.equal(next("0 0 29 2 *", "2026-01-01T00:00:00Z"), "2028-02-29T00:00:00.000Z");
    assert.equal(next("0 0 30 2 *", "2026-01-01T00:00:00Z"), undefined);
  });

  it("is how the emulator checks a schedule trigger's cron and shows its next run", async () => {
    const emu = await start();
    try {
      await deployTo(emu, "hello", {
        zip: zipOf({ "index.mjs": "export default () => new Response('');\n" }),
      });
      const triggers = `/projects/${DEMO.projectId}/branches/${DEMO.branchId}/triggers`;
      const body = (cron: string) => ({
        type: "schedule",
        function_slug: "hello",
        name: cron,
        schedule: { cron },
      });
      const http = api(emu, DEMO.personalKey);
      const refused = await http.post(triggers, body("61 3 * * *"));
      assert.equal(refused.status, 400);
      assert.match(refused.text, /minute field holds 61, outside 0-59/);
      const made = await http.post(triggers, body("0 0 * * 7"));
      assert.equal(made.status, 201, made.text);
      const sunday = new Date(nextRun(parseCron("0 0 * * 0"), emu.control.now()) ?? 0).toISOString();
      assert.equal(made.body.trigger.next_run_at, sunday);
    } finally {
      await emu.stop();
    }
  });
});
