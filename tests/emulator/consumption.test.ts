import assert from "node:assert/strict";
import { ConsumptionHistoryGranularity, createApiClient } from "@neondatabase/api-client";
import { DEMO, type RunningEmulator } from "../../emulator";
import { DEFAULT_BRANCH_BYTES } from "../../emulator/defaults";
import { api, type Json, start } from "./helpers";

// Consumption history per project and per branch, computed from the emulator's own records on its
// clock (the manual clock starts at 2026-01-01T00:00:00Z; the demo organization's project has had
// its 0.25 CU compute active since it was seeded).

describe("consumption history", () => {
  let emu: RunningEmulator;
  beforeEach(async () => {
    emu = await start({ opDurationMs: 100 });
  });
  afterEach(() => emu.stop());

  const http = () => api(emu, DEMO.personalKey);
  const query = (params: Record<string, string>) => new URLSearchParams({ org_id: DEMO.orgId, ...params });

  /** Each timeframe's start and the value of `metric` in it, over every period of the first row. */
  function series(row: Json, metric: string): [string, number][] {
    return (row.periods as Json[]).flatMap((period) =>
      (period.consumption as Json[]).map((frame): [string, number] => [
        frame.timeframe_start,
        frame.metrics.find((m: Json) => m.metric_name === metric).value,
      ]),
    );
  }

  it("counts compute unit seconds while the compute is active, at its size, hour by hour", async () => {
    emu.control.advance(2 * 3_600_000);
    const suspended = await http().post(
      `/projects/${DEMO.orgProjectId}/endpoints/${DEMO.orgEndpointId}/suspend`,
    );
    assert.equal(suspended.status, 200, suspended.text);
    emu.control.advance(3_600_000);
    const reply = await http().get(
      `/consumption_history/v2/projects?${query({
        from: "2026-01-01T00:00:00Z",
        to: "2026-01-01T02:00:00Z",
        granularity: "hourly",
        metrics: "compute_unit_seconds",
      })}`,
    );
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(
      reply.body.projects.map((p: Json) => p.project_id),
      [DEMO.orgProjectId],
    );
    assert.deepEqual(series(reply.body.projects[0], "compute_unit_seconds"), [
      ["2026-01-01T00:00:00Z", 900],
      ["2026-01-01T01:00:00Z", 900],
      ["2026-01-01T02:00:00Z", 0],
    ]);
  });

  it("counts storage in byte-months of each branch's size, root and child branches apart, per branch too", async () => {
    emu.control.advance(12 * 3_600_000);
    const child = await http().post(`/projects/${DEMO.orgProjectId}/branches`, { branch: { name: "dev" } });
    assert.equal(child.status, 201, child.text);
    emu.control.advance(36 * 3_600_000);
    const range = { from: "2026-01-01T00:00:00Z", to: "2026-01-02T13:00:00Z", granularity: "daily" };
    const metrics = "root_branch_bytes_month,child_branch_bytes_month";
    const perProject = await http().get(`/consumption_history/v2/projects?${query({ ...range, metrics })}`);
    assert.equal(perProject.status, 200, perProject.text);
    const day = Math.round((DEFAULT_BRANCH_BYTES * 24) / 730);
    const row = perProject.body.projects[0];
    assert.deepEqual(series(row, "root_branch_bytes_month"), [
      ["2026-01-01T00:00:00Z", day],
      ["2026-01-02T00:00:00Z", day],
    ]);
    assert.deepEqual(series(row, "child_branch_bytes_month"), [
      ["2026-01-01T00:00:00Z", Math.round(day / 2)],
      ["2026-01-02T00:00:00Z", day],
    ]);
    assert.deepEqual(row.periods[0].period_start, "2026-01-01T00:00:00Z");
    assert.equal(row.periods[0].period_end, undefined, "the current billing period is open");

    const perBranch = await http().get(
      `/consumption_history/v2/branches?${query({ ...range, metrics, project_ids: DEMO.orgProjectId })}`,
    );
    assert.equal(perBranch.status, 200, perBranch.text);
    const byBranch = new Map<string, Json>(perBranch.body.branches.map((b: Json) => [b.branch_id, b]));
    assert.deepEqual([...byBranch.keys()], [DEMO.orgBranchId, child.body.branch.id].sort());
    assert.deepEqual(series(byBranch.get(child.body.branch.id), "root_branch_bytes_month"), [
      ["2026-01-01T00:00:00Z", 0],
      ["2026-01-02T00:00:00Z", 0],
    ]);
    assert.deepEqual(series(byBranch.get(DEMO.orgBranchId), "root_branch_bytes_month"), [
      ["2026-01-01T00:00:00Z", day],
      ["2026-01-02T00:00:00Z", day],
    ]);
    const again = await http().get(`/consumption_history/v2/projects?${query({ ...range, metrics })}`);
    assert.deepEqual(again.body, perProject.body, "the same question on the same clock has the same answer");
  });

  it("pages the organization's projects newest first", async () => {
    const made = await http().post("/projects", { project: { name: "second", org_id: DEMO.orgId } });
    assert.equal(made.status, 201, made.text);
    const params = {
      from: "2026-01-01T00:00:00Z",
      to: "2026-01-01T00:00:00Z",
      granularity: "daily",
      metrics: "compute_unit_seconds",
      limit: "1",
    };
    const first = await http().get(`/consumption_history/v2/projects?${query(params)}`);
    assert.deepEqual(
      first.body.projects.map((p: Json) => p.project_id),
      [made.body.project.id],
    );
    const next = await http().get(
      `/consumption_history/v2/projects?${query({ ...params, cursor: first.body.pagination.cursor })}`,
    );
    assert.deepEqual(
      next.body.projects.map((p: Json) => p.project_id),
      [DEMO.orgProjectId],
    );
  });

  it("refuses ranges the granularity does not serve (406), unknown metrics (400) and strangers (404)", async () => {
    const get = (params: Record<string, string>, key: string = DEMO.personalKey) =>
      api(emu, key).get(
        `/consumption_history/v2/projects?${query({ granularity: "hourly", metrics: "compute_unit_seconds", ...params })}`,
      );
    const tooLong = await get({ from: "2025-12-24T00:00:00Z", to: "2026-01-01T01:00:00Z" });
    assert.equal(tooLong.status, 406, tooLong.text);
    assert.match(tooLong.body.message, /168 hours/);
    assert.equal((await get({ from: "2024-02-29T00:00:00Z", to: "2024-03-01T00:00:00Z" })).status, 406);
    assert.equal((await get({ from: "2026-01-01T00:00:00Z", to: "2025-12-31T00:00:00Z" })).status, 406);
    assert.equal(
      (await get({ from: "2025-11-02T00:00:00Z", to: "2026-01-01T00:00:00Z", granularity: "daily" })).status,
      200,
    );
    const unknown = await get({
      from: "2026-01-01T00:00:00Z",
      to: "2026-01-01T00:00:00Z",
      metrics: "cpu_seconds",
    });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.message, /cpu_seconds/);
    const stranger = await api(emu, DEMO.personalKey).get(
      `/consumption_history/v2/projects?${new URLSearchParams({
        org_id: "org-not-mine-00000000",
        from: "2026-01-01T00:00:00Z",
        to: "2026-01-01T00:00:00Z",
        granularity: "daily",
        metrics: "compute_unit_seconds",
      })}`,
    );
    assert.equal(stranger.status, 404, stranger.text);
    const perProjectOnly = await api(emu, DEMO.personalKey).get(
      `/consumption_history/v2/branches?${query({
        from: "2026-01-01T00:00:00Z",
        to: "2026-01-01T00:00:00Z",
        granularity: "daily",
        metrics: "extra_branches_month",
        project_ids: DEMO.orgProjectId,
      })}`,
    );
    assert.equal(perProjectOnly.status, 400);
    assert.match(perProjectOnly.body.message, /extra_branches_month is not supported/);
  });

  it("answers the official client's calls unchanged", async () => {
    const client = createApiClient({ apiKey: DEMO.orgKey, baseURL: emu.url });
    emu.control.advance(3_600_000);
    const projects = await client.getConsumptionHistoryPerProjectV2({
      org_id: DEMO.orgId,
      from: "2026-01-01T00:00:00Z",
      to: "2026-01-01T00:00:00Z",
      granularity: ConsumptionHistoryGranularity.Hourly,
      metrics: ["compute_unit_seconds", "snapshot_storage_bytes_month"],
      project_ids: [DEMO.orgProjectId],
    });
    assert.deepEqual(series(projects.data.projects[0], "compute_unit_seconds"), [
      ["2026-01-01T00:00:00Z", 900],
    ]);
    const branches = await client.getConsumptionHistoryPerBranchV2({
      org_id: DEMO.orgId,
      from: "2026-01-01T00:00:00Z",
      to: "2026-01-01T01:00:00Z",
      granularity: ConsumptionHistoryGranularity.Hourly,
      metrics: ["compute_unit_seconds"],
      project_ids: [DEMO.orgProjectId],
      branch_ids: [DEMO.orgBranchId],
    });
    assert.deepEqual(
      branches.data.branches.map((b) => b.branch_id),
      [DEMO.orgBranchId],
    );
  });
});
