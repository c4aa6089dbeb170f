import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import sinon from "sinon";
import { DEMO, demoSeed, type SeedFile } from "../../emulator";
import {
  getConnectionUri,
  getOperation,
  getOperationOutput,
  getOperations,
  getOperationsOutput,
  getPreloadLibraries,
  getPreloadLibrariesOutput,
  getProjects,
  getProjectsOutput,
  getRegions,
} from "../../provider";
import { isNotFound } from "../../provider/client/errors";
import { setEnv, useEmulator } from "./support";

// Data sources are plain async functions run in the program process; credentials from the environment here.

const EXTRA_PROJECTS = [
  "aged-moon-11111111",
  "bold-sea-22222222",
  "calm-sky-33333333",
  "dark-field-44444444",
];

/** The demo account plus four more personal projects of the demo user, so listings take several pages. */
function seed(): SeedFile {
  const base = demoSeed();
  const projects = EXTRA_PROJECTS.map((id, i) => ({
    id,
    name: `extra-${i}`,
    owner_user_id: DEMO.userId,
    region_id: "aws-us-east-2",
    pg_version: 17,
    created_at: `2025-11-2${i + 1}T10:00:00Z`,
    default_branch: { id: `br-main-${id}`, name: "main", endpoints: [] },
  }));
  return { ...base, projects: [...(base.projects ?? []), ...projects] } as SeedFile;
}

function resolved<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

