import assert from "node:assert/strict";
import { setHostLineWriter } from "../../provider/resources/host/progress";
import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import { settingsChanges } from "../../provider/resources/projectRequests";
import {
  type ProjectInputs,
  type ProjectOutputs,
  projectProvider,
} from "../../provider/resources/public/project";
import { linesOf, projectInputs, useProjectSuite } from "./support";

// Project's preview against the emulator: settings the service would refuse, the ones that cannot
// be undone said so, and the messages of bad inputs.

describe("Project provider against the emulator", () => {
  const { harness, control, stored } = useProjectSuite();

  it("refuses a maintenance window or quota the service would refuse at preview, naming the field", async () => {
    const reasons = async (news: Partial<ProjectInputs>) =>
      (await projectProvider.check!({} as ProjectInputs, projectInputs(news))).failures?.map((f) => f.reason);
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
    const made = (await projectProvider.create(projectInputs({ name: "replicated" }))).outs as ProjectOutputs;
    assert.equal(made.enableLogicalReplication, false);
    const lines: string[] = [];
    setHostLineWriter((line) => lines.push(line));
    let diff: Awaited<ReturnType<NonNullable<typeof projectProvider.diff>>>;
    try {
      diff = await projectProvider.diff!(
        made.projectId,
        made,
        projectInputs({ name: "replicated", enableLogicalReplication: true }),
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
        projectInputs({ name: "replicated", enableLogicalReplication: true }),
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
        projectInputs({ name: "replicated", enableLogicalReplication: false }),
      ),
      /enableLogicalReplication cannot be turned off: the service keeps logical replication on once it is on/,
    );
  });

  it("turns HIPAA on in place, saying at preview that it cannot be undone, refuses turning it off, and sets the audit log level in place", async () => {
    const made = (await projectProvider.create(projectInputs({ name: "compliant", auditLogLevel: "base" })))
      .outs as ProjectOutputs;
    assert.deepEqual([made.hipaa, made.hipaaEnabledAt, made.auditLogLevel], [false, null, "base"]);
    const news = projectInputs({ name: "compliant", auditLogLevel: "base", hipaa: true });
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
      projectProvider.diff!(made.projectId, on, projectInputs({ name: "compliant", hipaa: false })),
      /hipaa cannot be turned off: the service keeps HIPAA compliance on once it is on\. Set it back to true, or remove it \(no opinion\)/,
    );
    control().clearRequests();
    const full = (
      await projectProvider.update!(
        made.projectId,
        on,
        projectInputs({ name: "compliant", hipaa: true, auditLogLevel: "full" }),
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
      projectInputs({ auditLogLevel: "everything" }),
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
      projectInputs({ allowedIps: ["10.0.0.1", "10.0.0.0/33", "office"] }),
    );
    assert.deepEqual(
      failures?.map((f) => f.reason),
      [
        'allowedIps[1]: "10.0.0.0/33" is not an IP address, a CIDR block (203.0.113.0/24) or a range (203.0.113.10-203.0.113.20)',
        'allowedIps[2]: "office" is not an IP address, a CIDR block (203.0.113.0/24) or a range (203.0.113.10-203.0.113.20)',
      ],
    );
  });

  it("fails bad inputs at preview with what to change, and lets unknown values through", async () => {
    const failures = async (news: Partial<ProjectInputs>) =>
      (await projectProvider.check!({} as ProjectInputs, projectInputs(news))).failures;
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
});
