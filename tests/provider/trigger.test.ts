import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { createClient, type StorageObjectCreatedTrigger } from "../../provider/client";
import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import { forgetPreflight } from "../../provider/resources/lifecycle/preflight";
import { type BucketInputs, bucketProvider } from "../../provider/resources/public/bucket";
import {
  type TriggerInputs,
  type TriggerOutputs,
  triggerProvider,
} from "../../provider/resources/public/trigger";
import { PROVIDER_TEXT, useEmulator } from "./support";

// A trigger on a branch against the emulator (docs/api-rules.md §27): made with one POST naming a
// function of the branch, every field but its type changed in place with one PATCH, replaced (the
// old one deleted first when it keeps its name) when the type changes; import, adopt, a name taken
// without proof, and a trigger changed or deleted outside Pulumi.

const P = DEMO.projectId;
const B = DEMO.branchId;
const TRIGGERS = `/projects/${P}/branches/${B}/triggers`;

describe("Trigger against the emulator", () => {
  const harness = useEmulator({ clock: "manual" });
  const client = () => createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });
  before(async () => {
    await client().deployFunction(P, B, "job", { zip: Buffer.from("PK\u0003\u0004 job") });
  });
  beforeEach(() => {
    forgetPreflight();
    harness.emulator.control.clearRequests();
  });

  const schedule = (values: Partial<TriggerInputs> = {}): TriggerInputs =>
    ({
      projectId: P,
      branchId: B,
      type: "schedule",
      name: "nightly",
      functionSlug: "job",
      cron: "0 3 * * *",
      ...values,
      __provider: PROVIDER_TEXT,
    }) as TriggerInputs;

  it("makes the trigger with one POST, reads it back unchanged, and deletes it with one DELETE", async () => {
    const made = await triggerProvider.create(schedule());
    const outs = made.outs as TriggerOutputs;
    assert.equal(made.id, `${P}/${B}/${outs.triggerId}`);
    assert.deepEqual(
      [outs.type, outs.functionPath, outs.enabled, outs.version, outs.nextRunAt === null],
      ["schedule", "/", true, 1, false],
    );
    assert.deepEqual(harness.writes(), [`POST ${TRIGGERS}`]);
    const read = await triggerProvider.read!(made.id, outs);
    assert.deepEqual(read.props, outs, "refresh finds nothing changed");
    const same = await triggerProvider.diff!(made.id, outs, schedule());
    assert.equal(same.changes, false, "a path and enabled left out are the ones it has");
    harness.emulator.control.clearRequests();
    await triggerProvider.delete!(made.id, outs);
    assert.deepEqual(harness.writes(), [`DELETE ${TRIGGERS}/${outs.triggerId}`]);
    assert.deepEqual(await client().listTriggers(P, B), []);
  });

  it("generates a name when none is given, and a create killed after its POST is taken back by the next, brought to the inputs", async () => {
    const owner = "urn:pulumi:dev::app::clouddb:index:Trigger::nightly-cleanup";
    const owned = { ...schedule({ name: undefined }), __owner: owner } as TriggerInputs;
    const checked = (await triggerProvider.check!({} as TriggerInputs, owned)).inputs as TriggerInputs;
    const name = checked.name ?? "";
    assert.match(name, /^nightly_cleanup_[0-9a-f]{10}$/);
    // A killed run made the trigger (another cron since) and recorded nothing.
    await client().createTrigger(P, B, {
      type: "schedule",
      name,
      function_slug: "job",
      schedule: { cron: "0 4 * * *" },
    });
    harness.emulator.control.clearRequests();
    const made = await triggerProvider.create(checked);
    const outs = made.outs as TriggerOutputs;
    assert.deepEqual(
      [outs.name, outs.cron, outs.version],
      [name, "0 3 * * *", 2],
      "taken, then brought to the inputs",
    );
    assert.deepEqual(harness.writes(), [`POST ${TRIGGERS}`, `PATCH ${TRIGGERS}/${outs.triggerId}`]);
    assert.equal(
      (await client().listTriggers(P, B)).filter((t) => t.name === name).length,
      1,
      "never a second",
    );
    // A name the program gives carries no such proof.
    await assert.rejects(triggerProvider.create(schedule({ name })), /already exists.*adoptExisting/s);
    await triggerProvider.delete!(made.id, outs);
  });

  it("changes the cron, name and enabled in place with one PATCH; a new type replaces it, the old one first", async () => {
    const made = await triggerProvider.create(schedule({ name: "inplace" }));
    const outs = made.outs as TriggerOutputs;
    const news = schedule({ name: "renamed", cron: "*/15 * * * *", enabled: false });
    const diff = await triggerProvider.diff!(made.id, outs, news);
    assert.deepEqual([diff.changes, diff.replaces], [true, []]);
    harness.emulator.control.clearRequests();
    const updated = (await triggerProvider.update!(made.id, outs, news)).outs as TriggerOutputs;
    assert.deepEqual(
      [updated.triggerId, updated.name, updated.cron, updated.enabled, updated.version, updated.nextRunAt],
      [outs.triggerId, "renamed", "*/15 * * * *", false, 2, null],
    );
    assert.deepEqual(harness.writes(), [`PATCH ${TRIGGERS}/${outs.triggerId}`]);
    const retyped = await triggerProvider.diff!(
      made.id,
      updated,
      schedule({ name: "renamed", type: "storage_object_created", cron: undefined, bucketName: "uploads" }),
    );
    assert.deepEqual([retyped.replaces, retyped.deleteBeforeReplace], [["type"], true]);
    const checked = await triggerProvider.check!(
      schedule(),
      schedule({ cron: undefined, bucketName: "uploads" }),
    );
    assert.match(JSON.stringify(checked.failures), /a schedule trigger takes cron/);
    await triggerProvider.delete!(made.id, updated);
  });

  it("imports by <projectId>/<branchId>/<triggerId>, refuses a name taken without proof, and adopts it", async () => {
    const byHand = await client().createTrigger(P, B, {
      type: "storage_object_created",
      name: "uploads",
      function_slug: "job",
      storage_object_created: { bucket_name: "files", prefix: "in/" },
    });
    const id = `${P}/${B}/${byHand.trigger_id}`;
    const imported = await triggerProvider.read!(id, undefined as unknown as TriggerOutputs);
    assert.deepEqual(
      [imported.id, imported.props?.type, imported.props?.bucketName, imported.props?.prefix],
      [id, "storage_object_created", "files", "in/"],
    );
    const uploads = (values: Partial<TriggerInputs> = {}) =>
      schedule({
        type: "storage_object_created",
        name: "uploads",
        cron: undefined,
        bucketName: "files",
        ...values,
      });
    await assert.rejects(
      triggerProvider.create(uploads()),
      new RegExp(`already exists.*adoptExisting: "${byHand.trigger_id}"`, "s"),
    );
    harness.emulator.control.clearRequests();
    const adopted = await triggerProvider.create(uploads({ adoptExisting: byHand.trigger_id }));
    const outs = adopted.outs as TriggerOutputs;
    assert.deepEqual(
      [adopted.id, outs.prefix],
      [id, undefined],
      "adopting brings it to the inputs: no prefix",
    );
    assert.deepEqual(harness.writes(), [`PATCH ${TRIGGERS}/${byHand.trigger_id}`]);
    assert.equal(
      ((await client().getTrigger(P, B, byHand.trigger_id)) as StorageObjectCreatedTrigger)
        .storage_object_created.prefix,
      undefined,
    );
    await triggerProvider.delete!(adopted.id, outs);
  });

  it("refresh reports a cron changed outside Pulumi, and drops a trigger deleted outside", async () => {
    const made = await triggerProvider.create(schedule({ name: "drift" }));
    const outs = made.outs as TriggerOutputs;
    await client().updateTrigger(P, B, outs.triggerId, { type: "schedule", schedule: { cron: "5 5 * * *" } });
    const read = await triggerProvider.read!(made.id, outs);
    assert.equal(read.props?.cron, "5 5 * * *");
    const diff = await triggerProvider.diff!(
      made.id,
      read.props as TriggerOutputs,
      schedule({ name: "drift" }),
    );
    assert.deepEqual([diff.changes, diff.replaces], [true, []], "the next up puts the declared cron back");
    await client().deleteTrigger(P, B, outs.triggerId);
    assert.deepEqual(await triggerProvider.read!(made.id, outs), { id: "" });
  });

  it("takes at preview every numeric five-field cron form: steps, ranges, lists, Sunday as 0 or 7", async () => {
    for (const cron of [
      "*/15 * * * *",
      "0 3 * * 1-5",
      "0,30 9-17 * * *",
      "59 23 31 12 7",
      "0 0 1 */2 0",
      " 5 4 * * * ",
    ]) {
      const result = await triggerProvider.check!({} as TriggerInputs, schedule({ cron }));
      assert.deepEqual(result.failures ?? [], [], cron);
    }
  });

  it("passes at preview a storage trigger on a bucket the same run declares before it exists, and names a bucket nothing declares", async () => {
    const storage = schedule({ type: "storage_object_created", cron: undefined, bucketName: "incoming" });
    const incoming = {
      projectId: P,
      branchId: B,
      name: "incoming",
      __owner: "urn:pulumi:dev::app::clouddb:index:Bucket::in",
    };
    // The engine checks the Bucket first: the Trigger takes its name output.
    assert.deepEqual(
      (await bucketProvider.check!({} as BucketInputs, incoming as BucketInputs)).failures ?? [],
      [],
    );
    assert.deepEqual((await triggerProvider.check!({} as TriggerInputs, storage)).failures ?? [], []);
    assert.ok(
      !(await client().listBuckets(P, B)).some((b) => b.name === "incoming"),
      "the bucket is not made yet",
    );
    assert.deepEqual(harness.writes(), [], "the preview only reads");
    forgetPreflight();
    const refused = await triggerProvider.check!({} as TriggerInputs, storage);
    assert.deepEqual(
      (refused.failures ?? []).map((f) => [f.property, f.reason.replace(/:.*/s, "")]),
      [["bucketName", "bucketName"]],
    );
    assert.match(
      refused.failures?.[0]?.reason ?? "",
      new RegExp(`branch ${B} of project ${P} has no bucket "incoming"`),
    );
  });

  it("looks for nothing at preview while the branch is not known, and the up's check names the bucket the branch lacks", async () => {
    const storage = (branchId: string) =>
      schedule({ branchId, type: "storage_object_created", cron: undefined, bucketName: "later" });
    const preview = await triggerProvider.check!({} as TriggerInputs, storage(UNKNOWN));
    assert.deepEqual(preview.failures ?? [], []);
    const up = await triggerProvider.check!({} as TriggerInputs, storage(B));
    assert.deepEqual(
      (up.failures ?? []).map((f) => f.property),
      ["bucketName"],
    );
    assert.match(
      up.failures?.[0]?.reason ?? "",
      /has no bucket "later", and this program declares none: declare it with a Bucket/,
    );
    assert.deepEqual(harness.writes(), [], "nothing was sent");
  });
});
