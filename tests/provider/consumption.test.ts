import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { getConsumption, getConsumptionOutput } from "../../provider";
import { isUsageError } from "../../provider/client/errors";
import { useEmulator } from "./support";

// getConsumption against the emulator on its manual clock (2026-01-01T00:00:00Z at the start): the
// demo organization's project has had its 0.25 CU compute active since it was seeded, so each full
// hour is 900 compute unit seconds.

describe("getConsumption", () => {
  const harness = useEmulator({ clock: "manual" });
  before(() => harness.emulator.control.advance(2 * 3_600_000));
  beforeEach(() => harness.emulator.control.clearRequests());

  const hours = {
    projectId: DEMO.orgProjectId,
    from: "2026-01-01T00:00:00Z",
    to: "2026-01-01T01:00:00Z",
    granularity: "hourly",
  } as const;

  it("reads a project's metrics as one row per metric and timeframe, through its organization", async () => {
    const { rows } = await getConsumption({ ...hours, metrics: ["compute_unit_seconds"] });
    assert.deepEqual(rows, [
      {
        timeframeStart: "2026-01-01T00:00:00Z",
        timeframeEnd: "2026-01-01T01:00:00Z",
        metric: "compute_unit_seconds",
        value: 900,
        periodStart: "2026-01-01T00:00:00Z",
        periodPlan: "scale",
      },
      {
        timeframeStart: "2026-01-01T01:00:00Z",
        timeframeEnd: "2026-01-01T02:00:00Z",
        metric: "compute_unit_seconds",
        value: 900,
        periodStart: "2026-01-01T00:00:00Z",
        periodPlan: "scale",
      },
    ]);
    assert.deepEqual(harness.log(), [
      `GET /projects/${DEMO.orgProjectId}`,
      "GET /consumption_history/v2/projects",
    ]);
    const query = new URLSearchParams(harness.emulator.control.requests().at(-1)?.query ?? "");
    assert.equal(query.get("org_id"), DEMO.orgId);
    assert.equal(query.get("project_ids"), DEMO.orgProjectId);
  });

  it("asks for every metric by default: a project's eight, a branch's six", async () => {
    const project = await getConsumption({ ...hours, to: hours.from });
    assert.deepEqual(
      project.rows.map((r) => r.metric),
      [
        "compute_unit_seconds",
        "root_branch_bytes_month",
        "child_branch_bytes_month",
        "instant_restore_bytes_month",
        "public_network_transfer_bytes",
        "private_network_transfer_bytes",
        "extra_branches_month",
        "snapshot_storage_bytes_month",
      ],
    );
    const branch = await getConsumption({ ...hours, to: hours.from, branchId: DEMO.orgBranchId });
    assert.deepEqual(
      branch.rows.map((r) => [r.metric, r.value]),
      [
        ["compute_unit_seconds", 900],
        ["root_branch_bytes_month", project.rows[1]?.value],
        ["child_branch_bytes_month", 0],
        ["instant_restore_bytes_month", 0],
        ["public_network_transfer_bytes", 0],
        ["private_network_transfer_bytes", 0],
      ],
    );
    assert.equal(harness.log().at(-1), "GET /consumption_history/v2/branches");
    const output = await new Promise((resolve) =>
      getConsumptionOutput({ ...hours, to: hours.from, branchId: DEMO.orgBranchId }).apply(resolve),
    );
    assert.deepEqual(output, branch);
  });

  it("refuses wrong arguments before any request, naming them", async () => {
    const refused = async (args: Parameters<typeof getConsumption>[0], message: RegExp) => {
      await assert.rejects(getConsumption(args), (e: Error) => isUsageError(e) && message.test(e.message));
    };
    await refused(
      { ...hours, granularity: "weekly" as "daily" },
      /^getConsumption: granularity must be hourly, daily or monthly, got "weekly"$/,
    );
    await refused({ ...hours, from: "yesterday" }, /from must be an RFC 3339 date-time/);
    await refused({ ...hours, to: "2026-01-01" }, /to must be an RFC 3339 date-time/);
    await refused(
      { ...hours, from: hours.to, to: hours.from },
      /from \(2026-01-01T01:00:00Z\) is later than to/,
    );
    await refused({ ...hours, metrics: [] }, /metrics, when given, must name at least one metric/);
    assert.deepEqual(harness.log(), []);
  });

  it("explains a project outside any organization, and passes the API's refusals on", async () => {
    await assert.rejects(
      getConsumption({ ...hours, projectId: DEMO.projectId }),
      /project hidden-river-50598307 belongs to no organization, and consumption history is kept per organization/,
    );
    await assert.rejects(
      getConsumption({ ...hours, from: "2025-12-20T00:00:00Z" }),
      /406.*hourly consumption metrics are limited to 168 hours/,
    );
    await assert.rejects(
      getConsumption({ ...hours, branchId: DEMO.orgBranchId, metrics: ["extra_branches_month"] }),
      /400.*metric extra_branches_month is not supported/,
    );
  });
});
