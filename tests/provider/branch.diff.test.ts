import assert from "node:assert/strict";
import sinon from "sinon";
import type { BranchInputs, BranchOutputs } from "../../provider/resources/branch";
import { branchProvider, BRANCH_CHANGES as DIFF_TABLE } from "../../provider/resources/branch";
import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import { PROVIDER_TEXT, useEmulator } from "./support";

// One test per row of DIFF_TABLE, plus "undefined means no opinion". diff must never call the API.

const OLDS: BranchOutputs = {
  projectId: "hidden-river-50598307",
  branchId: "br-quiet-lake-a1b2c3d4",
  name: "preview",
  parentId: "br-damp-glitter-adqd4hk5",
  default: false,
  currentState: "ready",
  createdAt: "2025-11-20T10:00:00Z",
  endpoints: [
    { id: "ep-one-a1", type: "read_write", host: "ep-one-a1.example", currentState: "idle" },
    { id: "ep-two-b2", type: "read_only", host: "ep-two-b2.example", currentState: "idle" },
  ],
  operationIds: ["op-1"],
  pendingOperationIds: [],
  deleteProtection: false,
  timeouts: { create: 60 },
  __provider: "old provider text",
} as BranchOutputs;

/** The inputs that match OLDS exactly, as the engine passes them. */
function same(): BranchInputs {
  return {
    projectId: OLDS.projectId,
    name: OLDS.name,
    parentId: OLDS.parentId as string,
    endpoints: [{ type: "read_only" }, { type: "read_write" }],
    deleteProtection: false,
    timeouts: { create: 60 },
    __provider: PROVIDER_TEXT,
  } as BranchInputs;
}

/** For each row: a change of that input, and what diff must answer. */
const ROW_CASES: Record<
  keyof typeof DIFF_TABLE,
  { news: BranchInputs; replaces: string[]; changes: boolean }
> = {
  // Another project: the name cannot collide, so the new branch is created first.
  projectId: {
    news: { ...same(), projectId: "winter-boat-25988145" },
    replaces: ["projectId"],
    changes: true,
  },
  // A new name next to a replacing change: no collision either.
  parentId: {
    news: { ...same(), parentId: "br-aged-salad-aw7dnb1u", name: "preview-moved" },
    replaces: ["parentId"],
    changes: true,
  },
  endpoints: {
    news: { ...same(), endpoints: [{ type: "read_write" }], name: "preview-smaller" },
    replaces: ["endpoints"],
    changes: true,
  },
  name: { news: { ...same(), name: "preview-2" }, replaces: [], changes: true },
  deleteProtection: { news: { ...same(), deleteProtection: true }, replaces: [], changes: true },
  timeouts: { news: { ...same(), timeouts: { create: 120 } }, replaces: [], changes: true },
  adoptExisting: {
    news: { ...same(), adoptExisting: "br-other-branch-00000000" },
    replaces: [],
    changes: false,
  },
};

describe("Branch diff (DIFF_TABLE)", () => {
  const harness = useEmulator();
  beforeEach(() => harness.emulator.control.clearRequests());
  afterEach(() => {
    sinon.restore();
    assert.deepEqual(harness.log(), [], "diff made no API call");
  });

  const diff = (news: BranchInputs, olds: BranchOutputs = OLDS) =>
    branchProvider.diff!(OLDS.branchId, olds, news);

  it("has a test case for every row of the table", () => {
    assert.deepEqual(Object.keys(ROW_CASES).sort(), Object.keys(DIFF_TABLE).sort());
  });

  it("reports no change for the same inputs, whatever the serialized provider", async () => {
    assert.deepEqual(await diff(same()), { changes: false, replaces: [], deleteBeforeReplace: false });
  });

  for (const [input, mode] of Object.entries(DIFF_TABLE)) {
    const expected = ROW_CASES[input as keyof typeof DIFF_TABLE];
    it(`${mode === "ignore" ? "ignores" : `${mode}s on`} a change of ${input} (${mode})`, async () => {
      const result = await diff(expected.news);
      assert.deepEqual(result.replaces, expected.replaces);
      assert.equal(result.changes, expected.changes);
      assert.equal(result.deleteBeforeReplace, false, "create-before-delete");
      if (mode === "replace") assert.deepEqual(result.replaces, [input]);
    });
  }

  it("deletes first when a replacement keeps its name in the same project (names are unique per project)", async () => {
    for (const change of [
      { parentId: "br-aged-salad-aw7dnb1u" },
      { endpoints: [{ type: "read_write" as const }] },
    ]) {
      const result = await diff({ ...same(), ...change });
      assert.equal(result.deleteBeforeReplace, true, JSON.stringify(change));
      assert.equal(result.replaces?.length, 1);
    }
  });

  it("creates first when a replacement leaves the name to the API (a generated name cannot collide)", async () => {
    const news = { ...same(), parentId: "br-aged-salad-aw7dnb1u" };
    delete news.name;
    const result = await diff(news);
    assert.deepEqual([result.replaces, result.deleteBeforeReplace], [["parentId"], false]);
  });

  it("never asks for delete-first without a replacement", async () => {
    assert.equal((await diff({ ...same(), deleteProtection: true })).deleteBeforeReplace, false);
  });

  it("treats an undefined name, parentId or endpoints as no opinion (the branch keeps what it has)", async () => {
    for (const key of ["name", "parentId", "endpoints"] as const) {
      const news = same();
      delete news[key];
      assert.deepEqual(await diff(news), { changes: false, replaces: [], deleteBeforeReplace: false }, key);
    }
  });

  it("compares endpoints by type, in any order", async () => {
    const news = { ...same(), endpoints: [{ type: "read_write" as const }, { type: "read_only" as const }] };
    assert.equal((await diff(news)).changes, false);
    const more = { ...same(), endpoints: [...(news.endpoints ?? []), { type: "read_only" as const }] };
    assert.deepEqual((await diff(more)).replaces, ["endpoints"]);
  });

  it("reports a change (no replace) while operations of an earlier run are pending, so update resumes them", async () => {
    const result = await diff(same(), { ...OLDS, pendingOperationIds: ["op-2"] });
    assert.deepEqual(result, { changes: true, replaces: [], deleteBeforeReplace: false });
  });

  it("replaces when a replacing input is not known yet during preview", async () => {
    for (const key of ["projectId", "parentId", "endpoints"] as const) {
      const result = await diff({ ...same(), [key]: UNKNOWN } as BranchInputs);
      assert.deepEqual(result.replaces, [key], key);
    }
  });
});
