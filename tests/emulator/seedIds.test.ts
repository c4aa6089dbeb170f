import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, demoSeed, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { api, type Json, start } from "./helpers";

// Deterministic ids (`--seed-ids`, a seed file's `seed_ids`): the same requests get the same
// project, branch, endpoint, snapshot and operation ids, a restart goes on with the sequence, and
// secrets stay random.

/** Every id a fixed sequence of requests gets back, in order, and the secrets it sees. */
async function script(emu: RunningEmulator, steps: "all" | "first" | "second" = "all") {
  const client = api(emu, DEMO.personalKey);
  const ids: string[] = [];
  const secrets: string[] = [];
  const ok = (reply: { status: number; text: string; body: Json }) => {
    assert.ok(reply.status < 300, `${reply.status} ${reply.text}`);
    return reply.body;
  };
  if (steps !== "second") {
    const made = ok(await client.post("/projects", { project: { name: "seeded" } }));
    ids.push(made.project.id, made.branch.id, ...made.endpoints.map((e: Json) => e.id));
    ids.push(...made.operations.map((o: Json) => o.id));
    secrets.push(made.connection_uris[0].connection_uri);
    emu.control.advance(10_000);
  }
  if (steps !== "first") {
    const projectId = emu.control.dumpState().projects.find((p) => p.name === "seeded")?.id;
    assert.ok(projectId, "the project of the first steps");
    const branch = ok(
      await client.post(`/projects/${projectId}/branches`, {
        branch: { name: "dev" },
        endpoints: [{ type: "read_write" }],
      }),
    );
    ids.push(
      branch.branch.id,
      ...branch.endpoints.map((e: Json) => e.id),
      ...branch.operations.map((o: Json) => o.id),
    );
    emu.control.advance(10_000);
    const snapshot = ok(await client.post(`/projects/${projectId}/branches/${branch.branch.id}/snapshot`));
    ids.push(snapshot.snapshot.id);
    const key = ok(await client.post("/api_keys", { key_name: "seeded" }));
    secrets.push(key.key);
  }
  return { ids, secrets };
}

describe("emulator: deterministic ids (seedIds)", () => {
  const started: RunningEmulator[] = [];
  const run = async (options: EmulatorOptions) => {
    const emu = await start(options);
    started.push(emu);
    return emu;
  };
  afterEach(async () => {
    await Promise.all(started.splice(0).map((emu) => emu.stop()));
  });

  it("gives the same requests the same project, branch, endpoint, snapshot and operation ids from the same seed", async () => {
    const a = await script(await run({ seedIds: 7 }));
    const b = await script(await run({ seedIds: 7 }));
    assert.equal(a.ids.length, 10);
    assert.deepEqual(a.ids, b.ids);
    assert.match(a.ids[0] ?? "", /^[a-z]+-[a-z]+-\d{8}$/, "a project id as the service prints them");
    assert.match(a.ids[1] ?? "", /^br-[a-z]+-[a-z]+-a[a-z0-9]{7}$/);
  });

  it("gives another seed, or none, other ids", async () => {
    const seven = await script(await run({ seedIds: 7 }), "first");
    const eight = await script(await run({ seedIds: 8 }), "first");
    const random = await script(await run({}), "first");
    assert.notEqual(seven.ids[0], eight.ids[0]);
    assert.notEqual(seven.ids[0], random.ids[0]);
  });

  it("keeps passwords and API keys random under a seed: a seed anyone reads gives no credential", async () => {
    const a = await script(await run({ seedIds: 7 }));
    const b = await script(await run({ seedIds: 7 }));
    assert.equal(a.secrets.length, 2);
    for (const [i, secret] of a.secrets.entries()) assert.notEqual(secret, b.secrets[i]);
  });

  it("goes on with the sequence after a restart from the state file, handing out no id twice", async () => {
    const dir = mkdtempSync(join(tmpdir(), "seed-ids-"));
    try {
      const stateFile = join(dir, "state.json");
      const first = await start({ seedIds: 7, stateFile });
      const before = await script(first, "first");
      await first.stop();
      // The option is ignored now: the saved state has its sequence.
      const again = await run({ seedIds: 99, stateFile });
      const after = await script(again, "second");
      const whole = await script(await run({ seedIds: 7 }));
      assert.deepEqual([...before.ids, ...after.ids], whole.ids);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("takes the seed from a seed file's seed_ids, and a reseed through the control API starts the sequence again", async () => {
    const seed = { ...demoSeed(), seed_ids: 7 };
    const emu = await run({ seed });
    const a = await script(emu, "first");
    emu.control.seed(seed);
    const b = await script(emu, "first");
    const c = await script(await run({ seedIds: 7 }), "first");
    assert.deepEqual(a.ids, b.ids);
    assert.deepEqual(a.ids, c.ids);
  });
});
