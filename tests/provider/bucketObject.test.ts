import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO } from "../../emulator";
import { isResourceError } from "../../provider/resources/errors";
import { forgetPreflight } from "../../provider/resources/lifecycle/preflight";
import {
  type BucketObjectInputs,
  type BucketObjectOutputs,
  bucketObjectProvider,
} from "../../provider/resources/public/bucketObject";
import { call } from "../emulator/helpers";
import { PROVIDER_TEXT, useEmulator } from "./support";

// An object of a bucket against the emulator (docs/api-rules.md §26): uploaded through a presigned
// URL, read back by its key with its entity tag, uploaded again in place when its bytes change (the
// API's upload replaces the object of a key) and unchanged when they do not, replaced for a new key;
// refresh after a write or a delete made outside; import, adopt, and bytes at the key not its own.

const P = DEMO.projectId;
const B = DEMO.branchId;
const BUCKET = "assets";
const BUCKETS = `/projects/${P}/branches/${B}/buckets`;
const OBJECTS = `${BUCKETS}/${BUCKET}/objects`;
const PRESIGN = (key: string) => `POST ${OBJECTS}/${encodeURIComponent(key)}/presign`;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("BucketObject against the emulator", () => {
  const harness = useEmulator({ clock: "manual" });
  let dir: string;
  before(async () => {
    await outside("POST", "", { name: BUCKET });
  });
  beforeEach(() => {
    forgetPreflight();
    harness.emulator.control.clearRequests();
    dir = mkdtempSync(join(tmpdir(), "clouddb-object-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Calls the API as another tool would, with the demo user's key; asserts it succeeded. */
  async function outside(method: string, path: string, body?: unknown) {
    const reply = await call(harness.emulator.url, method, `${BUCKETS}${path}`, {
      key: DEMO.personalKey,
      body,
    });
    assert.ok(reply.status < 300, `${method} ${path}: ${reply.status} ${reply.text}`);
    return reply.body;
  }
  /** Moves bytes through a presigned URL as another tool would: uploads `text`, or downloads the object. */
  const presigned = async (key: string, text?: string) => {
    const { url } = (await outside("POST", `/${BUCKET}/objects/${encodeURIComponent(key)}/presign`, {
      operation: text === undefined ? "download" : "upload",
    })) as { url: string };
    const reply = await fetch(url, text === undefined ? {} : { method: "PUT", body: text });
    assert.equal(reply.status, 200);
    return { text: await reply.text(), type: reply.headers.get("content-type") };
  };
  const keys = async () =>
    ((await outside("GET", `/${BUCKET}/objects`)) as { objects: { key: string }[] }).objects.map(
      (o) => o.key,
    );

  const inputs = (values: Partial<BucketObjectInputs> = {}): BucketObjectInputs =>
    ({
      projectId: P,
      branchId: B,
      bucketName: BUCKET,
      key: "docs/readme.txt",
      ...(values.source === undefined ? { content: "hello" } : {}),
      ...values,
      __provider: PROVIDER_TEXT,
    }) as BucketObjectInputs;
  /** The inputs as the preview's check passes them on: validated, with the bytes' sha256. */
  const checked = async (given: BucketObjectInputs, olds?: BucketObjectOutputs) => {
    const result = await bucketObjectProvider.check!((olds ?? {}) as unknown as BucketObjectInputs, given);
    assert.deepEqual(result.failures ?? [], []);
    return result.inputs as BucketObjectInputs;
  };
  const made = async (given = inputs()) => {
    const result = await bucketObjectProvider.create(await checked(given));
    return { id: result.id, outs: result.outs as BucketObjectOutputs };
  };

  it("uploads the object through a presigned URL, reads it back by its key, and deletes it with one DELETE", async () => {
    const { id, outs } = await made(inputs({ contentType: "text/plain" }));
    assert.equal(id, `${P}/${B}/${BUCKET}/docs%2Freadme.txt`);
    const md5 = createHash("md5").update("hello").digest("hex");
    assert.deepEqual(
      [outs.key, outs.sha256, outs.size, outs.etag, outs.contentType, outs.lastModified],
      [
        "docs/readme.txt",
        sha256("hello"),
        5,
        `"${md5}"`,
        "text/plain",
        new Date(harness.emulator.control.now()).toISOString(),
      ],
    );
    assert.deepEqual(harness.writes(), [PRESIGN("docs/readme.txt")], "one presign; the bytes go to its URL");
    assert.deepEqual(await presigned("docs/readme.txt"), { text: "hello", type: "text/plain" });

    harness.emulator.control.clearRequests();
    const read = await bucketObjectProvider.read!(id, outs);
    assert.deepEqual([read.id, read.props], [id, outs], "refresh finds nothing changed");
    assert.deepEqual(harness.log(), [`GET ${OBJECTS}`], "one listing by the key, no download");

    harness.emulator.control.clearRequests();
    await bucketObjectProvider.delete!(id, outs);
    assert.deepEqual(harness.writes(), [`DELETE ${OBJECTS}/docs%2Freadme.txt`]);
    assert.deepEqual(await keys(), []);
  });

  it("shows no change for the same bytes, from text or a file; new bytes upload again in place; a new key replaces", async () => {
    const { id, outs } = await made();
    const same = await bucketObjectProvider.diff!(id, outs, await checked(inputs(), outs));
    assert.equal(same.changes, false);
    const file = join(dir, "readme.txt");
    writeFileSync(file, "hello");
    const fromFile = await bucketObjectProvider.diff!(
      id,
      outs,
      await checked(inputs({ source: file }), outs),
    );
    assert.equal(fromFile.changes, false, "the same bytes from a file are no change");

    writeFileSync(file, "hello, world");
    const news = await checked(inputs({ source: file }), outs);
    const changed = await bucketObjectProvider.diff!(id, outs, news);
    assert.deepEqual([changed.changes, changed.replaces], [true, []]);
    assert.deepEqual((changed as { detailedDiff?: unknown }).detailedDiff, {
      source: "add",
      content: "delete",
      sha256: "update",
    });
    harness.emulator.control.clearRequests();
    const updated = (await bucketObjectProvider.update!(id, outs, news)).outs as BucketObjectOutputs;
    assert.deepEqual(harness.writes(), [PRESIGN("docs/readme.txt")], "one upload, no delete");
    assert.deepEqual(
      [updated.sha256, updated.size, updated.source, updated.content],
      [sha256("hello, world"), 12, file, undefined],
    );
    assert.notEqual(updated.etag, outs.etag);
    assert.equal((await presigned("docs/readme.txt")).text, "hello, world");

    const rekeyed = await bucketObjectProvider.diff!(
      id,
      updated,
      await checked(inputs({ key: "b.txt" }), updated),
    );
    assert.deepEqual([rekeyed.replaces, rekeyed.deleteBeforeReplace], [["key"], false]);
    await bucketObjectProvider.delete!(id, updated);
  });

  it("refresh hashes an object written outside again, so the next up uploads its own bytes; it drops one deleted outside", async () => {
    const { id, outs } = await made(inputs({ key: "drift.txt" }));
    await presigned("drift.txt", "changed elsewhere");
    const read = await bucketObjectProvider.read!(id, outs);
    const props = read.props as BucketObjectOutputs;
    assert.deepEqual([props.sha256, props.size], [sha256("changed elsewhere"), 17]);
    assert.notEqual(props.etag, outs.etag);
    assert.equal((read.inputs as { sha256?: string }).sha256, sha256("changed elsewhere"));
    const diff = await bucketObjectProvider.diff!(
      id,
      props,
      await checked(inputs({ key: "drift.txt" }), props),
    );
    assert.deepEqual(
      [diff.changes, diff.replaces],
      [true, []],
      "the next up uploads the declared bytes again",
    );

    await outside("DELETE", `/${BUCKET}/objects/drift.txt`);
    assert.deepEqual(await bucketObjectProvider.read!(id, outs), { id: "" });
    await bucketObjectProvider.delete!(id, outs);
  });

  it("imports an object by <projectId>/<branchId>/<bucketName>/<key> with its key's / as %2F, hashed, and the same bytes then show no change", async () => {
    await presigned("made/by hand.txt", "by hand");
    const imported = await bucketObjectProvider.read!(
      `${P}/${B}/${BUCKET}/made%2Fby%20hand.txt`,
      undefined as unknown as BucketObjectOutputs,
    );
    const props = imported.props as BucketObjectOutputs;
    const importedId = imported.id as string;
    assert.deepEqual(
      [imported.id, props.key, props.bucketName, props.sha256, props.size],
      [`${P}/${B}/${BUCKET}/made%2Fby hand.txt`, "made/by hand.txt", BUCKET, sha256("by hand"), 7],
    );
    const diff = await bucketObjectProvider.diff!(
      importedId,
      props,
      await checked(inputs({ key: "made/by hand.txt", content: "by hand" }), props),
    );
    assert.equal(diff.changes, false);
    await assert.rejects(
      bucketObjectProvider.read!(
        `${P}/${B}/${BUCKET}/made/by hand.txt`,
        undefined as unknown as BucketObjectOutputs,
      ),
      /its import id is <projectId>\/<branchId>\/<bucketName>\/<key>/,
    );
    await bucketObjectProvider.delete!(importedId, props);
  });

  it("does not overwrite other bytes at its key without adoptExisting; takes its own bytes a killed run left", async () => {
    await presigned("taken.txt", "someone else's");
    harness.emulator.control.clearRequests();
    await assert.rejects(made(inputs({ key: "taken.txt" })), (err: unknown) => {
      assert.ok(isResourceError(err) && err.kind === "NameTaken", String(err));
      assert.match(
        (err as Error).message,
        /already has an object "taken\.txt" with other bytes.*adoptExisting: "taken\.txt"/s,
      );
      assert.doesNotMatch((err as Error).message, /hello/, "never the bytes");
      return true;
    });
    assert.deepEqual(
      harness.writes(),
      [PRESIGN("taken.txt")],
      "only the download's presign: nothing uploaded",
    );
    assert.equal((await presigned("taken.txt")).text, "someone else's");

    const adopted = await made(inputs({ key: "taken.txt", adoptExisting: "taken.txt" }));
    assert.equal(adopted.outs.sha256, sha256("hello"));
    assert.equal((await presigned("taken.txt")).text, "hello");

    // What a run killed after its upload leaves: the same bytes at the key, taken without a word.
    const again = await made(inputs({ key: "taken.txt" }));
    assert.deepEqual([again.id, again.outs.etag], [adopted.id, adopted.outs.etag]);
    await bucketObjectProvider.delete!(again.id, again.outs);
  });

  it("refuses at preview, naming the input and never the content: both or neither of source and content, a missing file, an empty key", async () => {
    const failures = async (given: Record<string, unknown>) =>
      (
        (await bucketObjectProvider.check!({} as BucketObjectInputs, { ...inputs(), ...given })).failures ??
        []
      ).map((f) => f.reason);
    const base = { content: undefined, source: undefined };
    assert.deepEqual(await failures({ ...base }), [
      "source: give exactly one of source (a file path) or content (the object's text); neither was given",
    ]);
    const both = await failures({ source: join(dir, "x"), content: "secret text" });
    assert.deepEqual(both, [
      "give exactly one of source (a file path) or content (the object's text); both were given",
    ]);
    const missing = join(dir, "nope.txt");
    assert.deepEqual(await failures({ ...base, source: missing }), [
      `source ${JSON.stringify(missing)} does not exist: give the path of the file to upload, relative to the program's folder`,
    ]);
    assert.deepEqual(await failures({ ...base, source: dir }), [
      `source ${JSON.stringify(dir)} is not a file: give the path of the file to upload`,
    ]);
    assert.deepEqual(await failures({ key: "" }), [
      "key must not be empty: give the object's key in the bucket, such as docs/readme.txt",
    ]);
    assert.deepEqual(harness.writes(), []);
  });
});