describe("data sources against the emulator", () => {
  const harness = useEmulator({ seed: seed() });
  beforeEach(() => harness.emulator.control.clearRequests());
  afterEach(() => {
    sinon.restore();
    harness.emulator.control.clearFaults();
  });

  const mine = [DEMO.projectId, ...EXTRA_PROJECTS].sort();

  describe("getProjects", () => {
    it("lists every page, with the contract's fields in camelCase", async () => {
      const result = await getProjects({ limit: 2 });
      assert.deepEqual(result.projects.map((p) => p.id).sort(), mine);
      assert.deepEqual(result.unavailableProjectIds, []);
      const pages = harness.emulator.control.requests({ route: "GET /projects" });
      assert.ok(pages.length >= 3, `read ${pages.length} pages of 2`);
      assert.ok(pages.every((r) => r.query.includes("limit=2")));
      const demo = result.projects.find((p) => p.id === DEMO.projectId);
      assert.ok(demo);
      assert.equal(demo.name, "demo-personal");
      assert.equal(demo.regionId, "aws-us-east-2");
      assert.equal(demo.pgVersion, 17);
      assert.equal(typeof demo.platformId, "string");
      assert.equal(typeof demo.proxyHost, "string");
      assert.equal(typeof demo.cpuUsedSec, "number");
      assert.equal(typeof demo.branchLogicalSizeLimit, "number");
      assert.match(demo.createdAt, /^2025-11-20T10:00:00/);
      assert.equal(demo.locked, false);
      for (const project of result.projects) {
        assert.ok(
          !Object.keys(project).some((k) => k.includes("_")),
          `camelCase only: ${Object.keys(project)}`,
        );
      }
    });

    it("passes search and orgId through", async () => {
      const found = await getProjects({ search: "extra-2" });
      assert.deepEqual(
        found.projects.map((p) => p.id),
        ["calm-sky-33333333"],
      );
      const org = await getProjects({ orgId: DEMO.orgId });
      assert.deepEqual(
        org.projects.map((p) => [p.id, p.orgId]),
        [[DEMO.orgProjectId, DEMO.orgId]],
      );
    });

    it("surfaces unavailable_project_ids: the list is partial", async () => {
      const all = await fetch(`${harness.emulator.url}/projects?limit=400`, {
        headers: { authorization: `Bearer ${DEMO.personalKey}` },
      }).then((r) => r.json() as Promise<{ projects: Array<{ id: string }> }>);
      const firstPage = all.projects.slice(0, 2);
      harness.emulator.control.failNext("GET /projects", {
        status: 200,
        body: {
          projects: firstPage,
          pagination: { cursor: firstPage[1]?.id },
          unavailable_project_ids: ["dry-sun-99999999"],
          applications: {},
          integrations: {},
        },
      });
      const result = await getProjects({ limit: 2 });
      assert.deepEqual(result.unavailableProjectIds, ["dry-sun-99999999"]);
      assert.deepEqual(result.projects.map((p) => p.id).sort(), mine, "the later pages were still read");
    });

    it("resolves getProjectsOutput from Inputs", async () => {
      const result = await resolved(getProjectsOutput({ search: "demo-personal" }));
      assert.deepEqual(
        result.projects.map((p) => p.id),
        [DEMO.projectId],
      );
    });

    it("takes an explicit key over the environment", async () => {
      const restore = setEnv({ CLOUDDB_API_KEY: undefined });
      try {
        const result = await getProjects({}, { apiKey: DEMO.memberPersonalKey });
        assert.deepEqual(
          result.projects.map((p) => p.id),
          [DEMO.memberProjectId],
        );
      } finally {
        restore();
      }
    });
  });

  describe("getRegions", () => {
    it("lists the regions with camelCase fields, the default one marked, and refuses an organization the key is not in", async () => {
      const { regions } = await getRegions();
      assert.ok(regions.length > 1);
      assert.deepEqual(
        regions.filter((r) => r.default).map((r) => r.regionId),
        ["aws-us-east-2"],
      );
      const ohio = regions.find((r) => r.regionId === "aws-us-east-2");
      assert.equal(ohio?.name, "AWS US East (Ohio)");
      assert.deepEqual((await getRegions({ orgId: DEMO.orgId })).regions, regions);
      await assert.rejects(
        getRegions({ orgId: "org-not-mine-00000000" }),
        /403 Forbidden: you are not a member of organization org-not-mine-00000000/,
      );
    });
  });

  describe("getPreloadLibraries", () => {
    it("lists the libraries of the project's Postgres version with camelCase fields, and its Output form gives the same", async () => {
      const { libraries } = await getPreloadLibraries({ projectId: DEMO.projectId });
      assert.deepEqual(libraries[0], {
        name: "pg_stat_statements",
        description: "Track planning and execution statistics of all SQL statements",
        version: "1.10",
        isDefault: true,
        isExperimental: false,
      });
      assert.ok(libraries.some((l) => l.name === "timescaledb" && !l.isDefault));
      assert.deepEqual(await resolved(getPreloadLibrariesOutput({ projectId: DEMO.projectId })), {
        libraries,
      });
      await assert.rejects(getPreloadLibraries({ projectId: "no-such-project-1234" }), (e) => isNotFound(e));
    });
  });

  describe("getOperations / getOperation", () => {
    before(() => {
      harness.emulator.control.addOperations(DEMO.projectId, 30);
    });

    it("lists operations newest first, with camelCase fields", async () => {
      const { operations } = await getOperations({ projectId: DEMO.projectId });
      const expected = harness.emulator.control
        .dumpState()
        .operations.filter((op) => op.project_id === DEMO.projectId);
      assert.equal(operations.length, expected.length);
      const times = operations.map((op) => op.createdAt);
      assert.deepEqual(times, [...times].sort().reverse(), "newest first");
      const [first] = operations;
      assert.ok(first);
      assert.equal(first.projectId, DEMO.projectId);
      assert.equal(typeof first.action, "string");
      assert.equal(typeof first.failuresCount, "number");
      assert.ok(!Object.keys(first).some((k) => k.includes("_")));
    });

    it("stops at maxItems without reading further pages", async () => {
      const all = (await getOperations({ projectId: DEMO.projectId })).operations;
      harness.emulator.control.clearRequests();
      const { operations } = await getOperations({ projectId: DEMO.projectId, maxItems: 7, pageSize: 3 });
      assert.deepEqual(
        operations.map((op) => op.id),
        all.slice(0, 7).map((op) => op.id),
      );
      const pages = harness.emulator.control.requests({
        route: `GET /projects/${DEMO.projectId}/operations`,
      });
      assert.equal(pages.length, 3, "3 + 3 + 1: no page after the seventh item");
    });

    it("returns nothing for maxItems 0 without a request", async () => {
      assert.deepEqual(await getOperations({ projectId: DEMO.projectId, maxItems: 0 }), { operations: [] });
      assert.equal(harness.emulator.control.requests().length, 0);
    });

    it("reads one operation, and its Output form resolves too", async () => {
      const [newest] = (await getOperations({ projectId: DEMO.projectId, maxItems: 1 })).operations;
      assert.ok(newest);
      const { operation } = await getOperation({ projectId: DEMO.projectId, operationId: newest.id });
      assert.deepEqual(operation, newest);
      const viaOutput = await resolved(
        getOperationOutput({ projectId: DEMO.projectId, operationId: newest.id }),
      );
      assert.deepEqual(viaOutput.operation, newest);
      const listed = await resolved(getOperationsOutput({ projectId: DEMO.projectId, maxItems: 2 }));
      assert.equal(listed.operations.length, 2);
    });

    it("rejects with a not-found error for an unknown operation", async () => {
      await assert.rejects(
        getOperation({ projectId: DEMO.projectId, operationId: "00000000-0000-4000-8000-000000000000" }),
        (err: Error & { status?: number }) => err.status === 404,
      );
    });
  });

  describe("getConnectionUri", () => {
    it("a role that does not exist: a not-found error naming the role, database and branch asked for, what to do, and the request id", async () => {
      const args = {
        projectId: DEMO.projectId,
        branchId: DEMO.branchId,
        databaseName: "neondb",
        roleName: "app_0123456789",
      };
      const err = await getConnectionUri(args).then(
        () => assert.fail("expected a not-found error"),
        (e: Error & { status?: number; requestId?: string }) => e,
      );
      assert.ok(isNotFound(err), String(err));
      assert.equal(err.status, 404);
      assert.match(
        err.message,
        new RegExp(
          `^getConnectionUri: no connection string for role "app_0123456789" and database "neondb" on branch ${DEMO.branchId} of project ${DEMO.projectId}: one of them does not exist\\.`,
        ),
      );
      assert.match(
        err.message,
        /pass that resource's output \(`role\.name`, `database\.name`, `branch\.branchId`\)/,
      );
      assert.match(err.message, /`pulumi up --refresh` creates it again/);
      assert.match(err.message, /role app_0123456789 not found on branch/, "the API's own words are kept");
      assert.ok(err.requestId !== undefined && err.message.includes(err.requestId), err.message);
      assert.ok(!err.message.includes(DEMO.personalKey), "the key is not in the message");
    });
  });
});
