// The preview-environment example's GitHub workflow under the real Pulumi engine, against the
// emulator: its own commands run in order as the workflow runs them (opened, pushed after the branch
// expired, closed), and its install step as a user copies it, with the package as the registry serves it.
import * as assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { ROOT } from "./support/stack";
import { checkoutExample, type JobRun, liveBranchesByName, readWorkflow } from "./support/workflow";

const execFileAsync = promisify(execFile);

describe("e2e: the preview-environment example's workflow under the real Pulumi engine", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
  });
  after(async () => emulator?.stop());

  /** The branches of the demo organization's project, by name. */
  const branchesByName = () => liveBranchesByName(emulator, DEMO.orgProjectId);

  it("preview-environment's workflow: its own commands, run in order: opened creates the stack and masks DATABASE_URL; a push after the branch expired makes it again; closed after it expired destroys and removes the stack", async () => {
    const checkout = checkoutExample({
      apiUrl: emulator.url,
      apiKey: DEMO.personalKey,
      projectId: DEMO.orgProjectId,
      pullRequest: "9",
      install: "link",
    });
    assert.deepEqual(
      Object.keys(readWorkflow().env).sort(),
      Object.keys(checkout.env)
        .filter((k) => k in readWorkflow().env)
        .sort(),
    );
    /** The DATABASE_URL the up job handed on, after checking that it was masked first. */
    const handedOn = (run: JobRun) => {
      const urls = [...checkout.githubEnv().matchAll(/^DATABASE_URL=(postgresql:\/\/\S+)$/gm)];
      const url = urls.at(-1)?.[1];
      assert.ok(url, `the up job exports DATABASE_URL: ${checkout.githubEnv()}`);
      assert.ok(
        run.output.includes(`::add-mask::${url}`),
        "the connection string is masked before it is exported",
      );
      return new URL(url);
    };
    try {
      const opened = await checkout.runJob("up");
      assert.equal(opened.code, 0, opened.output);
      const firstUrl = handedOn(opened);
      const first = branchesByName().get("preview/pr-9");
      assert.ok(first);

      // The service deletes a branch whose expiry passed, with everything on it.
      emulator.control.deleteBranch(DEMO.orgProjectId, first.id);
      const pushed = await checkout.runJob("up");
      assert.equal(pushed.code, 0, pushed.output);
      const second = branchesByName().get("preview/pr-9");
      assert.ok(second && second.id !== first.id, "a new branch for the pull request");
      const secondUrl = handedOn(pushed);
      assert.equal(secondUrl.username, firstUrl.username, "the same generated role name");
      assert.equal(
        decodeURIComponent(secondUrl.password),
        second.roles.find((r) => r.name === decodeURIComponent(secondUrl.username))?.password,
      );

      emulator.control.deleteBranch(DEMO.orgProjectId, second.id);
      const closed = await checkout.runJob("destroy");
      assert.equal(closed.code, 0, closed.output);
      const { stdout: stacks } = await execFileAsync("pulumi", ["stack", "ls", "--json"], {
        cwd: checkout.programDir,
        env: checkout.env,
        encoding: "utf8",
      });
      assert.deepEqual(JSON.parse(stacks), [], "the pull request's stack is removed");
    } finally {
      checkout.dispose();
    }
  });

  it("preview-environment's workflow as copied: its install step gets everything the program needs", async () => {
    // The package as the registry would serve it: this repository, packed.
    const packDir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-pack-"));
    const tarball = path.join(
      packDir,
      execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", packDir], {
        cwd: ROOT,
        encoding: "utf8",
      })
        .trim()
        .split("\n")
        .pop()!,
    );
    const checkout = checkoutExample({
      apiUrl: emulator.url,
      apiKey: DEMO.personalKey,
      projectId: DEMO.orgProjectId,
      pullRequest: "10",
      install: "run",
      rewrite: (run) => run.replace("pulumi-clouddb@^0.1.0", tarball),
    });
    try {
      const opened = await checkout.runJob("up");
      assert.equal(opened.code, 0, opened.output);
      assert.ok(
        fs.existsSync(path.join(checkout.programDir, "node_modules", "pulumi-clouddb", "package.json")),
      );
      assert.ok(
        !fs.lstatSync(path.join(checkout.programDir, "node_modules", "@pulumi")).isSymbolicLink(),
        "installed, not this repository's",
      );
      assert.match(checkout.githubEnv(), /^DATABASE_URL=postgresql:\/\//m);
      const closed = await checkout.runJob("destroy");
      assert.equal(closed.code, 0, closed.output);
    } finally {
      checkout.dispose();
      fs.rmSync(packDir, { recursive: true, force: true });
    }
  });
});
