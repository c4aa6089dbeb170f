// The Java SDK in the release folder: its jar and pom at the path a Maven repository serves
// io.github.pulumiclouddb:clouddb:<version> from, each with the .sha1 Maven checks.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { mavenLayout } from "../../scripts/release/release";

const ROOT = path.join(__dirname, "../..");
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string })
  .version;

describe("the release's Maven repository folder", function () {
  // The first run builds sdk/java with Maven (and fetches com.pulumi:pulumi): a minute.
  this.timeout(10 * 60 * 1000);

  it("holds the Java SDK's jar and pom at their coordinates, with their sha1, the jar carrying the plugin", () => {
    const repository = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-maven-"));
    try {
      const folder = mavenLayout(repository);
      assert.equal(path.relative(repository, folder), path.join("io/github/pulumiclouddb/clouddb", VERSION));
      const name = `clouddb-${VERSION}`;
      const pom = fs.readFileSync(path.join(folder, `${name}.pom`));
      assert.ok(pom.equals(fs.readFileSync(path.join(ROOT, "sdk/java/pom.xml"))), "the pom is sdk/java's");
      for (const file of [`${name}.jar`, `${name}.pom`]) {
        const sha1 = createHash("sha1")
          .update(fs.readFileSync(path.join(folder, file)))
          .digest("hex");
        assert.equal(fs.readFileSync(path.join(folder, `${file}.sha1`), "utf8"), sha1, `${file}.sha1`);
      }
      const plugin = spawnSync(
        "unzip",
        ["-p", path.join(folder, `${name}.jar`), "io/github/pulumiclouddb/clouddb/plugin.json"],
        { encoding: "utf8" },
      );
      assert.equal((JSON.parse(plugin.stdout) as { version: string }).version, VERSION);
    } finally {
      fs.rmSync(repository, { recursive: true, force: true });
    }
  });
});
