import assert from "node:assert/strict";
import { ENDPOINT_CHANGES, endpointDefinition, pooledHostOf } from "../../provider/resources/endpoint";
import type { PartialFailure } from "../../provider/resources/errors";
import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import {
  type EndpointInputs,
  type EndpointOutputs,
  endpointProvider,
} from "../../provider/resources/public/endpoint";
import type { FakeApi } from "../client/support/fakeApi";
import { endpoint, operation } from "../client/support/fixtures";
import { PROVIDER_TEXT, useFakeApi } from "./support";

// Endpoint against a local fake of the API: the request bodies, the change table row by row, a
// compute whose start was cancelled, refresh and delete of a compute that is gone, and the messages
// of bad sizes.

const P = "hidden-river-50598307";
const B = "br-damp-glitter-adqd4hk5";
const EP = "ep-silent-smoke-806639";
const HOST = `${EP}.us-east-2.aws.neon.tech`;

function inputs(values: Partial<EndpointInputs> = {}): EndpointInputs {
  return { projectId: P, branchId: B, ...values, __provider: PROVIDER_TEXT } as EndpointInputs;
}

function state(values: Partial<EndpointOutputs> = {}): EndpointOutputs {
  return {
    ...inputs(),
    endpointId: EP,
    type: "read_write",
    autoscalingLimitMinCu: 0.25,
    autoscalingLimitMaxCu: 1,
    suspendTimeoutSeconds: 0,
    poolerEnabled: false,
    host: HOST,
    pooledHost: pooledHostOf(HOST),
    currentState: "idle",
    regionId: "aws-us-east-2",
    createdAt: null,
    operationIds: [],
    pendingOperationIds: [],
    ...values,
  } as EndpointOutputs;
}

const apiEndpoint = (overrides: Record<string, unknown> = {}) =>
  endpoint({
    autoscaling_limit_min_cu: 0.25,
    autoscaling_limit_max_cu: 1,
    suspend_timeout_seconds: 0,
    pooler_enabled: false,
    current_state: "active",
    ...overrides,
  });

