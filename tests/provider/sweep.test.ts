import assert from "node:assert/strict";
import type { Branch } from "../../provider/client";
import { STACK_MARKS } from "../../provider/resources/lifecycle/owner";
import { clearBelow, deleteOrder, findUnowned, markedBranches } from "../../provider/sweep/find";
import { parseSweepArgs, SweepUsageError } from "../../provider/sweep/options";
import { type HeldBranches, shownBackend, stateReader } from "../../provider/sweep/stacks";

// The rules of `clouddb sweep` over a listing and a backend, without the API or the CLI.

const NOW = Date.parse("2026-06-01T12:00:00Z");

function branch(id: string, fields: Partial<Branch> = {}): Branch {
  return {
    id,
    project_id: "p-1",
    name: id,
    default: false,
    created_at: "2026-05-30T12:00:00Z",
    updated_at: "2026-05-30T12:00:00Z",
    ...fields,
  } as Branch;
}

const mark = (stack: string, project = "shop"): Record<string, string> => ({
  [STACK_MARKS.project]: project,
  [STACK_MARKS.stack]: stack,
  [STACK_MARKS.createdAt]: "2026-05-30T12:00:00.000Z",
});

describe("clouddb sweep's rules", () => {
  it("considers only marked branches, never the default branch or a protected one", () => {
    const branches = [
      branch("br-marked"),
      branch("br-unmarked"),
      branch("br-default", { default: true }),
      branch("br-protected", { protected: true }),
    ];
    const annotations = new Map([
      ["br-marked", mark("pr-1")],
      ["br-default", mark("pr-1")],
      ["br-protected", mark("pr-1")],
      ["br-unmarked", { "pulumi-clouddb.create-key": "k" }],
    ]);
    assert.deepEqual(
      markedBranches(branches, annotations).map((m) => m.branch.id),
      ["br-marked"],
    );
  });

  it("finds a branch whose stack is gone, one its stack no longer holds, and an expired one, and keeps a held one", async () => {
    const branches = [
      branch("br-gone"),
      branch("br-dropped"),
      branch("br-held"),
      branch("br-expired", { expires_at: "2026-06-01T11:00:00Z" }),
    ];
    const annotations = new Map([
      ["br-gone", mark("pr-1")],
      ["br-dropped", mark("pr-2")],
      ["br-held", mark("pr-2")],
      ["br-expired", mark("pr-2")],
    ]);
    const stacks = [
      { name: "organization/shop/pr-2", project: "shop", stack: "pr-2" },
      { name: "organization/other/pr-1", project: "other", stack: "pr-1" },
    ];
    const found = await findUnowned(markedBranches(branches, annotations), NOW, stacks, async () => ({
      ids: new Set(["br-held", "br-expired"]),
      unsettled: false,
    })).all;
    assert.deepEqual(
      found.map((f) => [f.branch.id, f.reason]),
      [
        ["br-gone", "stack-gone"],
        ["br-dropped", "not-held"],
        ["br-expired", "expired"],
      ],
    );
  });

  it("keeps the branches of a stack cut off with an operation pending on a Branch", async () => {
    const marked = markedBranches([branch("br-1")], new Map([["br-1", mark("pr-3")]]));
    const stacks = [{ name: "pr-3", project: undefined, stack: "pr-3" }];
    const held = async () => ({ ids: new Set<string>(), unsettled: true });
    assert.deepEqual(await findUnowned(marked, NOW, stacks, held).all, []);
  });

  it("finds what the marks and the stack list decide before any state is read, and names the branches that wait", async () => {
    const branches = [
      branch("br-gone"),
      branch("br-live"),
      branch("br-expired", { expires_at: "2026-06-01T11:00:00Z" }),
    ];
    const annotations = new Map([
      ["br-gone", mark("pr-1")],
      ["br-live", mark("pr-2")],
      ["br-expired", mark("pr-2")],
    ]);
    const stacks = [{ name: "organization/shop/pr-2", project: "shop", stack: "pr-2" }];
    let release: (state: HeldBranches) => void = () => undefined;
    const reads: string[] = [];
    const judgement = findUnowned(markedBranches(branches, annotations), NOW, stacks, (name) => {
      reads.push(name);
      return new Promise((resolve) => {
        release = resolve;
      });
    });
    assert.deepEqual(
      judgement.atOnce.map((f) => [f.branch.id, f.reason]),
      [
        ["br-gone", "stack-gone"],
        ["br-expired", "expired"],
      ],
    );
    assert.deepEqual([...judgement.undecided], ["br-live"]);
    assert.deepEqual(reads, ["organization/shop/pr-2"]);
    release({ ids: new Set(), unsettled: false });
    assert.deepEqual(
      (await judgement.all).map((f) => [f.branch.id, f.reason]),
      [
        ["br-gone", "stack-gone"],
        ["br-live", "not-held"],
        ["br-expired", "expired"],
      ],
    );
  });

  it("deletes early only a found branch with no branch still to judge below it", () => {
    const all = [
      branch("br-root"),
      branch("br-parent", { parent_id: "br-root" }),
      branch("br-child", { parent_id: "br-parent" }),
      branch("br-alone", { parent_id: "br-root" }),
    ];
    const found = [{ branch: all[1] as Branch }, { branch: all[3] as Branch }];
    assert.deepEqual(
      clearBelow(found, ["br-child"], all).map((f) => f.branch.id),
      ["br-alone"],
    );
    assert.deepEqual(
      clearBelow(found, [], all).map((f) => f.branch.id),
      ["br-parent", "br-alone"],
    );
  });

  it("reads each stack's state once, and at most as many at a time as it is given", async () => {
    const started: string[] = [];
    const ends = new Map<string, () => void>();
    const read = stateReader(
      (name) =>
        new Promise<HeldBranches>((resolve) => {
          started.push(name);
          ends.set(name, () => resolve({ ids: new Set([name]), unsettled: false }));
        }),
      2,
    );
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    const answers = ["a", "b", "a", "c", "d"].map(read);
    await tick();
    assert.deepEqual(started, ["a", "b"]);
    ends.get("a")?.();
    await tick();
    assert.deepEqual(started, ["a", "b", "c"]);
    ends.get("b")?.();
    ends.get("c")?.();
    await tick();
    assert.deepEqual(started, ["a", "b", "c", "d"]);
    ends.get("d")?.();
    assert.deepEqual(
      (await Promise.all(answers)).map((state) => [...state.ids]),
      [["a"], ["b"], ["a"], ["c"], ["d"]],
    );
  });

  it("deletes a child branch before its parent", () => {
    const all = [
      branch("br-root"),
      branch("br-a", { parent_id: "br-root" }),
      branch("br-b", { parent_id: "br-a" }),
    ];
    const order = deleteOrder(
      [{ branch: all[1] as Branch }, { branch: all[2] as Branch }, { branch: all[0] as Branch }],
      all,
    );
    assert.deepEqual(
      order.map((f) => f.branch.id),
      ["br-b", "br-a", "br-root"],
    );
  });

  it("takes a dry run by default and refuses a command line it cannot run, saying what to give", () => {
    assert.deepEqual(parseSweepArgs(["sweep", "--project", "p-1", "--backend=file:///tmp/b"]), {
      projectId: "p-1",
      backend: "file:///tmp/b",
      delete: false,
      report: undefined,
    });
    assert.equal(parseSweepArgs(["sweep", "--project", "p", "--backend", "b", "--delete"]).delete, true);
    assert.throws(() => parseSweepArgs(["sweep", "--backend", "b"]), /--project is required/);
    assert.throws(() => parseSweepArgs(["sweep", "--project", "p"]), /--backend is required/);
    assert.throws(() => parseSweepArgs(["prune"]), SweepUsageError);
    assert.throws(() => parseSweepArgs(["sweep", "--project"]), /--project needs a value/);
  });

  it("never shows the credentials a backend URL carries", () => {
    assert.equal(shownBackend("https://user:secret@state.example.com/x"), "https://state.example.com/x");
    assert.equal(shownBackend("file:///tmp/state?metadata=skip"), "file:///tmp/state?metadata=skip");
  });
});
