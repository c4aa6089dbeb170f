import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { isResourceError } from "../../provider/resources/errors";
import { forgetPreflight } from "../../provider/resources/lifecycle/preflight";
import {
  type BucketInputs,
  type BucketOutputs,
  bucketProvider,
} from "../../provider/resources/public/bucket";
import { linesOf, PROVIDER_TEXT, useEmulator } from "./support";

// A bucket on a branch against the emulator (docs/api-rules.md §26): made with one POST, read and
// refreshed, replaced (old one first) when its access level changes, refused a delete while it has
// objects unless forceDestroy (an in-place change, nothing sent) empties it first; import, adopt,
// and a bucket deleted or changed outside Pulumi.

const P = DEMO.projectId;
const B = DEMO.branchId;
const BUCKETS = `/projects/${P}/branches/${B}/buckets`;

describe("Bucket against the emulator", () => {
  const harness = useEmulator({ clock: "manual" });
  beforeEach(() => {
    forgetPreflight();
    harness.emulator.control.clearRequests();
  });

  const inputs = (values: Partial<BucketInputs> = {}): BucketInputs =>
    ({ projectId: P, branchId: B, name: "uploads", ...values, __provider: PROVIDER_TEXT }) as BucketInputs;

  /** Calls the API as another tool would, with the demo user's key. */
  const outside = async (method: string, path: string, body?: unknown) => {
    const reply = await fetch(`${harness.emulator.url}${BUCKETS}${path}`, {
      method,
      headers: { authorization: `Bearer ${DEMO.personalKey}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await reply.text();
    assert.ok(reply.ok, `${method} ${path}: ${reply.status} ${text}`);
    return text === "" ? undefined : JSON.parse(text);
  };
  /** Uploads `text` as the object `key` through a presigned URL. */
  const upload = async (bucket: string, key: string, text: string) => {
    const presigned = await outside("POST", `/${bucket}/objects/${encodeURIComponent(key)}/presign`, {
      operation: "upload",
    });
    const { url } = presigned as { url: string };
    assert.equal((await fetch(url, { method: "PUT", body: text })).status, 200);
  };
  const listed = async () =>
    ((await outside("GET", "")) as { buckets: { name: string; access_level: string }[] }).buckets;

  it("makes the bucket with one POST, reads it, and deletes it with one DELETE", async () => {
    const made = await bucketProvider.create(inputs());
    const outs = made.outs as BucketOutputs;
    assert.equal(made.id, `${P}/${B}/uploads`);
    assert.deepEqual(
      [outs.name, outs.accessLevel, outs.createdAt],
      ["uploads", "private", new Date(harness.emulator.control.now()).toISOString()],
    );
    assert.deepEqual(harness.writes(), [`POST ${BUCKETS}`]);
    const read = await bucketProvider.read!(made.id, outs);
    assert.deepEqual(read.props, outs, "refresh finds nothing changed");
    harness.emulator.control.clearRequests();
    await bucketProvider.delete!(made.id, outs);
    assert.deepEqual(harness.writes(), [`DELETE ${BUCKETS}/uploads`]);
    assert.deepEqual(await listed(), []);
  });

  it("replaces the bucket, the old one deleted first, when the access level changes; forceDestroy changes in place", async () => {
    const made = await bucketProvider.create(inputs());
    const outs = made.outs as BucketOutputs;
    const diff = await bucketProvider.diff!(made.id, outs, inputs({ accessLevel: "public_read" }));
    assert.deepEqual([diff.replaces, diff.deleteBeforeReplace], [["accessLevel"], true]);
    assert.match(
      (
        await linesOf(() => bucketProvider.diff!(made.id, outs, inputs({ accessLevel: "public_read" })))
      ).lines.join("\n"),
      /replacing bucket uploads deletes it, which is refused while it has objects: set forceDestroy: true alone/,
    );
    const renamed = await bucketProvider.diff!(
      made.id,
      outs,
      inputs({ name: "other", accessLevel: "private" }),
    );
    assert.deepEqual([renamed.replaces, renamed.deleteBeforeReplace], [["name"], false]);
    const same = await bucketProvider.diff!(made.id, outs, inputs());
    assert.equal(same.changes, false, "an access level left out is the one the bucket has");
    const force = await bucketProvider.diff!(made.id, outs, inputs({ forceDestroy: true }));
    assert.deepEqual([force.changes, force.replaces], [true, []]);
    harness.emulator.control.clearRequests();
    const updated = await bucketProvider.update!(made.id, outs, inputs({ forceDestroy: true }));
    assert.equal(updated.outs?.forceDestroy, true);
    assert.deepEqual(harness.writes(), [], "nothing to send");
    await bucketProvider.delete!(made.id, updated.outs as BucketOutputs);
  });

  it("refuses to delete a bucket with objects, saying it is not empty, how many objects and what to do; with forceDestroy it empties it first", async () => {
    const made = await bucketProvider.create(inputs({ name: "full" }));
    const outs = made.outs as BucketOutputs;
    for (const key of ["a/1", "a/b/2", "c/3", "top"]) await upload("full", key, key);
    await assert.rejects(bucketProvider.delete!(made.id, outs), (err: unknown) => {
      assert.ok(isResourceError(err) && err.kind === "DeleteRefused", String(err));
      const message = (err as Error).message;
      assert.match(
        message,
        /^bucket full on branch \S+ is not empty \(4 objects\), so it was not deleted: set forceDestroy: true on the resource, with no other change, and run `pulumi up` \(nothing is sent\), then `pulumi destroy` \(or the replacement\) again, which deletes its objects first; or empty it yourself \(.*\) \(request id [\w-]+\)$/,
      );
      assert.doesNotMatch(message, /choose another name|adopt the existing object/);
      return true;
    });
    assert.equal((await listed()).length, 1, "the bucket and its objects stay");
    harness.emulator.control.clearRequests();
    await bucketProvider.delete!(made.id, { ...outs, forceDestroy: true });
    const sent = harness.emulator.control
      .requests()
      .filter((r) => r.method === "DELETE")
      .map((r) => `${r.method} ${r.path}${r.query === "" ? "" : `?${r.query}`}`);
    assert.deepEqual(sent.sort(), [
      `DELETE ${BUCKETS}/full`,
      `DELETE ${BUCKETS}/full/objects-by-prefix?prefix=a%2F`,
      `DELETE ${BUCKETS}/full/objects-by-prefix?prefix=c%2F`,
      `DELETE ${BUCKETS}/full/objects/top`,
    ]);
    assert.deepEqual(await listed(), []);
  });

  it("imports a bucket by <projectId>/<branchId>/<name>, adopts one, and refuses a name taken without proof", async () => {
    await outside("POST", "", { name: "legacy", access_level: "public_read" });
    const imported = await bucketProvider.read!(`${P}/${B}/legacy`, undefined as unknown as BucketOutputs);
    assert.deepEqual(
      [imported.id, imported.props?.name, imported.props?.accessLevel],
      [`${P}/${B}/legacy`, "legacy", "public_read"],
    );
    await assert.rejects(
      bucketProvider.create(inputs({ name: "legacy" })),
      /already exists.*adoptExisting: "legacy"/s,
    );
    await assert.rejects(
      bucketProvider.create(inputs({ name: "legacy", adoptExisting: "legacy", accessLevel: "private" })),
      /is public_read, not private/,
    );
    harness.emulator.control.clearRequests();
    const adopted = await bucketProvider.create(inputs({ name: "legacy", adoptExisting: "legacy" }));
    assert.deepEqual([adopted.id, adopted.outs?.accessLevel], [`${P}/${B}/legacy`, "public_read"]);
    assert.deepEqual(harness.writes(), [], "adopting sends nothing");
    await bucketProvider.delete!(adopted.id, adopted.outs as BucketOutputs);
  });

  it("refresh reports an access level changed outside Pulumi, and drops a bucket deleted outside", async () => {
    const made = await bucketProvider.create(inputs({ name: "drift" }));
    const outs = made.outs as BucketOutputs;
    await outside("DELETE", "/drift");
    await outside("POST", "", { name: "drift", access_level: "public_read" });
    const read = await bucketProvider.read!(made.id, outs);
    assert.equal(read.props?.accessLevel, "public_read");
    const diff = await bucketProvider.diff!(
      made.id,
      read.props as BucketOutputs,
      inputs({ name: "drift", accessLevel: "private" }),
    );
    assert.deepEqual(diff.replaces, ["accessLevel"], "the next up puts the declared level back");
    await outside("DELETE", "/drift");
    assert.deepEqual(await bucketProvider.read!(made.id, outs), { id: "" });
  });
});