describe("Endpoint provider against a fake API", () => {
  const fake = useFakeApi();
  let api: FakeApi;
  beforeEach(() => {
    api = fake.api;
    api.route("GET", "/projects/:project_id/endpoints/:endpoint_id", { json: { endpoint: apiEndpoint() } });
  });

  it("creates a read_write compute by default with the given settings, waits for start_compute, and reads it again", async () => {
    const op = operation({ project_id: P, action: "start_compute" });
    api.route("POST", "/projects/:project_id/endpoints", {
      status: 201,
      json: { endpoint: apiEndpoint({ current_state: "init" }), operations: [op] },
    });
    const made = await endpointProvider.create(inputs({ autoscalingLimitMaxCu: 1, poolerEnabled: false }));
    assert.equal(made.id, EP);
    assert.deepEqual(api.requests[0]?.body, {
      endpoint: { branch_id: B, type: "read_write", autoscaling_limit_max_cu: 1, pooler_enabled: false },
    });
    assert.deepEqual(api.log(), [
      `POST /projects/${P}/endpoints`,
      `GET /projects/${P}/operations/${op.id}`,
      `GET /projects/${P}/endpoints/${EP}`,
    ]);
    assert.deepEqual(
      [made.outs?.host, made.outs?.pooledHost, made.outs?.currentState],
      [HOST, `${EP}-pooler.us-east-2.aws.neon.tech`, "active"],
    );
  });

  it("records a compute whose start_compute was cancelled, and the next update accepts it: computes start on demand", async () => {
    const op = operation({ project_id: P, action: "start_compute" });
    api.route("POST", "/projects/:project_id/endpoints", {
      status: 201,
      json: { endpoint: apiEndpoint(), operations: [op] },
    });
    api.route("GET", "/projects/:project_id/operations/:operation_id", {
      json: { operation: { ...op, status: "cancelled" } },
    });
    const err = (await endpointProvider.create(inputs()).then(
      () => assert.fail("expected a partial failure"),
      (e: PartialFailure) => e,
    )) as PartialFailure;
    assert.equal(err.id, EP);
    assert.deepEqual(err.properties.pendingOperationIds, [op.id]);
    const updated = await endpointProvider.update!(
      EP,
      err.properties as unknown as EndpointOutputs,
      inputs(),
    );
    assert.deepEqual(updated.outs?.pendingOperationIds, []);
  });

  it("replaces on a change of project, branch or type and updates sizes, timeout and pooler in place, one row each", async () => {
    const olds = state();
    const cases: Record<keyof typeof ENDPOINT_CHANGES, Partial<EndpointInputs>> = {
      projectId: { projectId: "winter-boat-25988145" },
      branchId: { branchId: "br-other-00000000" },
      type: { type: "read_only" },
      autoscalingLimitMinCu: { autoscalingLimitMinCu: 0.5 },
      autoscalingLimitMaxCu: { autoscalingLimitMaxCu: 2 },
      suspendTimeoutSeconds: { suspendTimeoutSeconds: 300 },
      poolerEnabled: { poolerEnabled: true },
      deleteProtection: { deleteProtection: true },
      timeouts: { timeouts: { update: 60 } },
      adoptExisting: { adoptExisting: "ep-other-00000000" },
    };
    for (const [input, change] of Object.entries(ENDPOINT_CHANGES)) {
      const result = await endpointProvider.diff!(
        EP,
        olds,
        inputs(cases[input as keyof typeof ENDPOINT_CHANGES]),
      );
      assert.deepEqual(result.replaces, change === "replace" ? [input] : [], input);
      assert.equal(result.changes, change !== "ignore", input);
    }
    const reader = await endpointProvider.diff!(EP, olds, inputs({ type: "read_only" }));
    assert.equal(
      reader.deleteBeforeReplace,
      false,
      "a read_only replacement is created before the old compute goes",
    );
    const moved = await endpointProvider.diff!(EP, olds, inputs({ branchId: "br-other-00000000" }));
    assert.equal(
      moved.deleteBeforeReplace,
      false,
      "another branch may have its own read_write compute first",
    );
    assert.equal(
      endpointDefinition.deleteBeforeReplace?.(olds, inputs()),
      true,
      "a forced replacement of a branch's read_write compute deletes the old one first",
    );
    const unchanged = await endpointProvider.diff!(EP, olds, inputs());
    assert.equal(unchanged.changes, false, "settings left out keep what the compute has");
    assert.deepEqual(api.log(), [], "diff made no API call");
  });

  it("sends one PATCH with only the settings that changed, waits for its operations, and reads the compute again", async () => {
    const ops = [
      operation({ project_id: P, action: "apply_config" }),
      operation({ project_id: P, action: "suspend_compute" }),
    ];
    api.route("PATCH", "/projects/:project_id/endpoints/:endpoint_id", {
      json: { endpoint: apiEndpoint({ autoscaling_limit_max_cu: 2, pooler_enabled: true }), operations: ops },
    });
    api.route("GET", "/projects/:project_id/endpoints/:endpoint_id", {
      json: {
        endpoint: apiEndpoint({ autoscaling_limit_max_cu: 2, pooler_enabled: true, current_state: "idle" }),
      },
    });
    const news = inputs({ autoscalingLimitMinCu: 0.25, autoscalingLimitMaxCu: 2, poolerEnabled: true });
    const outs = (await endpointProvider.update!(EP, state(), news)).outs as EndpointOutputs;
    assert.deepEqual(api.requests[0]?.body, {
      endpoint: { autoscaling_limit_max_cu: 2, pooler_enabled: true },
    });
    assert.deepEqual(api.log(), [
      `PATCH /projects/${P}/endpoints/${EP}`,
      ...ops.map((op) => `GET /projects/${P}/operations/${op.id}`),
      `GET /projects/${P}/endpoints/${EP}`,
    ]);
    assert.deepEqual([outs.autoscalingLimitMaxCu, outs.poolerEnabled, outs.currentState], [2, true, "idle"]);
  });

  it("drops a compute deleted out of band on refresh, and counts deleting it as done (204)", async () => {
    api.route("GET", "/projects/:project_id/endpoints/:endpoint_id", {
      status: 404,
      json: { code: "", message: "endpoint not found" },
    });
    api.route("DELETE", "/projects/:project_id/endpoints/:endpoint_id", { status: 204 });
    assert.deepEqual(await endpointProvider.read!(EP, state()), { id: "" });
    await endpointProvider.delete!(EP, state());
    assert.deepEqual(api.log(), [
      `GET /projects/${P}/endpoints/${EP}`,
      `DELETE /projects/${P}/endpoints/${EP}`,
    ]);
  });

  describe("check", () => {
    const failures = async (values: Partial<EndpointInputs>) =>
      (await endpointProvider.check!({} as EndpointInputs, inputs(values))).failures;

    it("fails a minimum above the maximum, even while the branch is not known yet", async () => {
      assert.deepEqual(
        await failures({ branchId: UNKNOWN, autoscalingLimitMinCu: 2, autoscalingLimitMaxCu: 1 }),
        [
          {
            property: "autoscalingLimitMinCu",
            reason:
              "autoscalingLimitMinCu (2) is above autoscalingLimitMaxCu (1): lower autoscalingLimitMinCu or raise autoscalingLimitMaxCu to at least 2",
          },
        ],
      );
    });

    it("fails a size the service does not offer, suggesting the nearest one", async () => {
      assert.deepEqual(await failures({ autoscalingLimitMaxCu: 1.5 }), [
        {
          property: "autoscalingLimitMaxCu",
          reason:
            "autoscalingLimitMaxCu is 1.5 CU; compute sizes are 0.25, 0.5 or a whole number from 1 to 56: use 2",
        },
      ]);
      assert.match((await failures({ autoscalingLimitMinCu: 0.3 }))?.[0]?.reason ?? "", /use 0\.25$/);
      assert.match((await failures({ autoscalingLimitMaxCu: 64 }))?.[0]?.reason ?? "", /use 56$/);
    });

    it("fails an autoscaling range wider than 8 CU or ending above 16 CU, and accepts a fixed large size", async () => {
      assert.deepEqual(await failures({ autoscalingLimitMinCu: 0.25, autoscalingLimitMaxCu: 10 }), [
        {
          property: "autoscalingLimitMinCu",
          reason:
            "the autoscaling range 0.25-10 CU is 9.75 CU wide; it may be at most 8: raise autoscalingLimitMinCu to 2 or lower autoscalingLimitMaxCu to 8",
        },
      ]);
      assert.match(
        (await failures({ autoscalingLimitMinCu: 16, autoscalingLimitMaxCu: 20 }))?.[0]?.reason ?? "",
        /autoscaling goes up to 16 CU; lower autoscalingLimitMaxCu to 16, or set both to 20 for a fixed size/,
      );
      assert.equal(await failures({ autoscalingLimitMinCu: 32, autoscalingLimitMaxCu: 32 }), undefined);
    });

    it("fails a suspend timeout out of range and an unknown type, naming the allowed values", async () => {
      assert.deepEqual(await failures({ suspendTimeoutSeconds: 30 }), [
        {
          property: "suspendTimeoutSeconds",
          reason:
            "suspendTimeoutSeconds must be -1 (never suspend), 0 (the service's default) or a whole number of seconds from 60 to 604800 (one week); got 30",
        },
      ]);
      assert.deepEqual(await failures({ type: "primary" }), [
        { property: "type", reason: 'type must be one of read_only, read_write, not "primary"' },
      ]);
    });

    it("lets values not known yet through", async () => {
      assert.equal(
        await failures({
          projectId: UNKNOWN,
          branchId: UNKNOWN,
          autoscalingLimitMinCu: UNKNOWN as unknown as number,
          autoscalingLimitMaxCu: 1,
        }),
        undefined,
      );
    });
  });
});
