import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { createClient } from "../../provider/client";
import { projectDefinition } from "../../provider/resources/project";
import {
  type ProjectInputs,
  type ProjectOutputs,
  projectProvider,
} from "../../provider/resources/public/project";
import { PROVIDER_TEXT, projectInputs, projectState, useProjectSuite } from "./support";

// Project's changes against the emulator: the change table row by row, the request budget of an
// update, and each setting created, changed in place and kept when left out.

const P = DEMO.projectId;

describe("Project provider against the emulator", () => {
  const { harness, control, stored } = useProjectSuite();

  it("replaces on a change of region or Postgres version and updates the rest in place (the organization too), one row each", async () => {
    const olds = projectState();
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
        projectInputs(cases[input as keyof typeof projectDefinition.changes]),
      );
      assert.deepEqual(result.replaces, change === "replace" ? [input] : [], input);
      assert.equal(result.changes, change !== "ignore", input);
    }
    assert.deepEqual(harness.log(), [], "diff made no API call");
  });

  it("sees no change when the program leaves out what the API filled in, or repeats the recorded settings", async () => {
    const olds = projectState();
    for (const news of [
      { __provider: PROVIDER_TEXT } as ProjectInputs,
      projectInputs({ regionId: "aws-us-east-2", defaultEndpointSettings: { autoscalingLimitMaxCu: 1 } }),
    ]) {
      const result = await projectProvider.diff!(P, olds, news);
      assert.deepEqual([result.changes, result.replaces], [false, []]);
    }
  });

  it("applies name, retention and default settings with one PATCH of only what changed", async () => {
    const olds = (
      await projectProvider.create(projectInputs({ name: "to-patch", historyRetentionSeconds: 86400 }))
    ).outs as ProjectOutputs;
    control().clearRequests();
    const news = projectInputs({
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
        projectInputs({ name: "fenced", allowedIps: ["203.0.113.0/24"], blockVpcConnections: true }),
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
    const news = projectInputs({
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
    const leftOut = await projectProvider.diff!(made.projectId, outs, projectInputs({ name: "fenced" }));
    assert.equal(leftOut.changes, false);
    const read = await projectProvider.read!(made.projectId, outs);
    assert.deepEqual(read.props?.allowedIps, ["203.0.113.0/24", "198.51.100.7"]);
  });

  it("creates with the default branch, role and database names it is given; changing them later changes nothing", async () => {
    const made = (
      await projectProvider.create(
        projectInputs({
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
    const renamed = projectInputs({ name: "named", defaultBranchName: "main", defaultRoleName: "owner" });
    const diff = await projectProvider.diff!(made.projectId, made, renamed);
    assert.deepEqual([diff.changes, diff.replaces], [false, []]);
  });

  it("sets a maintenance window and quotas at create, changes them in place with one PATCH, and keeps them when left out", async () => {
    const window = { weekdays: [6, 7], startTime: "01:00", endTime: "03:00" };
    const made = (
      await projectProvider.create(
        projectInputs({ name: "kept", maintenanceWindow: window, quota: { activeTimeSeconds: 3600 } }),
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
    const same = projectInputs({
      name: "kept",
      maintenanceWindow: { ...window, weekdays: [7, 6] },
      quota: { activeTimeSeconds: 3600, computeTimeSeconds: 0 },
    });
    assert.equal((await projectProvider.diff!(made.projectId, made, same)).changes, false);

    control().clearRequests();
    const news = projectInputs({
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
      (await projectProvider.diff!(made.projectId, outs, projectInputs({ name: "kept" }))).changes,
      false,
    );
    const read = await projectProvider.read!(made.projectId, outs);
    assert.deepEqual(read.props?.maintenanceWindow, outs.maintenanceWindow);
  });

  it("protects the default branch at create and unprotects it in place, one PATCH of the branch each; refresh shows a change made elsewhere", async () => {
    const made = (
      await projectProvider.create(projectInputs({ name: "guarded", protectDefaultBranch: true }))
    ).outs as ProjectOutputs;
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
    const news = projectInputs({ name: "guarded", protectDefaultBranch: false });
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
      (await projectProvider.diff!(made.projectId, outs, projectInputs({ name: "guarded" }))).changes,
      false,
    );
  });
});
