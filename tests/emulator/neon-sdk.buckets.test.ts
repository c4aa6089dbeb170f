import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createNeonClient } from "@neon/sdk";
import { DEMO, type RunningEmulator } from "../../emulator";
import { start } from "./helpers";

// @neon/sdk's own client (`neon.storage.buckets`, `neon.storage.objects`) on a branch's buckets
// (docs/api-rules.md §26): each of its calls there, an upload and a download through the presigned
// URLs it gets, and the bytes read back with its `objects.get`.

describe("@neon/sdk: buckets and their objects", () => {
  let emu: RunningEmulator;
  afterEach(() => emu.stop());

  it("makes a bucket, moves an object's bytes through presigned URLs, lists, reads and deletes it", async () => {
    emu = await start();
    const neon = createNeonClient({ apiKey: DEMO.personalKey, baseUrl: emu.url, throwOnError: true });
    const at = { projectId: DEMO.projectId, branchId: DEMO.branchId };
    const made = await neon.storage.buckets.create({ ...at, name: "uploads", access_level: "private" });
    assert.deepEqual([made.name, made.access_level], ["uploads", "private"]);
    assert.deepEqual(
      (await neon.storage.buckets.list(at)).map((b) => b.name),
      ["uploads"],
    );

    const object = { ...at, bucketName: "uploads", objectKey: "users/42/avatar.png" };
    const bytes = randomBytes(4096);
    const put = await neon.storage.objects.presign({
      ...object,
      operation: "upload",
      content_type: "image/png",
    });
    const sent = await fetch(put.url, { method: put.method, headers: put.headers, body: bytes });
    assert.equal(sent.status, 200);
    const get = await neon.storage.objects.presign({
      ...object,
      operation: "download",
      expires_in_seconds: 30,
    });
    assert.ok(Buffer.from(await (await fetch(get.url)).arrayBuffer()).equals(bytes));
    const blob = await neon.storage.objects.get(object);
    assert.ok(Buffer.from(await blob.arrayBuffer()).equals(bytes), "objects.get reads the same bytes");

    const listed = await neon.storage.objects.list({
      ...at,
      bucketName: "uploads",
      prefix: "users/",
      delimiter: "/",
    });
    assert.deepEqual([listed.folders, listed.objects, listed.prefix], [["users/42/"], [], "users/"]);
    const deleted = await neon.storage.objects.deleteByPrefix({
      ...at,
      bucketName: "uploads",
      prefix: "users/",
    });
    assert.equal(deleted.deleted, 1);
    await assert.rejects(neon.storage.objects.delete(object), /not found/);
    await neon.storage.buckets.delete({ ...at, bucketName: "uploads" });
    assert.deepEqual(await neon.storage.buckets.list(at), []);
  });
});
