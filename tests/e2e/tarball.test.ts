// What `npm pack` puts in the two packages users install. The provider's tarball: the built
// provider, its type declarations, the README and the license; never the emulator (its own
// package), tests, benchmarks, examples, fixtures or sources. The emulator's tarball: the built
// emulator with its bin and its OpenAPI artifact, its README and the license; nothing of the provider.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "./support/stack";

const EMULATOR = path.join(ROOT, "emulator");
const ALWAYS = ["LICENSE", "README.md", "package.json"];

/** The paths `npm pack` would put in the tarball of the package in `dir` (its prepack builds it). */
function packedFiles(dir: string): string[] {
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--dry-run", "--json", "--silent"], { cwd: dir, encoding: "utf8" }),
  ) as { files: { path: string }[] }[];
  return (packed?.files ?? []).map((f) => f.path);
}

const neverShipped = (files: string[]) =>
  files.filter((f) => /(^|\/)(tests?|bench|examples|fixtures|node_modules)\/|\.tsbuildinfo$/.test(f));

describe("the npm tarballs", function () {
  this.timeout(5 * 60 * 1000);

  it("of the provider hold the built provider, its README and license, and no emulator", () => {
    const files = packedFiles(ROOT);
    assert.deepEqual(
      files.filter((f) => !ALWAYS.includes(f) && !/^lib\/provider\/.+\.(js|js\.map|d\.ts)$/.test(f)),
      [],
    );
    assert.deepEqual(neverShipped(files), []);
    for (const entry of ["lib/provider/index.js", "lib/provider/index.d.ts", ...ALWAYS]) {
      assert.ok(files.includes(entry), `${entry} is in the tarball`);
    }
  });

  it("of the emulator hold the built emulator, its bin, README and license, and nothing of the provider", () => {
    const files = packedFiles(EMULATOR);
    assert.deepEqual(
      files.filter((f) => !ALWAYS.includes(f) && !/^lib\/.+\.(js|js\.map|d\.ts|json)$/.test(f)),
      [],
    );
    assert.deepEqual(neverShipped(files), []);
    assert.deepEqual(
      files.filter((f) => /(^|\/)provider\//.test(f)),
      [],
    );
    const manifest = JSON.parse(fs.readFileSync(path.join(EMULATOR, "package.json"), "utf8")) as {
      bin: Record<string, string>;
    };
    const bin = path.normalize(manifest.bin["clouddb-emulator"] ?? "");
    for (const entry of ["lib/index.js", "lib/index.d.ts", "lib/openapi/requests.gen.json", bin, ...ALWAYS]) {
      assert.ok(files.includes(entry), `${entry} is in the tarball`);
    }
    assert.match(fs.readFileSync(path.join(EMULATOR, bin), "utf8"), /^#!\/usr\/bin\/env node\n/);
    assert.equal(
      fs.readFileSync(path.join(EMULATOR, "LICENSE"), "utf8"),
      fs.readFileSync(path.join(ROOT, "LICENSE"), "utf8"),
      "emulator/LICENSE is a copy of the repository's LICENSE",
    );
  });
});
