import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { filesUnder } from "../../scripts/release/release";
import { copyWhole, publishFolder, workFolder } from "../../scripts/release/sea";

// Two releases on one machine: each run works in a folder of its own and puts the archives it made
// into the cache with one rename, so neither deletes nor half-reads the other's. Fast: no build.

describe("release: each run's folders are its own", () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-work-"));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const write = (dir: string, name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
  const complete = (dir: string) => fs.existsSync(path.join(dir, "a.tar.gz"));

  it("gives two runs of one kind two work folders under the cache, making the cache if missing", () => {
    const cache = path.join(root, "cache");
    const first = workFolder(cache, "plugin-build-");
    const second = workFolder(cache, "plugin-build-");
    assert.notEqual(first, second);
    for (const dir of [first, second]) {
      assert.equal(path.dirname(dir), cache);
      assert.match(path.basename(dir), /^plugin-build-\w{6}$/);
      assert.deepEqual(fs.readdirSync(dir), [], "empty");
    }
  });

  it("two builds finishing one after the other: the first's archives fill the cache, the second's folder goes, both outputs are whole", () => {
    const archives = path.join(root, "plugin-archives");
    const cached = path.join(archives, "0123456789abcdef");
    const [a, b] = [workFolder(archives, ".0123456789abcdef-"), workFolder(archives, ".0123456789abcdef-")];
    write(a, "a.tar.gz", "made by the first run");
    write(b, "a.tar.gz", "made by the second run");
    const [outA, outB] = [path.join(root, "outA"), path.join(root, "outB")];
    fs.mkdirSync(outA);
    fs.mkdirSync(outB);
    copyWhole(path.join(a, "a.tar.gz"), path.join(outA, "a.tar.gz"));
    copyWhole(path.join(b, "a.tar.gz"), path.join(outB, "a.tar.gz"));

    publishFolder(a, cached, complete);
    publishFolder(b, cached, complete);
    assert.equal(fs.readFileSync(path.join(cached, "a.tar.gz"), "utf8"), "made by the first run");
    assert.deepEqual(fs.readdirSync(archives), ["0123456789abcdef"], "no folder of either run is left");
    assert.deepEqual(filesUnder(outA), ["a.tar.gz"], "no partial copy left beside it");
    assert.equal(fs.readFileSync(path.join(outB, "a.tar.gz"), "utf8"), "made by the second run");
  });

  it("replaces a cache folder an older build left incomplete", () => {
    const cached = path.join(root, "plugin-archives", "key");
    fs.mkdirSync(cached, { recursive: true });
    write(cached, "other.tar.gz", "half of an older build");
    const staged = workFolder(path.dirname(cached), ".key-");
    write(staged, "a.tar.gz", "whole");
    publishFolder(staged, cached, complete);
    assert.deepEqual(filesUnder(path.dirname(cached)), ["key/a.tar.gz"]);
  });
});
