// What `npm pack` puts in the package users install: the built provider and emulator, their type
// declarations, the README and the license; never tests, benchmarks, examples, fixtures or sources.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { ROOT } from "./support/stack";

describe("the npm tarball", function () {
  this.timeout(5 * 60 * 1000);

  it("holds only what users need", () => {
    const [packed] = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--silent"], { cwd: ROOT, encoding: "utf8" }),
    ) as { files: { path: string }[] }[];
    const files = (packed?.files ?? []).map((f) => f.path);
    const unexpected = files.filter(
      (f) =>
        !["LICENSE", "README.md", "package.json"].includes(f) &&
        !/^lib\/(provider|emulator)\/.+\.(js|js\.map|d\.ts|json)$/.test(f),
    );
    assert.deepEqual(unexpected, []);
    assert.deepEqual(
      files.filter((f) => /(^|\/)(tests?|bench|examples|fixtures)\//.test(f)),
      [],
    );
    for (const entry of [
      "lib/provider/index.js",
      "lib/provider/index.d.ts",
      "lib/emulator/cli.js",
      "LICENSE",
    ]) {
      assert.ok(files.includes(entry), `${entry} is in the tarball`);
    }
  });
});
