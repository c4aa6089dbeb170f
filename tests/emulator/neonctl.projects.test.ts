import assert from "node:assert/strict";
import type { Json } from "./helpers";
import { useNeonctl } from "./neonctl-harness";

// The official CLI (`neonctl`, unchanged) on a project's lifecycle beyond create and delete: a
// project deleted is listed with --recoverable-only within its window and recovered with its
// branches (docs/api-rules.md §22); HIPAA turned on at create or by update, and never off (§11).

describe("the official CLI (neonctl): projects recover and --hipaa", function () {
  this.timeout(120_000);
  const cli = useNeonctl({ seed: "demo", clock: "manual" });
  const { ok, neonctl } = cli;
  const projects = (listed: Json): Json[] => (Array.isArray(listed) ? listed : (listed.projects ?? []));

  it("projects delete, list --recoverable-only, recover: the project comes back with its branches", async () => {
    const id = (await ok("projects", "create", "--name", "cli-recover")).project.id as string;
    // The emulator's clock is moved by hand: each change's operations end when it moves.
    cli.emu.control.advance(1000);
    await ok("branches", "create", "--project-id", id, "--name", "dev");
    cli.emu.control.advance(1000);
    await ok("projects", "delete", id);
    assert.ok(!projects(await ok("projects", "list")).some((p) => p.id === id), "deleted");
    const recoverable = projects(await ok("projects", "list", "--recoverable-only"));
    assert.deepEqual(
      recoverable.map((p) => p.id),
      [id],
    );
    assert.ok(recoverable[0]?.recoverable_until, "the listing says until when");
    await ok("projects", "recover", id);
    assert.equal((await ok("projects", "get", id)).name, "cli-recover");
    const branches = (await ok("branches", "list", "--project-id", id)).map((b: Json) => b.name);
    assert.ok(branches.includes("dev"), branches.join(", "));
    assert.deepEqual(projects(await ok("projects", "list", "--recoverable-only")), []);
  });

  it("projects recover after the window is refused, and the project stays gone", async () => {
    const id = (await ok("projects", "create", "--name", "cli-too-late")).project.id as string;
    await ok("projects", "delete", id);
    cli.emu.control.advance(8 * 24 * 60 * 60 * 1000);
    const late = await neonctl("projects", "recover", id);
    assert.notEqual(late.code, 0, late.stdout);
    assert.ok(!projects(await ok("projects", "list", "--recoverable-only")).some((p) => p.id === id));
  });

  it("projects create --hipaa and update --hipaa turn it on; --no-hipaa is refused with the service's message", async () => {
    const made = await ok("projects", "create", "--name", "cli-hipaa", "--hipaa");
    assert.equal(made.project.settings?.hipaa, true);
    const id = made.project.id as string;
    const refused = await neonctl("projects", "update", id, "--no-hipaa");
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /HIPAA compliance cannot be disabled once enabled/);
    const plain = (await ok("projects", "create", "--name", "cli-later")).project.id as string;
    const updated = await ok("projects", "update", plain, "--hipaa");
    assert.equal(updated.settings?.hipaa, true);
    assert.ok(updated.settings?.hipaa_enabled_at ?? updated.hipaa_enabled_at, "when it was turned on");
  });
});
