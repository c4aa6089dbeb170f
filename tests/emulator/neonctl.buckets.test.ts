import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO } from "../../emulator";
import { useNeonctl } from "./neonctl-harness";

// The official CLI (neonctl, unchanged) on a branch's buckets (docs/api-rules.md §26): every
// `neon bucket` command there is, which call all of the CLI's storage API (`dist/storage_api.js`).
// `bucket object put` uploads through the presigned PUT URL the emulator hands out, to the
// emulator's own storage route; `bucket object get` downloads through `/download`. The presigned
// download the API also offers has no command in the CLI (its storage API says so), so it is run
// by tests/emulator/buckets.test.ts and tests/emulator/neon-sdk.buckets.test.ts instead.

const SCOPE = ["--project-id", DEMO.projectId, "--branch", DEMO.branchId];

describe("the official CLI (neonctl): buckets and their objects", function () {
  this.timeout(120_000);
  const cli = useNeonctl({ seed: "demo" });
  let dir = "";
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "neonctl-bucket-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("creates, lists and deletes buckets", async () => {
    await cli.ok("bucket", "create", "avatars", "--access-level", "public_read", ...SCOPE);
    await cli.ok("bucket", "create", "docs", ...SCOPE);
    const listed = await cli.ok("bucket", "list", ...SCOPE);
    assert.deepEqual(
      listed.map((b: { name: string; access_level: string }) => [b.name, b.access_level]),
      [
        ["avatars", "public_read"],
        ["docs", "private"],
      ],
    );
    await cli.ok("bucket", "delete", "avatars", ...SCOPE);
    const gone = await cli.neonctl("bucket", "delete", "avatars", ...SCOPE);
    assert.notEqual(gone.code, 0);
    assert.match(gone.stderr, /Bucket "avatars" not found on branch/);
  });

  it("uploads a file through a presigned URL, lists it in folders or flat, and downloads it byte for byte", async () => {
    const bytes = randomBytes(200_000);
    const source = join(dir, "photo.bin");
    writeFileSync(source, bytes);
    await cli.ok("bucket", "object", "put", "docs/2026/photo.bin", "--file", source, ...SCOPE);
    writeFileSync(join(dir, "note.txt"), "hello");
    await cli.ok(
      "bucket",
      "object",
      "put",
      "docs/note.txt",
      "--file",
      join(dir, "note.txt"),
      "--content-type",
      "text/plain",
      ...SCOPE,
    );

    const folders = await cli.ok("bucket", "object", "list", "docs", ...SCOPE);
    assert.deepEqual(
      [folders.folders, folders.objects.map((o: { key: string }) => o.key)],
      [["2026/"], ["note.txt"]],
    );
    const flat = await cli.ok("bucket", "object", "list", "docs", "--recursive", ...SCOPE);
    assert.deepEqual(
      flat.objects.map((o: { key: string; size: number }) => [o.key, o.size]),
      [
        ["2026/photo.bin", 200_000],
        ["note.txt", 5],
      ],
    );
    const page = await cli.ok("bucket", "object", "list", "docs", "--recursive", "--limit", "1", ...SCOPE);
    assert.equal(page.is_truncated, true);
    const next = await cli.ok(
      "bucket",
      "object",
      "list",
      "docs",
      "--recursive",
      "--cursor",
      page.next_cursor,
      ...SCOPE,
    );
    assert.deepEqual(
      next.objects.map((o: { key: string }) => o.key),
      ["note.txt"],
    );

    const target = join(dir, "downloaded.bin");
    await cli.ok("bucket", "object", "get", "docs/2026/photo.bin", "--file", target, ...SCOPE);
    assert.ok(readFileSync(target).equals(bytes), "the same bytes come back");
    const missing = await cli.neonctl(
      "bucket",
      "object",
      "get",
      "docs/nope",
      "--file",
      join(dir, "x"),
      ...SCOPE,
    );
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /object "nope" not found in bucket docs/);
  });

  it("deletes an object and a folder; the service refuses a bucket that still has objects", async () => {
    const full = await cli.neonctl("bucket", "delete", "docs", ...SCOPE);
    assert.notEqual(full.code, 0);
    assert.match(full.stderr, /still has 2 object\(s\)/);
    await cli.ok("bucket", "object", "delete", "docs/2026/", "--recursive", ...SCOPE);
    await cli.ok("bucket", "object", "delete", "docs/note.txt", ...SCOPE);
    const again = await cli.neonctl("bucket", "object", "delete", "docs/note.txt", ...SCOPE);
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /object "note.txt" not found/);
    await cli.ok("bucket", "delete", "docs", ...SCOPE);
    assert.deepEqual(await cli.ok("bucket", "list", ...SCOPE), []);
  });
});
