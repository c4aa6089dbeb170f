import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, type RunningEmulator } from "../../emulator";
import { api, type Json, start } from "./helpers";

// A branch's buckets and their objects (docs/api-rules.md §26): the emulator keeps the objects'
// bytes (in memory, or beside the state file), hands out presigned URLs to its own server, checks
// their signature and expiry, and lists, downloads and deletes what was uploaded.

const B = `/projects/${DEMO.projectId}/branches/${DEMO.branchId}/buckets`;

/** Presigns `operation` on `bucket/key`; the presign reply's body. */
async function presign(http: ReturnType<typeof api>, bucket: string, key: string, body: Json): Promise<Json> {
  const reply = await http.post(`${B}/${bucket}/objects/${encodeURIComponent(key)}/presign`, body);
  assert.equal(reply.status, 200, reply.text);
  return reply.body;
}

/** Uploads the bytes through a presigned PUT URL; the storage route's status. */
async function upload(
  http: ReturnType<typeof api>,
  bucket: string,
  key: string,
  bytes: Buffer,
): Promise<number> {
  const signed = await presign(http, bucket, key, { operation: "upload" });
  return (await fetch(signed.url, { method: "PUT", headers: signed.headers, body: bytes })).status;
}

describe("emulator: buckets and their objects", () => {
  let emu: RunningEmulator;
  afterEach(() => emu.stop());

  it("makes, lists and deletes buckets; a second bucket of the same name is refused", async () => {
    emu = await start();
    const http = api(emu, DEMO.personalKey);
    assert.deepEqual((await http.get(B)).body, { buckets: [] });
    const made = await http.post(B, { name: "avatars", access_level: "public_read" });
    assert.equal(made.status, 201, made.text);
    assert.deepEqual(made.body.bucket, {
      name: "avatars",
      access_level: "public_read",
      created_at: new Date(emu.control.now()).toISOString(),
    });
    assert.equal((await http.post(B, { name: "docs" })).body.bucket.access_level, "private");
    assert.equal((await http.post(B, { name: "docs" })).status, 409);
    assert.equal((await http.post(B, { name: "x", access_level: "world" })).status, 400);
    assert.deepEqual(
      (await http.get(B)).body.buckets.map((b: Json) => b.name),
      ["avatars", "docs"],
    );
    assert.equal((await http.delete(`${B}/docs`)).status, 204);
    assert.equal((await http.delete(`${B}/docs`)).status, 404);
    assert.equal((await api(emu, DEMO.memberPersonalKey).get(B)).status, 403, "another user's project");
  });

  it("an object uploaded with a presigned PUT URL downloads byte for byte with a presigned GET URL and through /download", async () => {
    emu = await start();
    const http = api(emu, DEMO.personalKey);
    await http.post(B, { name: "files" });
    const bytes = randomBytes(70_000);
    const put = await presign(http, "files", "reports/2026/q1.bin", {
      operation: "upload",
      content_type: "application/pdf",
      expires_in_seconds: 60,
    });
    assert.equal(put.method, "PUT");
    assert.deepEqual(put.headers, { "Content-Type": "application/pdf" });
    assert.equal(put.expires_at, new Date(emu.control.now() + 60_000).toISOString());
    assert.equal(new URL(put.url).origin, emu.origin, "the URL points at the emulator itself");
    const stored = await fetch(put.url, { method: "PUT", headers: put.headers, body: bytes });
    assert.equal(stored.status, 200);

    const get = await presign(http, "files", "reports/2026/q1.bin", { operation: "download" });
    assert.deepEqual([get.method, get.headers], ["GET", {}]);
    const fetched = await fetch(get.url);
    assert.equal(fetched.status, 200);
    assert.ok(Buffer.from(await fetched.arrayBuffer()).equals(bytes));
    assert.equal(fetched.headers.get("content-type"), "application/pdf");

    const download = await fetch(
      `${emu.url}${B}/files/objects/${encodeURIComponent("reports/2026/q1.bin")}/download`,
      {
        headers: { authorization: `Bearer ${DEMO.personalKey}` },
      },
    );
    assert.equal(download.status, 200);
    assert.ok(Buffer.from(await download.arrayBuffer()).equals(bytes));
    assert.deepEqual(
      ["content-type", "content-length", "etag", "x-content-type-options", "content-disposition"].map((h) =>
        download.headers.get(h),
      ),
      [
        "application/octet-stream",
        "70000",
        stored.headers.get("etag"),
        "nosniff",
        "attachment; filename*=UTF-8''q1.bin",
      ],
    );
    const missing = await http.get(`${B}/files/objects/nope/download`);
    assert.equal(missing.status, 404, missing.text);
  });

  it("refuses a presigned URL that was changed, used with another method or content type, or has expired", async () => {
    emu = await start();
    const http = api(emu, DEMO.personalKey);
    await http.post(B, { name: "files" });
    const put = await presign(http, "files", "a.txt", { operation: "upload", content_type: "text/plain" });
    const send = (url: string, init: RequestInit = {}) => fetch(url, init).then((r) => r.status);
    const body = "hello";
    assert.equal(
      await send(put.url.replace("a.txt", "b.txt"), { method: "PUT", headers: put.headers, body }),
      403,
    );
    assert.equal(await send(put.url.replace(/X-Signature=./, "X-Signature=0"), { method: "PUT", body }), 403);
    assert.equal(
      await send(put.url.replace(/X-Expires=\d+/, "X-Expires=9999999999"), { method: "PUT", body }),
      403,
    );
    assert.equal(await send(put.url, { method: "PUT", headers: { "Content-Type": "text/html" }, body }), 403);
    assert.equal(await send(put.url, { method: "GET" }), 403, "an upload URL does not download");
    assert.equal(
      await send(put.url.split("?")[0] as string, { method: "PUT", body }),
      403,
      "an unsigned URL",
    );
    emu.control.advance(900_001);
    const expired = await fetch(put.url, { method: "PUT", headers: put.headers, body });
    assert.equal(expired.status, 403);
    assert.match(((await expired.json()) as Json).message, /expired at .*presign again/);
    assert.deepEqual((await http.get(`${B}/files/objects`)).body.objects, [], "nothing was stored");
    assert.equal(await upload(http, "files", "a.txt", Buffer.from(body)), 200, "a fresh URL works");
  });

  it("serves a public_read bucket's objects without a signature, a private bucket's not", async () => {
    emu = await start();
    const http = api(emu, DEMO.personalKey);
    await http.post(B, { name: "pub", access_level: "public_read" });
    await http.post(B, { name: "priv" });
    await upload(http, "pub", "logo.svg", Buffer.from("<svg/>"));
    await upload(http, "priv", "logo.svg", Buffer.from("<svg/>"));
    const bare = (bucket: string) =>
      new URL(`/__storage/${DEMO.projectId}/${DEMO.branchId}/${bucket}/logo.svg`, emu.origin);
    assert.equal(await (await fetch(bare("pub"))).text(), "<svg/>");
    assert.equal((await fetch(bare("priv"))).status, 403);
    assert.equal(
      (await fetch(bare("pub"), { method: "PUT", body: "x" })).status,
      403,
      "writes still need a URL",
    );
  });

  it("lists under a prefix, folds folders at a delimiter, pages with a cursor", async () => {
    emu = await start();
    const http = api(emu, DEMO.personalKey);
    await http.post(B, { name: "f" });
    for (const key of ["a/1", "a/2", "b/x/1", "c", "d"]) await upload(http, "f", key, Buffer.from(key));
    const list = async (query: string) => {
      const reply = await http.get(`${B}/f/objects${query}`);
      assert.equal(reply.status, 200, reply.text);
      return reply.body;
    };
    const flat = await list("");
    assert.deepEqual(
      flat.objects.map((o: Json) => [o.key, o.size]),
      [
        ["a/1", 3],
        ["a/2", 3],
        ["b/x/1", 5],
        ["c", 1],
        ["d", 1],
      ],
    );
    assert.deepEqual(
      [flat.folders, flat.prefix, flat.is_truncated, flat.next_cursor],
      [[], "", false, undefined],
    );
    const folded = await list("?delimiter=/");
    assert.deepEqual(
      [folded.folders, folded.objects.map((o: Json) => o.key)],
      [
        ["a/", "b/"],
        ["c", "d"],
      ],
    );
    const under = await list("?prefix=b/&delimiter=/");
    assert.deepEqual([under.folders, under.objects, under.prefix], [["b/x/"], [], "b/"]);
    const first = await list("?delimiter=/&limit=3");
    assert.deepEqual(
      [first.folders, first.objects.map((o: Json) => o.key), first.is_truncated],
      [["a/", "b/"], ["c"], true],
    );
    const rest = await list(`?delimiter=/&limit=3&cursor=${first.next_cursor}`);
    assert.deepEqual(
      [rest.folders, rest.objects.map((o: Json) => o.key), rest.is_truncated],
      [[], ["d"], false],
    );
    assert.equal((await http.get(`${B}/f/objects?cursor=!!`)).status, 400);
    assert.equal((await http.get(`${B}/f/objects?limit=0`)).status, 400);
    assert.equal((await http.get(`${B}/nope/objects`)).status, 404);
  });

  it("deletes an object, a folder by prefix, and refuses to delete a bucket until it is empty", async () => {
    emu = await start();
    const http = api(emu, DEMO.personalKey);
    await http.post(B, { name: "f" });
    for (const key of ["app/avatars/1", "app/avatars/2", "app/avatars-old", "top"])
      await upload(http, "f", key, Buffer.from(key));
    const refused = await http.delete(`${B}/f`);
    assert.equal(refused.status, 409);
    assert.match(refused.body.message, /still has 4 object\(s\): delete them/);
    assert.equal(
      (await http.delete(`${B}/f/objects-by-prefix?prefix=app/avatars`)).status,
      400,
      "not a folder",
    );
    assert.deepEqual((await http.delete(`${B}/f/objects-by-prefix?prefix=app/avatars/`)).body, {
      deleted: 2,
    });
    assert.deepEqual((await http.delete(`${B}/f/objects-by-prefix?prefix=app/avatars/`)).body, {
      deleted: 0,
    });
    assert.equal((await http.delete(`${B}/f/objects/top`)).status, 204);
    assert.equal((await http.delete(`${B}/f/objects/top`)).status, 404);
    assert.equal((await http.delete(`${B}/f/objects/${encodeURIComponent("app/avatars-old")}`)).status, 204);
    assert.equal((await http.delete(`${B}/f`)).status, 204);
  });

  it("a child branch starts with its parent's buckets and objects; its deletes leave the parent's", async () => {
    emu = await start();
    const http = api(emu, DEMO.personalKey);
    await http.post(B, { name: "f" });
    await upload(http, "f", "k", Buffer.from("parent"));
    const child = await http.post(`/projects/${DEMO.projectId}/branches`, {
      branch: { parent_id: DEMO.branchId },
    });
    const C = `/projects/${DEMO.projectId}/branches/${child.body.branch.id}/buckets`;
    assert.deepEqual(
      (await http.get(C)).body.buckets,
      (await http.get(B)).body.buckets,
      "the parent's creation time",
    );
    assert.equal((await http.get(`${C}/f/objects/k/download`)).text, "parent");
    assert.equal((await http.delete(`${C}/f/objects/k`)).status, 204);
    assert.equal((await http.get(`${B}/f/objects/k/download`)).text, "parent");
  });

  it("with a state file, objects and presigned URLs survive a restart, and deleted objects' bytes leave the folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "buckets-"));
    const stateFile = join(dir, "state.json");
    try {
      emu = await start({ stateFile });
      let http = api(emu, DEMO.personalKey);
      await http.post(B, { name: "f" });
      const bytes = randomBytes(1000);
      await upload(http, "f", "kept", bytes);
      await upload(http, "f", "gone", Buffer.from("soon deleted"));
      const get = await presign(http, "f", "kept", { operation: "download" });
      await http.delete(`${B}/f/objects/gone`);
      assert.equal(readdirSync(`${stateFile}.objects`).length, 1, "only the kept object's bytes");
      assert.ok(
        !readFileSync(stateFile, "utf8").includes(get.url.split("X-Signature=")[1]),
        "no signature in the state",
      );
      await emu.stop();
      emu = await start({ stateFile });
      http = api(emu, DEMO.personalKey);
      const again = await fetch(new URL(new URL(get.url).pathname + new URL(get.url).search, emu.origin));
      assert.ok(Buffer.from(await again.arrayBuffer()).equals(bytes));
      assert.deepEqual(
        (await http.get(`${B}/f/objects`)).body.objects.map((o: Json) => [o.key, o.size]),
        [["kept", 1000]],
      );
    } finally {
      await emu.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
