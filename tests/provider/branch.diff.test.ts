import assert from "node:assert/strict";
import sinon from "sinon";
import { branchDefinition } from "../../provider/resources/branch";

const DIFF_TABLE = branchDefinition.changes;

import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import type { BranchInputs, BranchOutputs } from "../../provider/resources/public/branch";
import { branchProvider } from "../../provider/resources/public/branch";
import { PROVIDER_TEXT, useEmulator } from "./support";

// One test per row of DIFF_TABLE, plus "undefined means no opinion". diff must never call the API.

const COMPUTE = { autoscalingLimitMinCu: 0.25, autoscalingLimitMaxCu: 0.25, suspendTimeoutSeconds: 0 };
const DAY_MS = 86_400_000;

const OLDS: BranchOutputs = {
  projectId: "hidden-river-50598307",
  branchId: "br-quiet-lake-a1b2c3d4",
  name: "preview",
  parentId: "br-damp-glitter-adqd4hk5",
  default: false,
  currentState: "ready",
  createdAt: "2025-11-20T10:00:00Z",
  // What the API reports for a branch that declared none of these: refresh records them.
  initSource: "parent-data",
  protected: false,
  expiresAt: null,
  endpoints: [
    { id: "ep-one-a1", type: "read_write", host: "ep-one-a1.example", currentState: "idle", ...COMPUTE },
    { id: "ep-two-b2", type: "read_only", host: "ep-two-b2.example", currentState: "idle", ...COMPUTE },
  ],
  endpointId: "ep-one-a1",
  host: "ep-one-a1.example",
  ...COMPUTE,
  roleName: "neondb_owner",
  databaseName: "neondb",
  connectionUri: "postgresql://neondb_owner:secret@ep-one-a1.example/neondb",
  pooledConnectionUri: "postgresql://neondb_owner:secret@ep-one-a1-pooler.example/neondb",
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
  // Computes are added and removed in place: the branch and its data stay.
  endpoints: {
    news: { ...same(), endpoints: [{ type: "read_write" }], name: "preview-smaller" },
    replaces: [],
    changes: true,
  },
  initSource: {
    news: { ...same(), initSource: "schema-only", name: "preview-schema" },
    replaces: ["initSource"],
    changes: true,
  },
  parentTimestamp: {
    news: { ...same(), parentTimestamp: "2025-11-20T09:00:00Z", name: "preview-earlier" },
    replaces: ["parentTimestamp"],
    changes: true,
  },
  parentLsn: {
    news: { ...same(), parentLsn: "0/1F0A3B8", name: "preview-at-lsn" },
    replaces: ["parentLsn"],
    changes: true,
  },
  name: { news: { ...same(), name: "preview-2" }, replaces: [], changes: true },
  protected: { news: { ...same(), protected: true }, replaces: [], changes: true },
  expiresAt: { news: { ...same(), expiresAt: "2025-11-27T10:00:00Z" }, replaces: [], changes: true },
  ttl: { news: { ...same(), ttl: "7d" }, replaces: [], changes: true },
  autoscalingLimitMinCu: { news: { ...same(), autoscalingLimitMinCu: 0.5 }, replaces: [], changes: true },
  autoscalingLimitMaxCu: { news: { ...same(), autoscalingLimitMaxCu: 2 }, replaces: [], changes: true },
  suspendTimeoutSeconds: { news: { ...same(), suspendTimeoutSeconds: 600 }, replaces: [], changes: true },
  resetTrigger: { news: { ...same(), resetTrigger: "2025-11-21" }, replaces: [], changes: true },
  // Rules and the trigger are an anonymized branch's; the diff is of the inputs alone.
  maskingRules: {
    news: {
      ...same(),
      maskingRules: [
        {
          databaseName: "neondb",
          tableName: "users",
          columnName: "email",
          maskingFunction: "anon.fake_email()",
        },
      ],
    },
    replaces: [],
    changes: true,
  },
  anonymizeTrigger: { news: { ...same(), anonymizeTrigger: "again" }, replaces: [], changes: true },
  restore: { news: { ...same(), restore: { snapshotId: "snap-one-a0000000" } }, replaces: [], changes: true },
  deleteProtection: { news: { ...same(), deleteProtection: true }, replaces: [], changes: true },
  timeouts: { news: { ...same(), timeouts: { create: 120 } }, replaces: [], changes: true },
  adoptExisting: {
    news: { ...same(), adoptExisting: "br-other-branch-00000000" },
    replaces: [],
    changes: false,
  },
  // Recorded in the annotation at create only: a later change has nothing to change.
  pullRequest: { news: { ...same(), pullRequest: "124" }, replaces: [], changes: false },
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
    for (const change of [{ parentId: "br-aged-salad-aw7dnb1u" }, { initSource: "schema-only" as const }]) {
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

  it("treats an undefined name, parentId, endpoints or compute setting as no opinion (the branch keeps what it has)", async () => {
    const computed = ["name", "parentId", "endpoints", ...Object.keys(COMPUTE)] as const;
    for (const key of computed as readonly (keyof BranchInputs)[]) {
      const news: BranchInputs = { ...same(), ...COMPUTE };
      delete news[key];
      assert.deepEqual(await diff(news), { changes: false, replaces: [], deleteBeforeReplace: false }, key);
    }
  });

  it("compares endpoints by type, in any order", async () => {
    const news = { ...same(), endpoints: [{ type: "read_write" as const }, { type: "read_only" as const }] };
    assert.equal((await diff(news)).changes, false);
    const more = { ...same(), endpoints: [...(news.endpoints ?? []), { type: "read_only" as const }] };
    assert.deepEqual(await diff(more), { changes: true, replaces: [], deleteBeforeReplace: false });
  });

  it("reports a change (no replace) while operations of an earlier run are pending, so update resumes them", async () => {
    const result = await diff(same(), { ...OLDS, pendingOperationIds: ["op-2"] });
    assert.deepEqual(result, { changes: true, replaces: [], deleteBeforeReplace: false });
  });

  it("replaces when a replacing input is not known yet during preview", async () => {
    for (const key of ["projectId", "parentId"] as const) {
      const result = await diff({ ...same(), [key]: UNKNOWN } as BranchInputs);
      assert.deepEqual(result.replaces, [key], key);
    }
  });
  it("renames in place: a new name alone is an update, never a replace", async () => {
    assert.deepEqual(await diff({ ...same(), name: "renamed" }), {
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("reads an undeclared protected as false and an undeclared initSource as parent-data", async () => {
    assert.equal((await diff({ ...same(), protected: false, initSource: "parent-data" })).changes, false);
    const prot = { ...OLDS, protected: true };
    assert.equal((await diff(same(), prot)).changes, true, "declaring nothing unprotects a protected branch");
  });

  describe("expiry", () => {
    const T0 = Date.parse("2025-11-20T10:00:00Z");
    const withTtl = { ...OLDS, ttl: "7d", expiresAt: "2025-11-27T10:00:00Z" } as BranchOutputs;

    it("keeps a ttl's expiry: the same program asks for no change on later days", async () => {
      const clock = sinon.useFakeTimers({ now: T0, toFake: ["Date"] });
      for (const days of [0, 1, 3, 6]) {
        clock.setSystemTime(T0 + days * DAY_MS);
        assert.deepEqual(
          await diff({ ...same(), ttl: "7d" }, withTtl),
          { changes: false, replaces: [], deleteBeforeReplace: false },
          `day ${days}`,
        );
      }
    });

    it("compares ttls by duration, so 7d, 168h and 604800 are the same", async () => {
      for (const ttl of ["168h", 604_800, "604800", "6d24h"]) {
        assert.equal((await diff({ ...same(), ttl }, withTtl)).changes, false, String(ttl));
      }
      assert.equal((await diff({ ...same(), ttl: "8d" }, withTtl)).changes, true);
    });

    it("updates in place when the ttl is dropped, so the expiry is removed", async () => {
      assert.deepEqual(await diff(same(), withTtl), {
        changes: true,
        replaces: [],
        deleteBeforeReplace: false,
      });
    });

    it("compares expiresAt by the second, whatever the format", async () => {
      const olds = { ...OLDS, expiresAt: "2025-11-27T10:00:00Z" } as BranchOutputs;
      for (const expiresAt of ["2025-11-27T10:00:00.000Z", "2025-11-27T11:00:00+01:00"]) {
        assert.equal((await diff({ ...same(), expiresAt }, olds)).changes, false, expiresAt);
      }
      assert.equal((await diff({ ...same(), expiresAt: "2025-11-27T10:00:01Z" }, olds)).changes, true);
      assert.equal((await diff(same(), olds)).changes, true, "dropping expiresAt removes the expiry");
    });

    it("switches from expiresAt to an equivalent ttl as an update, never a replace", async () => {
      const olds = { ...OLDS, expiresAt: "2025-11-27T10:00:00Z" } as BranchOutputs;
      const result = await diff({ ...same(), ttl: "7d" }, olds);
      assert.deepEqual(result, { changes: true, replaces: [], deleteBeforeReplace: false });
    });
  });
});
