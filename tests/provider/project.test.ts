import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import { DEMO } from "../../emulator";
import { createClient, resetRegistry } from "../../provider/client";
import type { PartialFailure } from "../../provider/resources/errors";
import { setHostLineWriter } from "../../provider/resources/host/progress";
import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import { projectDefinition } from "../../provider/resources/project";
import { settingsChanges } from "../../provider/resources/projectRequests";
import {
  Project,
  type ProjectInputs,
  type ProjectOutputs,
  projectProvider,
} from "../../provider/resources/public/project";
import { startProxy } from "../faults/support/proxy";
import { linesOf, PROVIDER_TEXT, setEnv, useEmulator } from "./support";

// Project against the emulator (objects.test.ts covers defaults, lost answers, adoption and delete):
// the connection string kept as the secret output (and never in a partial failure's properties),
// read from its own route when the create answer has none, the change table row by row, the
// request budget of an update, and the messages of bad inputs.

const P = DEMO.projectId;

function inputs(values: Partial<ProjectInputs> = {}): ProjectInputs {
  return { name: "shop", ...values, __provider: PROVIDER_TEXT } as ProjectInputs;
}

/** The state of a project made with `values`, for diffs (no API call). */
function state(values: Partial<ProjectOutputs> = {}): ProjectOutputs {
  return {
    ...inputs(),
    projectId: P,
    name: "shop",
    regionId: "aws-us-east-2",
    pgVersion: 17,
    orgId: null,
    historyRetentionSeconds: 86400,
    defaultEndpointSettings: {
      autoscalingLimitMinCu: 0.25,
      autoscalingLimitMaxCu: 1,
      suspendTimeoutSeconds: 0,
    },
    defaultBranchId: DEMO.branchId,
    defaultEndpointId: DEMO.endpointId,
    defaultRoleName: "neondb_owner",
    defaultDatabaseName: "neondb",
    host: `${DEMO.endpointId}.example`,
    connectionUri: "postgresql://neondb_owner:secret@host/neondb",
    createdAt: "2025-01-01T00:00:00Z",
    operationIds: [],
    pendingOperationIds: [],
    ...values,
  } as ProjectOutputs;
}

