// The Java SDK in the release folder: its jar and pom at the path a Maven repository serves
// io.github.pulumiclouddb:clouddb:<version> from, each with the .sha1 Maven checks; Maven resolves
// it from there.
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

  it("holds the Java SDK's jar and pom at their coordinates, with their sha1, the jar carrying the plugin; Maven resolves it from there", () => {
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

      // As a user's Maven does, in a local repository of its own that has never seen the SDK: the
      // SDK from this folder, com.pulumi:pulumi and Maven's own plugins from Maven Central.
      const local = path.join(repository, ".local");
      const get = spawnSync(
        "mvn",
        [
          "-B",
          "-ntp",
          "-q",
          `-Dmaven.repo.local=${local}`,
          "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get",
          `-Dartifact=io.github.pulumiclouddb:clouddb:${VERSION}`,
          `-DremoteRepositories=release::default::file://${repository}`,
        ],
        { encoding: "utf8", cwd: repository },
      );
      assert.equal(
        get.status,
        0,
        `Maven did not resolve the SDK from the folder:\n${get.stdout}${get.stderr}`,
      );
      const resolved = path.join(local, "io/github/pulumiclouddb/clouddb", VERSION, `${name}.jar`);
      assert.ok(
        fs.readFileSync(resolved).equals(fs.readFileSync(path.join(folder, `${name}.jar`))),
        "the jar Maven resolved is the folder's",
      );
      assert.ok(fs.existsSync(path.join(local, "com/pulumi/pulumi/1.16.0")), "with com.pulumi:pulumi 1.16.0");
    } finally {
      fs.rmSync(repository, { recursive: true, force: true });
    }
  });
});
