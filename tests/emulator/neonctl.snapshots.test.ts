import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import type { Json } from "./helpers";
import { useNeonctl } from "./neonctl-harness";

// The official CLI's `snapshots` commands, unchanged, against the emulator: take, list, get,
// rename and expire, restore into a new branch and finalize it (the restored branch takes the
// name and computes of the one it replaces), restore and finalize at once, the backup schedule
// and the snapshots it takes on the emulator's clock, delete.

const P = DEMO.projectId;
const HOUR = 3_600_000;

describe("the official CLI's snapshots commands against the emulator", function () {
  this.timeout(120_000);
  const cli = useNeonctl();
  const { ok, neonctl: run } = cli;
  const inProject = (...args: string[]) => ok(...args, "--project-id", P);

  const liveBranch = (name: string) =>
    cli.emu.control
      .dumpState()
      .branches.find((b) => b.project_id === P && b.name === name && b.deleted_at_ms === undefined);
  const computesOf = (branchId: string) =>
    cli.emu.control
      .dumpState()
      .endpoints.filter((e) => e.branch_id === branchId)
      .map((e) => e.id)
      .sort();
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

  it("snapshots create, list, get: a named snapshot of main, at its head and at a point of its history", async () => {
    const main = liveBranch("main");
    assert.ok(main);
    const taken = await inProject("snapshots", "create", "--branch", "main", "--name", "pre-migration");
    assert.equal(taken.name, "pre-migration");
    assert.equal(taken.source_branch_id, main.id);
    assert.equal(taken.expires_at, undefined);
    const past = iso(cli.emu.control.now() - 60_000);
    const atTime = await inProject(
      "snapshots",
      "create",
      "--branch",
      "main",
      "--timestamp",
      past,
      "--name",
      "a-minute-ago",
    );
    assert.equal(atTime.name, "a-minute-ago");
    const listed = (await inProject("snapshots", "list")).map((s: Json) => s.name);
    assert.deepEqual(listed, ["pre-migration", "a-minute-ago"]);
    assert.equal((await inProject("snapshots", "get", "pre-migration")).id, taken.id);
  });

  it("snapshots create refuses a point outside the branch's history, naming it", async () => {
    const future = iso(cli.emu.control.now() + HOUR);
    const refused = await run(
      "snapshots",
      "create",
      "--branch",
      "main",
      "--timestamp",
      future,
      "--project-id",
      P,
    );
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /in the future/);
  });

  it("snapshots update: renames, sets and clears the expiry", async () => {
    const expires = iso(cli.emu.control.now() + 48 * HOUR);
    const updated = await inProject(
      "snapshots",
      "update",
      "a-minute-ago",
      "--name",
      "yesterday",
      "--expires-at",
      expires,
    );
    assert.equal(updated.name, "yesterday");
    assert.equal(updated.expires_at, expires);
    const cleared = await inProject("snapshots", "update", "yesterday", "--clear-expiration");
    assert.equal(cleared.expires_at, undefined);
  });

  it("snapshots restore, then finalize: the restored branch takes main's name, computes and default flag; the old main stays, renamed", async () => {
    const before = liveBranch("main");
    assert.ok(before);
    const computes = computesOf(before.id);
    assert.ok(computes.length > 0, "main has a compute");
    const restored = await inProject(
      "snapshots",
      "restore",
      "pre-migration",
      "--name",
      "recovered",
      "--target-branch",
      "main",
    );
    assert.equal(restored.restored_branch.name, "recovered");
    assert.equal(liveBranch("recovered")?.restore_status, "restored");
    assert.deepEqual(computesOf(before.id), computes, "un-finalized, nothing moved yet");
    await inProject("snapshots", "finalize", "recovered", "--name", "main-before-restore");
    const after = liveBranch("main");
    assert.ok(after);
    assert.notEqual(after.id, before.id, "main is now the restored branch");
    assert.equal(after.restored_as, before.id);
    assert.equal(after.restore_status, "finalized");
    assert.equal(after.default, true);
    assert.deepEqual(computesOf(after.id), computes, "the computes moved to it");
    assert.equal(liveBranch("main-before-restore")?.id, before.id, "the replaced branch is kept, renamed");
    const shown = await inProject("branches", "get", "main");
    assert.equal(shown.id, after.id);
  });

  it("snapshots restore --finalize: swaps in at once", async () => {
    const before = liveBranch("main");
    assert.ok(before);
    await inProject("snapshots", "restore", "yesterday", "--target-branch", "main", "--finalize");
    const after = liveBranch("main");
    assert.ok(after);
    assert.notEqual(after.id, before.id);
    assert.equal(after.restored_as, before.id);
    const finalizedAgain = await run("snapshots", "finalize", after.id, "--project-id", P);
    assert.notEqual(finalizedAgain.code, 0, "a finalized restore cannot be finalized again");
    assert.match(finalizedAgain.stderr, /not an unfinalized snapshot restore/);
  });

  it("snapshots schedule set and get; the emulator's clock passing 03:00 twice takes two daily snapshots", async () => {
    const daily = (hour: string) => [
      "snapshots",
      "schedule",
      "set",
      "--branch",
      "main",
      "--frequency",
      "daily",
      "--hour",
      hour,
    ];
    const set = await inProject(...daily("3"), "--retention", "604800");
    assert.deepEqual(set, [{ frequency: "daily", hour: 3, retention_seconds: 604800 }]);
    const got = await inProject("snapshots", "schedule", "get", "--branch", "main");
    assert.deepEqual(got, [{ frequency: "daily", hour: 3, retention_seconds: 604800 }]);
    cli.emu.control.advance(48 * HOUR);
    const automatic = (await inProject("snapshots", "list")).filter((s: Json) => s.manual === false);
    assert.equal(automatic.length, 2, JSON.stringify(automatic));
    for (const s of automatic) {
      assert.match(s.created_at, /T03:00:00Z$/);
      assert.equal(Date.parse(s.expires_at) - Date.parse(s.created_at), 604_800_000);
    }
    const bad = await run(...daily("24"), "--project-id", P);
    assert.notEqual(bad.code, 0, "an hour past 23 is refused");
  });

  it("snapshots delete: the snapshot is gone from the list", async () => {
    const deleted = await inProject("snapshots", "delete", "pre-migration");
    assert.equal(deleted.name, "pre-migration");
    const names = (await inProject("snapshots", "list")).map((s: Json) => s.name);
    assert.ok(!names.includes("pre-migration"));
    const missing = await run("snapshots", "get", "pre-migration", "--project-id", P);
    assert.notEqual(missing.code, 0);
  });
});
