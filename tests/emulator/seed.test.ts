import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, demoSeed, type SeedFile } from "../../emulator";
import { api, start } from "./helpers";

// Seeds: "demo" (fixed ids and tokens), "empty", an object, a JSON file; invalid seeds fail clearly.

describe("seeds", () => {
  it("starts from the demo account by default, with real-looking ids and napi_ tokens", async () => {
    const emu = await start();
    try {
      const state = emu.control.dumpState();
      assert.deepEqual(
        state.projects.map((p) => p.id).sort(),
        [DEMO.memberProjectId, DEMO.projectId, DEMO.orgProjectId].sort(),
      );
      assert.deepEqual(
        state.apiKeys.map((k) => k.kind),
        ["personal", "personal", "organization", "project"],
      );
      for (const key of [DEMO.personalKey, DEMO.memberPersonalKey, DEMO.orgKey, DEMO.projectKey]) {
        assert.match(key, /^napi_[a-z0-9]{64}$/);
      }
      assert.match(DEMO.projectId, /^[a-z]+-[a-z]+-\d{8}$/);
      assert.match(DEMO.orgId, /^org-[a-z]+-[a-z]+-\d{8}$/);
      assert.equal(state.organizations[0]?.members[DEMO.userId], "admin");
      assert.equal(state.organizations[0]?.members[DEMO.memberUserId], "member");
      const main = await api(emu, DEMO.personalKey).get(
        `/projects/${DEMO.projectId}/branches/${DEMO.branchId}`,
      );
      assert.equal(main.body.branch.name, "main");
      assert.equal(main.body.branch.default, true);
    } finally {
      await emu.stop();
    }
  });

  it("starts empty: no key works", async () => {
    const emu = await start({ seed: "empty" });
    try {
      assert.equal((await api(emu, DEMO.personalKey).get("/projects")).status, 401);
    } finally {
      await emu.stop();
    }
  });

  it("loads a JSON seed file with all three key kinds and extra branches", async () => {
    const dir = mkdtempSync(join(tmpdir(), "clouddb-seed-"));
    const seed: SeedFile = demoSeed();
    const project0 = seed.projects?.[0];
    if (project0)
      project0.branches = [
        {
          id: "br-seeded-child-a0000001",
          name: "child",
          endpoints: [{ id: "ep-seeded-child-a0000001", type: "read_only" }],
        },
      ];
    const path = join(dir, "seed.json");
    writeFileSync(path, JSON.stringify(seed));
    const emu = await start({ seed: path });
    try {
      const demo = api(emu, DEMO.personalKey);
      const child = await demo.get(`/projects/${DEMO.projectId}/branches/br-seeded-child-a0000001`);
      assert.equal(child.body.branch.parent_id, DEMO.branchId);
      assert.equal((await api(emu, DEMO.orgKey).get(`/projects/${DEMO.orgProjectId}`)).status, 200);
      assert.equal((await api(emu, DEMO.projectKey).get(`/projects/${DEMO.orgProjectId}`)).status, 200);
      assert.equal((await demo.delete(`/projects/${DEMO.projectId}/branches/${DEMO.branchId}`)).status, 422);
    } finally {
      await emu.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const broken: Array<[string, (s: SeedFile) => void, RegExp]> = [
    [
      "a malformed token",
      (s) => {
        if (s.api_keys?.[0]) s.api_keys[0].token = "napi_short";
      },
      /api_keys\.0\.token/,
    ],
    [
      "an unknown project owner",
      (s) => {
        if (s.projects?.[0]) s.projects[0].owner_user_id = "00000000-0000-4000-8000-000000000000";
      },
      /unknown owner/,
    ],
    [
      "a project-scoped key outside its organization",
      (s) => {
        if (s.api_keys?.[3]) s.api_keys[3].project_id = DEMO.projectId;
      },
      /needs a project_id owned by/,
    ],
    [
      "a duplicate id",
      (s) => {
        if (s.projects?.[1]) s.projects[1].id = DEMO.projectId;
      },
      /duplicate project id/,
    ],
    [
      "a role name Postgres reserves",
      (s) => {
        if (s.projects?.[0]) s.projects[0].role_name = "pg_owner";
      },
      /role name "pg_owner" is reserved/,
    ],
    [
      "a database named like one every Postgres server has",
      (s) => {
        if (s.projects?.[0]) s.projects[0].database_name = "template0";
      },
      /database name "template0" is reserved/,
    ],
  ];
  for (const [what, breakIt, message] of broken) {
    it(`refuses a seed with ${what}`, async () => {
      const seed = demoSeed();
      breakIt(seed);
      await assert.rejects(start({ seed }), message);
    });
  }

  it("gives a seeded project that names no region, version, role, database or size the defaults of a project created through the API", async () => {
    const seed = demoSeed();
    seed.api_keys = seed.api_keys?.filter((k) => k.kind === "personal");
    seed.projects = [
      {
        id: "bare-seed-10000001",
        name: "bare",
        owner_user_id: DEMO.userId,
        default_branch: {
          id: "br-bare-seed-a0000001",
          name: "main",
          endpoints: [{ id: "ep-bare-seed-a0000001", type: "read_write" }],
        },
      },
    ];
    const emu = await start({ seed });
    try {
      const client = api(emu, DEMO.personalKey);
      const made = await client.post("/projects", { project: {} });
      assert.equal(made.status, 201);
      const madeId: string = made.body.project.id;
      const madeBranch: string = made.body.branch.id;
      const view = async (projectId: string, branchId: string) => {
        const project = (await client.get(`/projects/${projectId}`)).body.project;
        const endpoint = (await client.get(`/projects/${projectId}/branches/${branchId}/endpoints`)).body
          .endpoints[0];
        const roles = (await client.get(`/projects/${projectId}/branches/${branchId}/roles`)).body.roles;
        const databases = (await client.get(`/projects/${projectId}/branches/${branchId}/databases`)).body
          .databases;
        return {
          region: project.region_id,
          pgVersion: project.pg_version,
          provisioner: project.provisioner,
          retention: project.history_retention_seconds,
          defaultCompute: project.default_endpoint_settings,
          endpointCompute: [
            endpoint.autoscaling_limit_min_cu,
            endpoint.autoscaling_limit_max_cu,
            endpoint.suspend_timeout_seconds,
          ],
          roles: roles.map((r: { name: string }) => r.name),
          databases: databases.map((d: { name: string; owner_name: string }) => [d.name, d.owner_name]),
        };
      };
      const seeded = await view("bare-seed-10000001", "br-bare-seed-a0000001");
      assert.deepEqual(seeded, await view(madeId, madeBranch));
      assert.equal(seeded.region, "aws-us-east-2");
      assert.deepEqual(seeded.databases, [["neondb", "neondb_owner"]]);
    } finally {
      await emu.stop();
    }
  });

  it("replaces the whole state with control.seed", async () => {
    const emu = await start();
    try {
      emu.control.seed("empty");
      assert.equal((await api(emu, DEMO.personalKey).get("/projects")).status, 401);
      emu.control.seed("demo");
      assert.equal((await api(emu, DEMO.personalKey).get("/projects")).status, 200);
    } finally {
      await emu.stop();
    }
  });
});
