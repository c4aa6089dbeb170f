import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import sinon from "sinon";
import { ttlSeconds, wantedExpiry } from "../../provider/resources/expiry";
import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import { type BranchInputs, branchProvider } from "../../provider/resources/public/branch";
import { type EndpointInputs, endpointProvider } from "../../provider/resources/public/endpoint";
import { useEmulator } from "./support";

// The branch's newer inputs at `check` (preview): each mistake names the property and what to
// change; and the ttl's conversion into one stable expiry.

const NOW = Date.parse("2025-11-20T10:00:00Z");
const DAY_MS = 86_400_000;

async function failures(news: Record<string, unknown>): Promise<pulumi.dynamic.CheckFailure[]> {
  const result = await branchProvider.check!(
    {} as BranchInputs,
    { projectId: "hidden-river-50598307", ...news } as unknown as BranchInputs,
  );
  return result.failures ?? [];
}

function only(list: pulumi.dynamic.CheckFailure[]): pulumi.dynamic.CheckFailure {
  assert.equal(list.length, 1, JSON.stringify(list));
  return list[0] as pulumi.dynamic.CheckFailure;
}

describe("Branch check: expiry, history point, compute, reset", () => {
  // Valid inputs of a planned create go on to the configuration check (tests/provider/preflight.test.ts).
  useEmulator();
  beforeEach(() => sinon.useFakeTimers({ now: NOW, toFake: ["Date"] }));
  afterEach(() => sinon.restore());

  it("accepts every new input together when they agree", async () => {
    assert.deepEqual(
      await failures({
        name: "preview-42",
        parentId: "br-damp-glitter-adqd4hk5",
        initSource: "parent-data",
        protected: true,
        ttl: "7d",
        parentTimestamp: "2025-11-20T09:00:00Z",
        endpoints: [{ type: "read_write" }],
        autoscalingLimitMinCu: 0.25,
        autoscalingLimitMaxCu: 2,
        suspendTimeoutSeconds: 300,
        resetTrigger: "monday",
      }),
      [],
    );
  });

  it("fails an expiresAt in the past at preview, saying to set a later time or use ttl", async () => {
    const failure = only(await failures({ expiresAt: "2025-11-19T10:00:00Z" }));
    assert.equal(failure.property, "expiresAt");
    assert.match(
      failure.reason,
      /expiresAt 2025-11-19T10:00:00Z is in the past \(now is 2025-11-20T10:00:00Z\)/,
    );
    assert.match(failure.reason, /set a later time, or use ttl \(e\.g\. ttl: "7d"\)/);
  });

  it("fails an expiresAt more than 30 days ahead, and one that is not a timestamp", async () => {
    const far = only(await failures({ expiresAt: new Date(NOW + 31 * DAY_MS).toISOString() }));
    assert.match(far.reason, /more than 30 days ahead.*set an earlier time/);
    const bad = only(await failures({ expiresAt: "next tuesday" }));
    assert.match(bad.reason, /RFC 3339 timestamp such as 2025-06-09T18:02:16Z, got "next tuesday"/);
  });

  it("accepts a ttl on any later day: it is not a point in time", async () => {
    sinon.restore();
    sinon.useFakeTimers({ now: NOW + 40 * DAY_MS, toFake: ["Date"] });
    assert.deepEqual(await failures({ ttl: "7d" }), []);
  });

  it("fails a ttl that is not a duration, is zero, or is over 30 days, saying what to give", async () => {
    assert.match(
      only(await failures({ ttl: "a week" })).reason,
      /ttl is a duration such as "7d".*got "a week"/,
    );
    assert.match(only(await failures({ ttl: 0 })).reason, /longer than zero/);
    assert.match(only(await failures({ ttl: "31d" })).reason, /more than 30 days.*shorten it/);
  });

  it("fails expiresAt together with ttl, saying to give one", async () => {
    const failure = only(await failures({ expiresAt: "2025-11-21T10:00:00Z", ttl: "1d" }));
    assert.equal(failure.property, "ttl");
    assert.match(failure.reason, /give either expiresAt or ttl, not both/);
  });

  it("fails parentTimestamp together with parentLsn, saying they pick the same thing", async () => {
    const failure = only(await failures({ parentTimestamp: "2025-11-20T09:00:00Z", parentLsn: "0/1F0A3B8" }));
    assert.equal(failure.property, "parentLsn");
    assert.match(failure.reason, /give either parentTimestamp or parentLsn, not both: both pick the point/);
  });

  it("fails a parentLsn that is not an LSN and a parentTimestamp in the future", async () => {
    assert.match(only(await failures({ parentLsn: "12345" })).reason, /LSN such as 0\/1F0A3B8/);
    const future = only(await failures({ parentTimestamp: "2025-11-21T10:00:00Z" }));
    assert.match(future.reason, /in the future: give a point in the parent's past/);
  });

  it("fails an initSource the API does not know, listing the ones it does", async () => {
    const failure = only(await failures({ initSource: "data-only" }));
    assert.equal(failure.property, "initSource");
    assert.match(failure.reason, /parent-data, schema-only/);
  });

  it("fails an autoscaling minimum above the maximum, saying which to move", async () => {
    const failure = only(
      await failures({
        endpoints: [{ type: "read_write" }],
        autoscalingLimitMinCu: 4,
        autoscalingLimitMaxCu: 2,
      }),
    );
    assert.equal(failure.property, "autoscalingLimitMinCu");
    assert.match(
      failure.reason,
      /autoscalingLimitMinCu \(4\) is above autoscalingLimitMaxCu \(2\): lower autoscalingLimitMinCu or raise autoscalingLimitMaxCu to at least 4/,
    );
  });

  it("fails a compute size under 0.25 CU and a suspend timeout the API refuses", async () => {
    const endpoints = [{ type: "read_write" }];
    assert.match(
      only(await failures({ endpoints, autoscalingLimitMaxCu: 0.1 })).reason,
      /0\.1 CU.*: use 0\.25$/,
    );
    assert.match(
      only(await failures({ endpoints, suspendTimeoutSeconds: 30 })).reason,
      /-1 \(never suspend\), 0/,
    );
  });

  // An Endpoint and the API refuse each of these; a Branch's computes are endpoints, so its check
  // refuses them too, before anything is sent.
  for (const [min, max, properties, reasons] of [
    [
      0.3,
      0.3,
      ["autoscalingLimitMinCu", "autoscalingLimitMaxCu"],
      [
        "autoscalingLimitMinCu is 0.3 CU; compute sizes are 0.25, 0.5 or a whole number from 1 to 56: use 0.25",
        "autoscalingLimitMaxCu is 0.3 CU; compute sizes are 0.25, 0.5 or a whole number from 1 to 56: use 0.25",
      ],
    ],
    [
      1,
      20,
      ["autoscalingLimitMaxCu"],
      [
        "autoscalingLimitMaxCu is 20 CU with autoscalingLimitMinCu 1: autoscaling goes up to 16 CU; lower autoscalingLimitMaxCu to 16, or set both to 20 for a fixed size",
      ],
    ],
    [
      1,
      12,
      ["autoscalingLimitMinCu"],
      [
        "the autoscaling range 1-12 CU is 11 CU wide; it may be at most 8: raise autoscalingLimitMinCu to 4 or lower autoscalingLimitMaxCu to 9",
      ],
    ],
  ] as const) {
    it(`fails ${min}/${max} CU at check, as an Endpoint does, naming the input to change`, async () => {
      const settings = { autoscalingLimitMinCu: min, autoscalingLimitMaxCu: max };
      const branch = await failures({ endpoints: [{ type: "read_write" }], ...settings });
      assert.deepEqual(
        branch.map((failure) => failure.reason),
        reasons,
      );
      assert.deepEqual(
        branch.map((failure) => failure.property),
        properties,
      );
      const endpoint = await endpointProvider.check!(
        {} as EndpointInputs,
        {
          projectId: "hidden-river-50598307",
          branchId: "br-damp-glitter-adqd4hk5",
          ...settings,
        } as EndpointInputs,
      );
      assert.deepEqual(branch, endpoint.failures, "the same rules as an Endpoint's");
    });
  }

  it("fails compute settings on a branch without endpoints, saying to add one", async () => {
    const failure = only(await failures({ autoscalingLimitMaxCu: 2 }));
    assert.equal(failure.property, "autoscalingLimitMaxCu");
    assert.match(failure.reason, /the branch has none: add endpoints: \[\{ type: "read_write" \}\]/);
    assert.deepEqual(await failures({ endpoints: [{ type: "read_only" }], autoscalingLimitMaxCu: 2 }), []);
  });

  it("fails a resetTrigger on a schema-only branch, which has no parent to reset from", async () => {
    const failure = only(await failures({ initSource: "schema-only", resetTrigger: "1" }));
    assert.equal(failure.property, "resetTrigger");
    assert.match(failure.reason, /no parent to reset from: remove resetTrigger/);
  });

  it("takes a number for pullRequest and a trigger as its text (Pulumi YAML passes config numbers as numbers), and refuses what is neither", async () => {
    const result = await branchProvider.check!(
      {} as BranchInputs,
      { projectId: "hidden-river-50598307", pullRequest: 42, resetTrigger: 7 } as unknown as BranchInputs,
    );
    assert.deepEqual(result.failures ?? [], []);
    const taken = result.inputs as BranchInputs;
    assert.deepEqual([taken.pullRequest, taken.resetTrigger], ["42", "7"]);
    const failure = only(await failures({ pullRequest: true }));
    assert.equal(failure.property, "pullRequest");
    assert.match(failure.reason, /must be a non-empty string or a number/);
  });

  it("lets expiry, history and compute values not known yet (preview) through", async () => {
    assert.deepEqual(
      await failures({
        endpoints: [{ type: "read_write" }],
        expiresAt: UNKNOWN,
        parentTimestamp: UNKNOWN,
        autoscalingLimitMinCu: UNKNOWN,
        autoscalingLimitMaxCu: 2,
      }),
      [],
    );
  });
});

describe("ttl and expiry", () => {
  it("reads durations in seconds, minutes, hours, days, weeks and combinations", () => {
    assert.deepEqual(["90s", "30m", "12h", "7d", "1w", "1d12h", "3600", 3600, "7 days"].map(ttlSeconds), [
      90,
      1800,
      43_200,
      604_800,
      604_800,
      129_600,
      3600,
      3600,
      undefined,
    ]);
  });

  it("turns a ttl into an expiry once, at second precision, and keeps it while the ttl stands", () => {
    const first = wantedExpiry({ ttl: "7d" }, undefined, NOW + 123);
    assert.equal(first, "2025-11-27T10:00:00Z");
    const recorded = { ttl: "7d", expiresAt: first };
    assert.equal(
      wantedExpiry({ ttl: "168h" }, recorded, NOW + 3 * DAY_MS),
      first,
      "three days later: unchanged",
    );
    assert.equal(
      wantedExpiry({ ttl: "8d" }, recorded, NOW + 3 * DAY_MS),
      "2025-12-01T10:00:00Z",
      "a new ttl counts from now",
    );
    assert.equal(wantedExpiry({}, recorded, NOW), null, "no ttl, no expiry");
    assert.equal(
      wantedExpiry({ expiresAt: "2025-11-22T11:00:00.900+01:00" }, recorded, NOW),
      "2025-11-22T10:00:00Z",
    );
  });
});