describe("Project provider against the emulator", () => {
  const harness = useEmulator();
  const control = () => harness.emulator.control;
  const stored = (id: string) =>
    control()
      .dumpState()
      .projects.find((p) => p.id === id);
  beforeEach(() => {
    control().clearRequests();
    control().clearOperationScripts();
  });
  /** Runs `body` with the provider behind a proxy that takes the connection strings out of a create's answer. */
  const withoutUriInAnswer = async (body: () => Promise<void>) => {
    const proxy = await startProxy(harness.emulator.url);
    const restore = setEnv({ CLOUDDB_API_URL: proxy.url });
    try {
      resetRegistry();
      proxy.after("POST", /^\/projects$/, {
        kind: "rewrite",
        rewrite: (answer) => JSON.stringify({ ...JSON.parse(answer), connection_uris: [] }),
      });
      await body();
      assert.equal(proxy.applied, 1);
    } finally {
      restore();
      resetRegistry();
      await proxy.stop();
    }
  };

  it("creates the project with the API's field names, waits for its operations and keeps the connection string", async () => {
    const made = await projectProvider.create(
      inputs({
        name: "created",
        regionId: "aws-us-east-2",
        pgVersion: 17,
        historyRetentionSeconds: 86400,
        defaultEndpointSettings: { autoscalingLimitMaxCu: 1 },
      }),
    );
    const live = stored(made.id);
    assert.deepEqual(
      [live?.name, live?.region_id, live?.pg_version, live?.history_retention_seconds],
      ["created", "aws-us-east-2", 17, 86400],
    );
    assert.equal(live?.default_endpoint_settings?.autoscaling_limit_max_cu, 1);
    const outs = made.outs as ProjectOutputs;
    for (const op of control()
      .dumpState()
      .operations.filter((o) => outs.operationIds.includes(o.id)))
      assert.equal(op.status, "finished", `${op.action} ended before create resolved`);
    assert.match(
      outs.connectionUri,
      new RegExp(`^postgresql://${outs.defaultRoleName}:[^@]+@${outs.defaultEndpointId}\\.`),
    );
    // Only the declared default settings are recorded, so the API's other defaults make no diff.
    assert.deepEqual(outs.defaultEndpointSettings, { autoscalingLimitMaxCu: 1 });
    assert.deepEqual(harness.writes(), ["POST /projects"]);
  });

  it("reads the connection string from the connection_uri route when the create answer has none", async () => {
    await withoutUriInAnswer(async () => {
      const outs = (await projectProvider.create(inputs({ name: "no-uri-in-answer" })))
        .outs as ProjectOutputs;
      const asked = control().requests({ route: "GET /projects/{project_id}/connection_uri" });
      assert.equal(asked.length, 1);
      const query = new URLSearchParams(asked[0]?.query);
      assert.deepEqual(
        [query.get("role_name"), query.get("database_name"), query.get("branch_id")],
        [outs.defaultRoleName, outs.defaultDatabaseName, outs.defaultBranchId],
      );
      assert.match(outs.connectionUri, new RegExp(`^postgresql://${outs.defaultRoleName}:[^@]+@`));
    });
  });

  it("records a project whose connection-string read fails after the create, and the next up reads it", async () => {
    await withoutUriInAnswer(async () => {
      control().failNext("GET /projects/{project_id}/connection_uri", { status: 403 });
      const err = (await projectProvider.create(inputs({ name: "uri-read-fails" })).then(
        () => assert.fail("expected a partial failure"),
        (e: PartialFailure) => e,
      )) as PartialFailure;
      assert.equal(err.id, stored(err.id)?.id, `the project is recorded: ${err.message}`);
      assert.match(err.message, /It is recorded in the state/);
      const recorded = err.properties as unknown as ProjectOutputs;
      assert.equal(recorded.connectionUri, "");
      const diff = await projectProvider.diff!(err.id, recorded, inputs({ name: "uri-read-fails" }));
      assert.equal(diff.changes, true, "the next up resumes it");
      const updated = await projectProvider.update!(err.id, recorded, inputs({ name: "uri-read-fails" }));
      assert.match(updated.outs?.connectionUri ?? "", /^postgresql:\/\//);
    });
  });

  it("records a project whose compute start was cancelled without its connection string, and the resuming update reads it again", async () => {
    control().scriptOperations({ action: "start_compute", count: 1 }, { kind: "cancelled" });
    const err = (await projectProvider.create(inputs({ name: "half-made" })).then(
      () => assert.fail("expected a partial failure"),
      (e: PartialFailure) => e,
    )) as PartialFailure;
    assert.equal(err.id, stored(err.id)?.id, "the service made the project");
    const passwords = control()
      .dumpState()
      .branches.filter((b) => b.project_id === err.id)
      .flatMap((b) => b.roles.map((r) => r.password ?? ""))
      .filter((p) => p.length > 0);
    assert.ok(passwords.length > 0);
    for (const password of passwords) {
      assert.ok(!JSON.stringify(err.properties).includes(password), "no password in the recorded properties");
      assert.ok(!err.message.includes(password));
    }
    const updated = await projectProvider.update!(
      err.id,
      err.properties as unknown as ProjectOutputs,
      inputs({ name: "half-made" }),
    );
    assert.match(updated.outs?.connectionUri ?? "", /^postgresql:\/\//);
    assert.ok(passwords.some((p) => updated.outs?.connectionUri.includes(p)));
    assert.deepEqual(updated.outs?.pendingOperationIds, []);
  });

  it("replaces on a change of region or Postgres version and updates the rest in place (the organization too), one row each", async () => {
    const olds = state();
    const cases: Record<keyof typeof projectDefinition.changes, Partial<ProjectInputs>> = {
      regionId: { regionId: "aws-eu-central-1" },
      pgVersion: { pgVersion: 16 },
      orgId: { orgId: DEMO.orgId },
      name: { name: "shop-2" },
      historyRetentionSeconds: { historyRetentionSeconds: 3600 },
      defaultEndpointSettings: { defaultEndpointSettings: { suspendTimeoutSeconds: 300 } },
      allowedIps: { allowedIps: ["203.0.113.7"] },
      allowedIpsProtectedBranchesOnly: { allowedIpsProtectedBranchesOnly: true },
      blockPublicConnections: { blockPublicConnections: true },
      blockVpcConnections: { blockVpcConnections: true },
      enableLogicalReplication: { enableLogicalReplication: true },
      hipaa: { hipaa: true },
      auditLogLevel: { auditLogLevel: "full" },
      maintenanceWindow: { maintenanceWindow: { weekdays: [1], startTime: "01:00", endTime: "02:00" } },
      quota: { quota: { activeTimeSeconds: 3600 } },
      defaultBranchName: { defaultBranchName: "trunk" },
      defaultRoleName: { defaultRoleName: "app" },
      defaultDatabaseName: { defaultDatabaseName: "appdb" },
      protectDefaultBranch: { protectDefaultBranch: true },
      deleteProtection: { deleteProtection: true },
      timeouts: { timeouts: { delete: 30 } },
      adoptExisting: { adoptExisting: DEMO.orgProjectId },
    };
    for (const [input, change] of Object.entries(projectDefinition.changes)) {
      const result = await projectProvider.diff!(
        P,
        olds,
        inputs(cases[input as keyof typeof projectDefinition.changes]),
      );
      assert.deepEqual(result.replaces, change === "replace" ? [input] : [], input);
      assert.equal(result.changes, change !== "ignore", input);
    }
    assert.deepEqual(harness.log(), [], "diff made no API call");
  });

  it("sees no change when the program leaves out what the API filled in, or repeats the recorded settings", async () => {
    const olds = state();
    for (const news of [
      { __provider: PROVIDER_TEXT } as ProjectInputs,
      inputs({ regionId: "aws-us-east-2", defaultEndpointSettings: { autoscalingLimitMaxCu: 1 } }),
    ]) {
      const result = await projectProvider.diff!(P, olds, news);
      assert.deepEqual([result.changes, result.replaces], [false, []]);
    }
  });

  it("applies name, retention and default settings with one PATCH of only what changed", async () => {
    const olds = (await projectProvider.create(inputs({ name: "to-patch", historyRetentionSeconds: 86400 })))
      .outs as ProjectOutputs;
    control().clearRequests();
    const news = inputs({
      name: "patched",
      historyRetentionSeconds: 86400,
      defaultEndpointSettings: { autoscalingLimitMaxCu: 2 },
    });
    const outs = (await projectProvider.update!(olds.projectId, olds, news)).outs as ProjectOutputs;
    assert.deepEqual(harness.writes(), [`PATCH /projects/${olds.projectId}`]);
    const live = stored(olds.projectId);
    assert.deepEqual(
      [
        live?.name,
        live?.history_retention_seconds,
        live?.default_endpoint_settings?.autoscaling_limit_max_cu,
      ],
      ["patched", 86400, 2],
    );
    assert.deepEqual([outs.name, outs.defaultEndpointSettings], ["patched", { autoscalingLimitMaxCu: 2 }]);
    assert.equal(outs.connectionUri, olds.connectionUri);
  });

  it("creates with an IP allow list and blocked VPC connections, changes them in place with one PATCH, and keeps them when left out", async () => {
    const made = (
      await projectProvider.create(
        inputs({ name: "fenced", allowedIps: ["203.0.113.0/24"], blockVpcConnections: true }),
      )
    ).outs as ProjectOutputs;
    const settingsOf = (id: string) => stored(id)?.settings as Record<string, unknown> | undefined;
    assert.deepEqual(settingsOf(made.projectId)?.allowed_ips, {
      ips: ["203.0.113.0/24"],
      protected_branches_only: false,
    });
    assert.deepEqual(
      [
        made.allowedIps,
        made.allowedIpsProtectedBranchesOnly,
        made.blockPublicConnections,
        made.blockVpcConnections,
      ],
      [["203.0.113.0/24"], false, false, true],
    );

    control().clearRequests();
    const news = inputs({
      name: "fenced",
      allowedIps: ["203.0.113.0/24", "198.51.100.7"],
      allowedIpsProtectedBranchesOnly: true,
    });
    const diff = await projectProvider.diff!(made.projectId, made, news);
    assert.deepEqual([diff.changes, diff.replaces], [true, []]);
    const outs = (await projectProvider.update!(made.projectId, made, news)).outs as ProjectOutputs;
    assert.deepEqual(harness.writes(), [`PATCH /projects/${made.projectId}`]);
    assert.deepEqual(settingsOf(made.projectId)?.allowed_ips, {
      ips: ["203.0.113.0/24", "198.51.100.7"],
      protected_branches_only: true,
    });
    assert.equal(settingsOf(made.projectId)?.block_vpc_connections, true, "a setting left out is kept");
    assert.deepEqual(
      [outs.allowedIps, outs.allowedIpsProtectedBranchesOnly],
      [["203.0.113.0/24", "198.51.100.7"], true],
    );

    // Left out later: no opinion, no change.
    const leftOut = await projectProvider.diff!(made.projectId, outs, inputs({ name: "fenced" }));
    assert.equal(leftOut.changes, false);
    const read = await projectProvider.read!(made.projectId, outs);
    assert.deepEqual(read.props?.allowedIps, ["203.0.113.0/24", "198.51.100.7"]);
  });

  it("creates with the default branch, role and database names it is given; changing them later changes nothing", async () => {
    const made = (
      await projectProvider.create(
        inputs({
          name: "named",
          defaultBranchName: "trunk",
          defaultRoleName: "app",
          defaultDatabaseName: "appdb",
        }),
      )
    ).outs as ProjectOutputs;
    const branch = control()
      .dumpState()
      .branches.find((b) => b.id === made.defaultBranchId);
    assert.deepEqual(
      [branch?.name, branch?.roles.map((r) => r.name), branch?.databases.map((d) => [d.name, d.owner_name])],
      ["trunk", ["app"], [["appdb", "app"]]],
    );
    assert.deepEqual(
      [made.defaultBranchName, made.defaultRoleName, made.defaultDatabaseName],
      ["trunk", "app", "appdb"],
    );
    assert.match(made.connectionUri, /^postgresql:\/\/app:.*\/appdb/);
    const renamed = inputs({ name: "named", defaultBranchName: "main", defaultRoleName: "owner" });
    const diff = await projectProvider.diff!(made.projectId, made, renamed);
    assert.deepEqual([diff.changes, diff.replaces], [false, []]);
  });

  it("sets a maintenance window and quotas at create, changes them in place with one PATCH, and keeps them when left out", async () => {
    const window = { weekdays: [6, 7], startTime: "01:00", endTime: "03:00" };
    const made = (
      await projectProvider.create(
        inputs({ name: "kept", maintenanceWindow: window, quota: { activeTimeSeconds: 3600 } }),
      )
    ).outs as ProjectOutputs;
    const settingsOf = (id: string) => stored(id)?.settings as Record<string, unknown> | undefined;
    assert.deepEqual(settingsOf(made.projectId)?.maintenance_window, {
      weekdays: [6, 7],
      start_time: "01:00",
      end_time: "03:00",
    });
    assert.deepEqual([made.maintenanceWindow, made.quota], [window, { activeTimeSeconds: 3600 }]);

    // The same days in another order, and a quota of 0 (unlimited) spelt out, are no change.
    const same = inputs({
      name: "kept",
      maintenanceWindow: { ...window, weekdays: [7, 6] },
      quota: { activeTimeSeconds: 3600, computeTimeSeconds: 0 },
    });
    assert.equal((await projectProvider.diff!(made.projectId, made, same)).changes, false);

    control().clearRequests();
    const news = inputs({
      name: "kept",
      maintenanceWindow: { weekdays: [3], startTime: "22:00", endTime: "23:30" },
      quota: { logicalSizeBytes: 1_000_000 },
    });
    assert.deepEqual((await projectProvider.diff!(made.projectId, made, news)).replaces, []);
    const outs = (await projectProvider.update!(made.projectId, made, news)).outs as ProjectOutputs;
    assert.deepEqual(harness.writes(), [`PATCH /projects/${made.projectId}`]);
    assert.deepEqual(settingsOf(made.projectId)?.quota, {
      active_time_seconds: 0,
      compute_time_seconds: 0,
      written_data_bytes: 0,
      data_transfer_bytes: 0,
      logical_size_bytes: 1_000_000,
    });
    assert.deepEqual(
      [outs.maintenanceWindow, outs.quota],
      [{ weekdays: [3], startTime: "22:00", endTime: "23:30" }, { logicalSizeBytes: 1_000_000 }],
    );

    // Left out later: no opinion, no change; refresh reads what the project has.
    assert.equal(
      (await projectProvider.diff!(made.projectId, outs, inputs({ name: "kept" }))).changes,
      false,
    );
    const read = await projectProvider.read!(made.projectId, outs);
    assert.deepEqual(read.props?.maintenanceWindow, outs.maintenanceWindow);
  });

  it("protects the default branch at create and unprotects it in place, one PATCH of the branch each; refresh shows a change made elsewhere", async () => {
    const made = (await projectProvider.create(inputs({ name: "guarded", protectDefaultBranch: true })))
      .outs as ProjectOutputs;
    const branchOf = () =>
      control()
        .dumpState()
        .branches.find((b) => b.id === made.defaultBranchId);
    assert.equal(branchOf()?.protected, true);
    assert.equal(made.defaultBranchProtected, true);
    assert.ok(
      harness.writes().includes(`PATCH /projects/${made.projectId}/branches/${made.defaultBranchId}`),
      harness.writes().join("\n"),
    );

    control().clearRequests();
    const news = inputs({ name: "guarded", protectDefaultBranch: false });
    assert.deepEqual((await projectProvider.diff!(made.projectId, made, news)).replaces, []);
    const outs = (await projectProvider.update!(made.projectId, made, news)).outs as ProjectOutputs;
    assert.deepEqual(harness.writes(), [
      `PATCH /projects/${made.projectId}/branches/${made.defaultBranchId}`,
    ]);
    assert.deepEqual([branchOf()?.protected, outs.defaultBranchProtected], [false, false]);

    await createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url }).updateBranch(
      made.projectId,
      made.defaultBranchId,
      { protected: true },
    );
    const read = await projectProvider.read!(made.projectId, outs);
    assert.deepEqual([read.props?.protectDefaultBranch, read.inputs?.protectDefaultBranch], [true, true]);
    // Left out: the branch stays as it is, and a project without the input reads no branch.
    assert.equal(
      (await projectProvider.diff!(made.projectId, outs, inputs({ name: "guarded" }))).changes,
      false,
    );
  });

  it("refuses a maintenance window or quota the service would refuse at preview, naming the field", async () => {
    const reasons = async (news: Partial<ProjectInputs>) =>
      (await projectProvider.check!({} as ProjectInputs, inputs(news))).failures?.map((f) => f.reason);
    const window = { weekdays: [1], startTime: "01:00", endTime: "02:00" };
    assert.deepEqual(await reasons({ maintenanceWindow: { ...window, weekdays: [0, 8] } }), [
      "maintenanceWindow.weekdays[0]: a day is a whole number from 1 (Monday) to 7 (Sunday), not 0",
      "maintenanceWindow.weekdays[1]: a day is a whole number from 1 (Monday) to 7 (Sunday), not 8",
    ]);
    assert.deepEqual(await reasons({ maintenanceWindow: { ...window, weekdays: [] } }), [
      "maintenanceWindow.weekdays must list at least one day, 1 (Monday) to 7 (Sunday)",
    ]);
    assert.deepEqual(await reasons({ maintenanceWindow: { ...window, weekdays: [2, 2] } }), [
      "maintenanceWindow.weekdays lists a day twice",
    ]);
    assert.deepEqual(await reasons({ maintenanceWindow: { ...window, endTime: "24:00" } }), [
      "maintenanceWindow.endTime must be a UTC time written HH:MM, from 00:00 to 23:59",
    ]);
    assert.deepEqual(await reasons({ quota: { writtenDataBytes: -5 } }), [
      "quota.writtenDataBytes must be a whole number, 0 or more (0 is unlimited)",
    ]);
    assert.deepEqual(harness.log(), []);
  });

  it("turns logical replication on in place, saying at preview that it cannot be undone, and refuses turning it off at preview", async () => {
    const made = (await projectProvider.create(inputs({ name: "replicated" }))).outs as ProjectOutputs;
    assert.equal(made.enableLogicalReplication, false);
    const lines: string[] = [];
    setHostLineWriter((line) => lines.push(line));
    let diff: Awaited<ReturnType<NonNullable<typeof projectProvider.diff>>>;
    try {
      diff = await projectProvider.diff!(
        made.projectId,
        made,
        inputs({ name: "replicated", enableLogicalReplication: true }),
      );
    } finally {
      setHostLineWriter(undefined);
    }
    assert.deepEqual([diff.changes, diff.replaces], [true, []]);
    assert.deepEqual(lines, [
      `project ${made.projectId} (replicated): the update turns logical replication on, which restarts every compute of the project and cannot be undone`,
    ]);
    const on = (
      await projectProvider.update!(
        made.projectId,
        made,
        inputs({ name: "replicated", enableLogicalReplication: true }),
      )
    ).outs as ProjectOutputs;
    assert.equal(
      (stored(made.projectId)?.settings as Record<string, unknown>)?.enable_logical_replication,
      true,
    );
    assert.equal(on.enableLogicalReplication, true);
    await assert.rejects(
      projectProvider.diff!(
        made.projectId,
        on,
        inputs({ name: "replicated", enableLogicalReplication: false }),
      ),
      /enableLogicalReplication cannot be turned off: the service keeps logical replication on once it is on/,
    );
  });

  it("turns HIPAA on in place, saying at preview that it cannot be undone, refuses turning it off, and sets the audit log level in place", async () => {
    const made = (await projectProvider.create(inputs({ name: "compliant", auditLogLevel: "base" })))
      .outs as ProjectOutputs;
    assert.deepEqual([made.hipaa, made.hipaaEnabledAt, made.auditLogLevel], [false, null, "base"]);
    const news = inputs({ name: "compliant", auditLogLevel: "base", hipaa: true });
    const { lines, result } = await linesOf(() => projectProvider.diff!(made.projectId, made, news));
    assert.deepEqual(result.replaces, []);
    assert.deepEqual(lines, [
      `project ${made.projectId} (compliant): the update turns HIPAA compliance on (audit logging included), which restarts every compute of the project and cannot be undone`,
    ]);
    control().clearRequests();
    const on = (await projectProvider.update!(made.projectId, made, news)).outs as ProjectOutputs;
    assert.equal(on.hipaa, true);
    assert.match(on.hipaaEnabledAt ?? "", /^\d{4}-\d\d-\d\dT/);
    assert.equal((stored(made.projectId)?.settings as Record<string, unknown>)?.hipaa, true);
    await assert.rejects(
      projectProvider.diff!(made.projectId, on, inputs({ name: "compliant", hipaa: false })),
      /hipaa cannot be turned off: the service keeps HIPAA compliance on once it is on\. Set it back to true, or remove it \(no opinion\)/,
    );
    control().clearRequests();
    const full = (
      await projectProvider.update!(
        made.projectId,
        on,
        inputs({ name: "compliant", hipaa: true, auditLogLevel: "full" }),
      )
    ).outs as ProjectOutputs;
    assert.equal(full.auditLogLevel, "full");
    assert.deepEqual(harness.writes(), [`PATCH /projects/${made.projectId}`]);
    assert.deepEqual(
      settingsChanges({ hipaa: true, auditLogLevel: "full" }, { hipaa: true, auditLogLevel: "base" }),
      { audit_log_level: "full" },
      "HIPAA, already on, is not sent again",
    );
    const { failures } = await projectProvider.check!(
      {} as ProjectInputs,
      inputs({ auditLogLevel: "everything" }),
    );
    assert.deepEqual(failures, [
      {
        property: "auditLogLevel",
        reason: 'auditLogLevel must be one of base, extended, full, not "everything"',
      },
    ]);
  });

  it("refuses an allow-list entry that is no address, block or range at preview, naming it", async () => {
    const { failures } = await projectProvider.check!(
      {} as ProjectInputs,
      inputs({ allowedIps: ["10.0.0.1", "10.0.0.0/33", "office"] }),
    );
    assert.deepEqual(
      failures?.map((f) => f.reason),
      [
        'allowedIps[1]: "10.0.0.0/33" is not an IP address, a CIDR block (203.0.113.0/24) or a range (203.0.113.10-203.0.113.20)',
        'allowedIps[2]: "office" is not an IP address, a CIDR block (203.0.113.0/24) or a range (203.0.113.10-203.0.113.20)',
      ],
    );
  });

  it("refuses to delete a project with deleteProtection, without calling the API", async () => {
    await assert.rejects(
      projectProvider.delete!(P, state({ deleteProtection: true })),
      /set deleteProtection: false/,
    );
    assert.deepEqual(harness.log(), []);
  });

  it("fails bad inputs at preview with what to change, and lets unknown values through", async () => {
    const failures = async (news: Partial<ProjectInputs>) =>
      (await projectProvider.check!({} as ProjectInputs, inputs(news))).failures;
    assert.deepEqual(await failures({ pgVersion: 13 }), [
      {
        property: "pgVersion",
        reason: "pgVersion must be a Postgres major version the service runs: 14, 15, 16, 17 or 18",
      },
    ]);
    assert.deepEqual(
      await failures({ defaultEndpointSettings: { autoscalingLimitMinCu: 4, autoscalingLimitMaxCu: 2 } }),
      [
        {
          // The engine shows only top-level properties: a nested path goes in the reason.
          property: "",
          reason:
            "defaultEndpointSettings.autoscalingLimitMinCu: autoscalingLimitMinCu (4) is above autoscalingLimitMaxCu (2): lower autoscalingLimitMinCu or raise autoscalingLimitMaxCu to at least 4",
        },
      ],
    );
    assert.match(
      (await failures({ historyRetentionSeconds: 99_999_999 }))?.[0]?.reason ?? "",
      /from 0 to 2592000 \(30 days\)/,
    );
    assert.equal(await failures({ name: UNKNOWN, orgId: UNKNOWN }), undefined);
  });

  it("registers the class with connectionUri as an additional secret output", async () => {
    await pulumi.runtime.setMocks(
      { newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: () => ({}) },
      "clouddb-test",
      "unit",
    );
    const registered: string[][] = [];
    const monitor = pulumi.runtime.getMonitor() as unknown as {
      registerResource(req: unknown, cb: unknown): void;
    };
    const original = monitor.registerResource.bind(monitor);
    monitor.registerResource = (req, cb) => {
      registered.push(
        (req as { getAdditionalsecretoutputsList(): string[] }).getAdditionalsecretoutputsList(),
      );
      original(req, cb);
    };
    try {
      const made = new Project("shop", { name: "shop" });
      await new Promise((resolve) => made.urn.apply(resolve));
      assert.deepEqual(
        registered,
        [[...(projectDefinition.secrets ?? [])]],
        "the class registers the declared secrets",
      );
      assert.ok(registered[0]?.includes("connectionUri"));
      assert.ok(pulumi.Output.isInstance(made.connectionUri));
    } finally {
      monitor.registerResource = original;
    }
  });
});
