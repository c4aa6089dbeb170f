import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { createClient } from "../../provider/client";
import { endpointDefinition } from "../../provider/resources/endpoint";
import type { PartialFailure } from "../../provider/resources/errors";
import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import {
  type EndpointInputs,
  type EndpointOutputs,
  endpointProvider,
} from "../../provider/resources/public/endpoint";
import { PROVIDER_TEXT, projectIdle, useEmulator } from "./support";

// Endpoint against the emulator (objects.test.ts covers sizes, hosts and refresh of a compute that is
// gone): the default type, a compute whose start was cancelled, the change table row by row, the
// request budget of an update, and the messages of bad sizes.

const P = DEMO.projectId;

function inputs(values: Partial<EndpointInputs> = {}): EndpointInputs {
  return { projectId: P, ...values, __provider: PROVIDER_TEXT } as EndpointInputs;
}

describe("Endpoint provider against the emulator", () => {
  const harness = useEmulator();
  const control = () => harness.emulator.control;
  const stored = (id: string) =>
    control()
      .dumpState()
      .endpoints.find((e) => e.id === id);
  beforeEach(() => {
    control().clearRequests();
    control().clearOperationScripts();
  });

  /** A branch of the demo project with no compute yet. */
  async function bareBranch(name: string): Promise<string> {
    const api = createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });
    const made = await api.createBranch(P, { branch: { name, parent_id: DEMO.branchId } });
    await projectIdle(harness.emulator, P);
    control().clearRequests();
    return made.branch.id;
  }

  it("creates a read_write compute by default with the given settings, and waits for start_compute", async () => {
    const branchId = await bareBranch("endpoint-default");
    const made = await endpointProvider.create(
      inputs({ branchId, autoscalingLimitMaxCu: 1, poolerEnabled: false }),
    );
    const live = stored(made.id);
    assert.deepEqual(
      [live?.branch_id, live?.type, live?.compute?.autoscaling_limit_max_cu, live?.pooler_enabled ?? false],
      [branchId, "read_write", 1, false],
    );
    const outs = made.outs as EndpointOutputs;
    assert.deepEqual([outs.type, outs.currentState], ["read_write", "active"]);
    const ops = control()
      .dumpState()
      .operations.filter((op) => outs.operationIds.includes(op.id));
    assert.deepEqual(
      ops.map((op) => [op.action, op.status]),
      [["start_compute", "finished"]],
    );
    assert.deepEqual(harness.writes(), [`POST /projects/${P}/endpoints`]);
  });

  it("records a compute whose start_compute was cancelled, and the next update accepts it: computes start on demand", async () => {
    const branchId = await bareBranch("endpoint-cancelled");
    control().scriptOperations({ action: "start_compute", count: 1 }, { kind: "cancelled" });
    const err = (await endpointProvider.create(inputs({ branchId })).then(
      () => assert.fail("expected a partial failure"),
      (e: PartialFailure) => e,
    )) as PartialFailure;
    assert.notEqual(stored(err.id), undefined, "the service made the compute");
    const cancelled = control()
      .dumpState()
      .operations.filter((op) => op.endpoint_id === err.id && op.status === "cancelled");
    assert.deepEqual(
      err.properties.pendingOperationIds,
      cancelled.map((op) => op.id),
    );
    const updated = await endpointProvider.update!(
      err.id,
      err.properties as unknown as EndpointOutputs,
      inputs({ branchId }),
    );
    assert.deepEqual(updated.outs?.pendingOperationIds, []);
  });

  it("replaces on a change of project, branch or type and updates sizes, timeout and pooler in place, one row each", async () => {
    const branchId = "br-damp-glitter-adqd4hk5";
    const olds = {
      ...inputs({ branchId }),
      endpointId: DEMO.endpointId,
      type: "read_write",
      autoscalingLimitMinCu: 0.25,
      autoscalingLimitMaxCu: 1,
      suspendTimeoutSeconds: 0,
      poolerEnabled: false,
      host: `${DEMO.endpointId}.example`,
      pooledHost: `${DEMO.endpointId}-pooler.example`,
      currentState: "idle",
      regionId: "aws-us-east-2",
      createdAt: null,
      operationIds: [],
      pendingOperationIds: [],
    } as EndpointOutputs;
    const at = (values: Partial<EndpointInputs>) => inputs({ branchId, ...values });
    const cases: Record<keyof typeof endpointDefinition.changes, Partial<EndpointInputs>> = {
      projectId: { projectId: DEMO.orgProjectId },
      branchId: { branchId: "br-other-00000000" },
      type: { type: "read_only" },
      autoscalingLimitMinCu: { autoscalingLimitMinCu: 0.5 },
      autoscalingLimitMaxCu: { autoscalingLimitMaxCu: 2 },
      suspendTimeoutSeconds: { suspendTimeoutSeconds: 300 },
      poolerEnabled: { poolerEnabled: true },
      disabled: { disabled: true },
      poolerMode: { poolerMode: "transaction" },
      name: { name: "reporting" },
      pgSettings: { pgSettings: { work_mem: "64MB" } },
      deleteProtection: { deleteProtection: true },
      timeouts: { timeouts: { update: 60 } },
      adoptExisting: { adoptExisting: "ep-other-00000000" },
    };
    for (const [input, change] of Object.entries(endpointDefinition.changes)) {
      const result = await endpointProvider.diff!(
        DEMO.endpointId,
        olds,
        at(cases[input as keyof typeof endpointDefinition.changes]),
      );
      assert.deepEqual(result.replaces, change === "replace" ? [input] : [], input);
      assert.equal(result.changes, change !== "ignore", input);
    }
    const reader = await endpointProvider.diff!(DEMO.endpointId, olds, at({ type: "read_only" }));
    assert.equal(
      reader.deleteBeforeReplace,
      false,
      "a read_only replacement is created before the old compute goes",
    );
    const moved = await endpointProvider.diff!(DEMO.endpointId, olds, at({ branchId: "br-other-00000000" }));
    assert.equal(
      moved.deleteBeforeReplace,
      false,
      "another branch may have its own read_write compute first",
    );
    assert.equal(
      endpointDefinition.deleteBeforeReplace?.(olds, at({})),
      true,
      "a forced replacement of a branch's read_write compute deletes the old one first",
    );
    const unchanged = await endpointProvider.diff!(DEMO.endpointId, olds, at({}));
    assert.equal(unchanged.changes, false, "settings left out keep what the compute has");
    assert.deepEqual(harness.log(), [], "diff made no API call");
  });

  it("sends one PATCH with only the settings that changed, waits for its operations, and reads the compute again", async () => {
    const branchId = await bareBranch("endpoint-patch");
    const olds = (
      await endpointProvider.create(
        inputs({ branchId, autoscalingLimitMinCu: 0.25, autoscalingLimitMaxCu: 1 }),
      )
    ).outs as EndpointOutputs;
    const timeout = stored(olds.endpointId)?.compute?.suspend_timeout_seconds;
    control().clearRequests();
    const news = inputs({
      branchId,
      autoscalingLimitMinCu: 0.25,
      autoscalingLimitMaxCu: 2,
      poolerEnabled: true,
    });
    const outs = (await endpointProvider.update!(olds.endpointId, olds, news)).outs as EndpointOutputs;
    assert.deepEqual(harness.writes(), [`PATCH /projects/${P}/endpoints/${olds.endpointId}`]);
    const live = stored(olds.endpointId);
    assert.deepEqual(
      [
        live?.compute?.autoscaling_limit_min_cu,
        live?.compute?.autoscaling_limit_max_cu,
        live?.pooler_enabled,
      ],
      [0.25, 2, true],
    );
    assert.equal(live?.compute?.suspend_timeout_seconds, timeout, "a setting not changed is left as it was");
    for (const op of control()
      .dumpState()
      .operations.filter((o) => outs.operationIds.includes(o.id)))
      assert.equal(op.status, "finished", `${op.action} ended before update resolved`);
    assert.deepEqual([outs.autoscalingLimitMaxCu, outs.poolerEnabled], [2, true]);
  });

  it("disables a compute in place and enables it again, each one PATCH, keeping its settings; left out, it stays as it is", async () => {
    const branchId = await bareBranch("endpoint-disable");
    const made = (await endpointProvider.create(inputs({ branchId, disabled: true })))
      .outs as EndpointOutputs;
    assert.deepEqual([stored(made.endpointId)?.disabled, made.disabled], [true, true]);
    control().clearRequests();
    const enabled = (
      await endpointProvider.update!(made.endpointId, made, inputs({ branchId, disabled: false }))
    ).outs as EndpointOutputs;
    assert.deepEqual(harness.writes(), [`PATCH /projects/${P}/endpoints/${made.endpointId}`]);
    assert.deepEqual([stored(made.endpointId)?.disabled, enabled.disabled], [false, false]);
    const leftOut = await endpointProvider.diff!(made.endpointId, enabled, inputs({ branchId }));
    assert.equal(leftOut.changes, false);
  });

  it("creates a compute with a name, pooler mode and Postgres settings: the name replaces the create's mark once the compute is there", async () => {
    const branchId = await bareBranch("endpoint-named");
    const news = {
      ...inputs({ branchId, name: "reporting", poolerMode: "transaction", pgSettings: { work_mem: "64MB" } }),
      __owner: "urn:pulumi:dev::app::pulumi-nodejs:dynamic/clouddb:Endpoint::reporting",
    };
    const checked = (await endpointProvider.check!({} as EndpointInputs, news)).inputs as EndpointInputs;
    control().clearRequests();
    const made = (await endpointProvider.create(checked)).outs as EndpointOutputs;
    const live = stored(made.endpointId);
    assert.deepEqual([live?.name, live?.settings], ["reporting", { pg_settings: { work_mem: "64MB" } }]);
    assert.deepEqual(
      [made.name, made.poolerMode, made.pgSettings],
      ["reporting", "transaction", { work_mem: "64MB" }],
    );
    assert.deepEqual(harness.writes(), [
      `POST /projects/${P}/endpoints`,
      `PATCH /projects/${P}/endpoints/${made.endpointId}`,
    ]);
    const log = control()
      .dumpState()
      .operations.filter((op) => op.endpoint_id === made.endpointId);
    assert.deepEqual(
      log.map((op) => op.action),
      ["start_compute"],
      "the rename after the create started no operation",
    );
  });

  it("changes the name alone with a PATCH that starts no operation, and Postgres settings with one PATCH of the whole map; left out, each stays as it is", async () => {
    const branchId = await bareBranch("endpoint-settings");
    const made = (await endpointProvider.create(inputs({ branchId, pgSettings: { work_mem: "64MB" } })))
      .outs as EndpointOutputs;
    control().clearRequests();
    const renamed = (
      await endpointProvider.update!(made.endpointId, made, inputs({ branchId, name: "analytics" }))
    ).outs as EndpointOutputs;
    assert.deepEqual(harness.writes(), [`PATCH /projects/${P}/endpoints/${made.endpointId}`]);
    assert.deepEqual(renamed.operationIds, made.operationIds, "a rename starts no operation");
    assert.deepEqual([stored(made.endpointId)?.name, renamed.name], ["analytics", "analytics"]);
    assert.deepEqual(renamed.pgSettings, { work_mem: "64MB" }, "settings left out stay");
    control().clearRequests();
    const tuned = (
      await endpointProvider.update!(
        made.endpointId,
        renamed,
        inputs({ branchId, pgSettings: { work_mem: "128MB", "auto_explain.log_min_duration": "1s" } }),
      )
    ).outs as EndpointOutputs;
    assert.deepEqual(harness.writes(), [`PATCH /projects/${P}/endpoints/${made.endpointId}`]);
    assert.deepEqual(tuned.pgSettings, { work_mem: "128MB", "auto_explain.log_min_duration": "1s" });
    assert.equal(tuned.name, "analytics");
    const leftOut = await endpointProvider.diff!(made.endpointId, tuned, inputs({ branchId }));
    assert.equal(leftOut.changes, false);
    const same = await endpointProvider.diff!(
      made.endpointId,
      tuned,
      inputs({ branchId, pgSettings: { "auto_explain.log_min_duration": "1s", work_mem: "128MB" } }),
    );
    assert.equal(same.changes, false, "the same map in another order is no change");
  });

  it("is refused by the emulator for a Postgres setting name that is none, and for the session pooler mode", async () => {
    const api = createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });
    await assert.rejects(
      api.updateEndpoint(P, DEMO.endpointId, {
        endpoint: { settings: { pg_settings: { "work mem": "1MB" } } },
      }),
      /400 .*endpoint\.settings\.pg_settings: "work mem" is not a Postgres parameter name/,
    );
    await assert.rejects(
      api.updateEndpoint(P, DEMO.endpointId, { endpoint: { pooler_mode: "session" } }),
      /400 .*pooler_mode/,
    );
  });

  describe("check", () => {
    const failures = async (values: Partial<EndpointInputs>) =>
      (await endpointProvider.check!({} as EndpointInputs, inputs({ branchId: DEMO.branchId, ...values })))
        .failures;

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

    it("fails the session pooler mode, saying what the service runs, a Postgres setting name that is none, and a name over 64 characters", async () => {
      assert.deepEqual(await failures({ poolerMode: "session" }), [
        {
          property: "poolerMode",
          reason:
            "poolerMode must be transaction: the service runs its connection pooler in transaction mode only; for session semantics connect to the compute's host instead of the pooled one",
        },
      ]);
      assert.deepEqual(await failures({ pgSettings: { "work mem": "1MB" } }), [
        {
          property: "pgSettings",
          reason:
            'pgSettings: "work mem" is not a Postgres parameter name (letters, digits and _, an extension\'s with one dot)',
        },
      ]);
      assert.match(
        (await failures({ name: "x".repeat(65) }))?.[0]?.reason ?? "",
        /name must be at most 64 characters, got 65/,
      );
      assert.equal(
        await failures({ poolerMode: "transaction", pgSettings: { "pg_stat_statements.max": "5000" } }),
        undefined,
      );
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
