import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, type RunningEmulator } from "../../emulator";
import { heldFields, holdOnBranch } from "../../emulator/families/branch-data";
import type { BranchRecord } from "../../emulator/records";
import { api, type Json, start } from "./helpers";

// The registry through which each family says what it keeps on a branch (emulator/families/
// branch-data.ts): a family's field is handed to a child, kept by a preserved branch, changed by a
// restore and a delete as the family registered it, and the branches family names none of them.
// Two fields of this file's own stand for a family: one a child and a preserved branch take, one
// that stays with its branch.

declare module "../../emulator/records" {
  interface BranchData {
    /** Notes a child and a preserved branch take, each change of the branch adding one. */
    test_notes?: string[];
    /** A setting of the branch: no child or preserved copy takes it. */
    test_setting?: number;
  }
}

holdOnBranch({
  field: "test_notes",
  toChild: (notes, { schemaOnly }) => (schemaOnly ? undefined : [...notes, "handed down"]),
  preserved: true,
  onRestore: (notes) => [...notes, "restored"],
  onDelete: (notes) => [...notes, "deleted"],
});
holdOnBranch({ field: "test_setting", toChild: false, preserved: false });

const P = `/projects/${DEMO.projectId}`;

describe("emulator: what the families keep on a branch", () => {
  let dir: string;
  let emu: RunningEmulator | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "clouddb-branch-data-"));
  });
  afterEach(async () => {
    await emu?.stop();
    emu = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  /** An emulator whose demo branch holds both test fields, loaded from a state file. */
  async function withTestFields(): Promise<RunningEmulator> {
    const file = join(dir, "state.json");
    await (await start({ stateFile: file })).stop();
    const state = JSON.parse(readFileSync(file, "utf8")) as { branches: BranchRecord[] };
    const main = state.branches.find((b) => b.id === DEMO.branchId);
    assert.ok(main);
    Object.assign(main, { test_notes: ["made"], test_setting: 7 });
    writeFileSync(file, JSON.stringify(state));
    return start({ stateFile: file });
  }

  /** Makes a child of the demo branch named `child`, its operations done; its id. */
  async function childOfMain(running: RunningEmulator): Promise<string> {
    const made = await api(running, DEMO.personalKey).post(`${P}/branches`, {
      branch: { parent_id: DEMO.branchId, name: "child" },
    });
    assert.equal(made.status, 201, made.text);
    running.control.advance(1000);
    return (made.body as Json).branch.id as string;
  }

  const branchNamed = (name: string): BranchRecord => {
    const found = emu?.control.dumpState().branches.find((b) => b.name === name);
    assert.ok(found, `branch ${name}`);
    return found;
  };

  it("hands a child what the family gives it, a schema-only child nothing of the data, and no setting", async () => {
    emu = await withTestFields();
    const http = api(emu, DEMO.personalKey);
    await childOfMain(emu);
    const bare = await http.post(`${P}/branches`, {
      branch: { parent_id: DEMO.branchId, name: "bare", init_source: "schema-only" },
    });
    assert.equal(bare.status, 201, bare.text);
    assert.deepEqual(branchNamed("child").test_notes, ["made", "handed down"]);
    assert.equal(branchNamed("child").test_setting, undefined, "a setting stays with its branch");
    assert.equal(branchNamed("bare").test_notes, undefined, "the family gives a schema-only child nothing");
  });

  it("keeps in a preserved branch what the family preserves, and applies its restore rule to the restored branch", async () => {
    emu = await withTestFields();
    const http = api(emu, DEMO.personalKey);
    const child = await childOfMain(emu);
    const restored = await http.post(`${P}/branches/${DEMO.branchId}/restore`, {
      source_branch_id: child,
      preserve_under_name: "kept",
    });
    assert.equal(restored.status, 200, restored.text);
    const kept = branchNamed("kept");
    assert.deepEqual(kept.test_notes, ["made"], "the preserved branch has the notes as they were");
    assert.equal(kept.test_setting, undefined, "the setting is not preserved");
    const main = emu.control.dumpState().branches.find((b) => b.id === DEMO.branchId);
    assert.deepEqual(main?.test_notes, ["made", "restored"]);
    assert.equal(main?.test_setting, 7, "the restored branch keeps its setting");
  });

  it("applies the family's delete rule to a deleted branch, and keeps what it does not change", async () => {
    emu = await withTestFields();
    const http = api(emu, DEMO.personalKey);
    const child = await childOfMain(emu);
    const deleted = await http.delete(`${P}/branches/${child}`);
    assert.equal(deleted.status, 200, deleted.text);
    const tombstone = emu.control.dumpState().branches.find((b) => b.id === child);
    assert.ok(tombstone?.deleted_at_ms !== undefined);
    assert.deepEqual(tombstone?.test_notes, ["made", "handed down", "deleted"]);
  });

  it("refuses a field registered twice", () => {
    assert.throws(
      () => holdOnBranch({ field: "test_setting", toChild: false, preserved: true }),
      /branch field test_setting is registered twice/,
    );
  });

  it("has every family that keeps data on a branch registered before the emulator starts", () => {
    const families = join(__dirname, "..", "..", "emulator", "families");
    const start = readFileSync(join(__dirname, "..", "..", "emulator", "start.ts"), "utf8");
    const holders = readdirSync(families)
      .filter((name) => name.endsWith(".ts") && name !== "branch-data.ts")
      .filter((name) => readFileSync(join(families, name), "utf8").includes("holdOnBranch("))
      .map((name) => name.replace(/\.ts$/, ""));
    assert.ok(holders.length >= 8, holders.join(", "));
    const missing = holders.filter((family) => !start.includes(`import "./families/${family}";`));
    assert.deepEqual(missing, [], "emulator/start.ts imports each family that registers branch data");
    for (const field of ["buckets", "functions", "auth", "backup_schedule", "anonymization"])
      assert.ok(heldFields().includes(field), field);
  });
});
