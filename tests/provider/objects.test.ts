import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import { DEMO } from "../../emulator";
import { getConnectionUri, getConnectionUriOutput } from "../../provider";
import {
  type EndpointInputs,
  type EndpointOutputs,
  endpointProvider,
} from "../../provider/resources/public/endpoint";
import {
  type ProjectInputs,
  type ProjectOutputs,
  projectProvider,
} from "../../provider/resources/public/project";
import { PROVIDER_TEXT, projectIdle, useEmulator } from "./support";

// Project, Endpoint and getConnectionUri against the emulator: the routes as the service serves them,
// operations waited on, refresh and delete of what is gone.

const projectInputs = (values: Partial<ProjectInputs> = {}) =>
  ({ ...values, __provider: PROVIDER_TEXT }) as ProjectInputs;
const endpointInputs = (values: Partial<EndpointInputs>) =>
  ({ projectId: DEMO.projectId, ...values, __provider: PROVIDER_TEXT }) as EndpointInputs;

describe("Project, Endpoint and getConnectionUri against the emulator", () => {
  const harness = useEmulator();
  const dumpState = () => harness.emulator.control.dumpState();

  describe("Project", () => {
    it("creates a project, waits for its operations, and returns its defaults and a working connection string", async () => {
      const made = await projectProvider.create(
        projectInputs({
          name: "objects-created",
          regionId: "aws-eu-central-1",
          pgVersion: 16,
          historyRetentionSeconds: 3600,
          defaultEndpointSettings: { autoscalingLimitMinCu: 0.5, autoscalingLimitMaxCu: 2 },
        }),
      );
      const outs = made.outs as ProjectOutputs;
      assert.equal(made.id, outs.projectId);
      assert.deepEqual(
        [outs.name, outs.regionId, outs.pgVersion, outs.historyRetentionSeconds],
        ["objects-created", "aws-eu-central-1", 16, 3600],
      );
      assert.deepEqual(outs.defaultEndpointSettings, {
        autoscalingLimitMinCu: 0.5,
        autoscalingLimitMaxCu: 2,
      });
      const ops = dumpState().operations.filter((op) => outs.operationIds.includes(op.id));
      assert.ok(ops.length > 0);
      for (const op of ops)
        assert.equal(op.status, "finished", `${op.action} finished before create resolved`);
      assert.match(outs.defaultBranchId, /^br-/);
      assert.match(outs.defaultEndpointId ?? "", /^ep-/);
      assert.ok(outs.host?.startsWith(`${outs.defaultEndpointId}.`));
      assert.match(outs.connectionUri, /^postgresql:\/\/[^:]+:[^@]+@/);
      const direct = await getConnectionUri({
        projectId: outs.projectId,
        databaseName: outs.defaultDatabaseName!,
        roleName: outs.defaultRoleName!,
      });
      assert.equal(direct.uri, outs.connectionUri);
    });

    it("renames, changes retention and default compute settings with one PATCH, keeping the id", async () => {
      const olds = (await projectProvider.create(projectInputs({ name: "objects-patch" })))
        .outs as ProjectOutputs;
      const news = projectInputs({
        name: "objects-patched",
        historyRetentionSeconds: 7200,
        defaultEndpointSettings: { suspendTimeoutSeconds: 600 },
      });
      const diff = await projectProvider.diff!(olds.projectId, olds, news);
      assert.deepEqual([diff.changes, diff.replaces], [true, []]);
      harness.emulator.control.clearRequests();
      const outs = (await projectProvider.update!(olds.projectId, olds, news)).outs as ProjectOutputs;
      assert.deepEqual(harness.log(), [`PATCH /projects/${olds.projectId}`]);
      assert.deepEqual(
        [outs.projectId, outs.name, outs.historyRetentionSeconds, outs.defaultEndpointSettings],
        [olds.projectId, "objects-patched", 7200, { suspendTimeoutSeconds: 600 }],
      );
      assert.equal(outs.connectionUri, olds.connectionUri);
      const live = dumpState().projects.find((p) => p.id === olds.projectId);
      assert.equal(live?.default_endpoint_settings?.suspend_timeout_seconds, 600);
    });

    it("deletes the project for real; refresh then drops it and a second delete succeeds", async () => {
      const olds = (await projectProvider.create(projectInputs({ name: "objects-delete" })))
        .outs as ProjectOutputs;
      await projectProvider.delete!(olds.projectId, olds);
      assert.notEqual(dumpState().projects.find((p) => p.id === olds.projectId)?.deleted_at_ms, undefined);
      assert.deepEqual(await projectProvider.read!(olds.projectId, olds), { id: "" });
      await projectProvider.delete!(olds.projectId, olds);
    });

    it("finds a named project whose create answer was lost, without re-sending the POST", async () => {
      harness.emulator.control.clearRequests();
      harness.emulator.control.failNext("POST /projects", { afterHandler: true, reset: true });
      const made = await projectProvider.create(projectInputs({ name: "objects-answer-lost" }));
      const live = dumpState().projects.filter((p) => p.name === "objects-answer-lost");
      assert.deepEqual(
        live.map((p) => p.id),
        [made.id],
      );
      assert.equal(harness.emulator.control.requests({ route: "POST /projects" }).length, 1);
      const outs = made.outs as ProjectOutputs;
      assert.match(outs.connectionUri, /^postgresql:\/\//);
      for (const op of dumpState().operations.filter((o) => o.project_id === made.id))
        assert.equal(op.status, "finished", `${op.action} finished before create resolved`);
    });

    it("reports an unnamed project whose create answer was lost, without re-sending", async () => {
      harness.emulator.control.clearRequests();
      harness.emulator.control.failNext("POST /projects", { afterHandler: true, status: 502 });
      await assert.rejects(
        projectProvider.create(projectInputs({})),
        /not re-sent because the change may have been applied/,
      );
      assert.equal(harness.emulator.control.requests({ route: "POST /projects" }).length, 1);
    });

    it("adopts an existing project by id, reading its default branch, compute, role, database and connection string", async () => {
      harness.emulator.control.clearRequests();
      const made = await projectProvider.create(projectInputs({ adoptExisting: DEMO.projectId }));
      const outs = made.outs as ProjectOutputs;
      assert.equal(made.id, DEMO.projectId);
      assert.deepEqual([outs.defaultBranchId, outs.defaultEndpointId], [DEMO.branchId, DEMO.endpointId]);
      assert.match(outs.connectionUri, /^postgresql:\/\//);
      assert.ok(!harness.log().some((l) => !l.startsWith("GET")), "adoption changed nothing");
    });

    it("refuses to adopt a project whose Postgres version differs, naming the input to fix", async () => {
      const live = dumpState().projects.find((p) => p.id === DEMO.projectId);
      const other = live?.pg_version === 14 ? 15 : 14;
      await assert.rejects(
        projectProvider.create(projectInputs({ adoptExisting: DEMO.projectId, pgVersion: other })),
        (err: Error) => {
          assert.match(
            err.message,
            new RegExp(
              `project ${DEMO.projectId} has pgVersion ${live?.pg_version}, not ${other}; fix pgVersion`,
            ),
          );
          return true;
        },
      );
    });
  });

  describe("Endpoint", () => {
    let branchId: string;
    before(async () => {
      const created = await fetch(`${harness.emulator.url}/projects/${DEMO.projectId}/branches`, {
        method: "POST",
        headers: { authorization: `Bearer ${DEMO.personalKey}`, "content-type": "application/json" },
        body: JSON.stringify({ branch: { name: "objects-endpoints" } }),
      });
      assert.equal(created.status, 201);
      branchId = ((await created.json()) as { branch: { id: string } }).branch.id;
      await projectIdle(harness.emulator, DEMO.projectId);
    });

    it("creates a read_write compute with its sizes, waits for start_compute, and reports its hosts", async () => {
      const made = await endpointProvider.create(
        endpointInputs({
          branchId,
          autoscalingLimitMinCu: 0.5,
          autoscalingLimitMaxCu: 2,
          poolerEnabled: true,
        }),
      );
      const outs = made.outs as EndpointOutputs;
      assert.equal(made.id, outs.endpointId);
      assert.deepEqual(
        [
          outs.type,
          outs.autoscalingLimitMinCu,
          outs.autoscalingLimitMaxCu,
          outs.poolerEnabled,
          outs.currentState,
        ],
        ["read_write", 0.5, 2, true, "active"],
      );
      assert.equal(outs.host, `${outs.endpointId}.${outs.host.split(".").slice(1).join(".")}`);
      assert.equal(outs.pooledHost, outs.host.replace(outs.endpointId, `${outs.endpointId}-pooler`));
      const ops = dumpState().operations.filter((op) => outs.operationIds.includes(op.id));
      assert.deepEqual(
        ops.map((op) => [op.action, op.status]),
        [["start_compute", "finished"]],
      );
    });

    it("resizes in place with a PATCH of only the changed settings, then replaces on a type change", async () => {
      const created = (await endpointProvider.create(endpointInputs({ branchId, type: "read_only" })))
        .outs as EndpointOutputs;
      const news = endpointInputs({
        branchId,
        type: "read_only",
        autoscalingLimitMaxCu: 4,
        suspendTimeoutSeconds: 300,
      });
      const diff = await endpointProvider.diff!(created.endpointId, created, news);
      assert.deepEqual([diff.changes, diff.replaces], [true, []]);
      harness.emulator.control.clearRequests();
      const outs = (await endpointProvider.update!(created.endpointId, created, news))
        .outs as EndpointOutputs;
      assert.equal(harness.log().filter((l) => l.startsWith("PATCH")).length, 1);
      const live = dumpState().endpoints.find((e) => e.id === created.endpointId);
      assert.deepEqual(
        [live?.compute?.autoscaling_limit_min_cu, live?.compute?.autoscaling_limit_max_cu],
        [created.autoscalingLimitMinCu, 4],
      );
      assert.deepEqual(
        [outs.endpointId, outs.autoscalingLimitMaxCu, outs.suspendTimeoutSeconds],
        [created.endpointId, 4, 300],
      );
      const replace = await endpointProvider.diff!(outs.endpointId, outs, { ...news, type: "read_write" });
      assert.deepEqual(replace.replaces, ["type"]);
    });

    it("drops a compute deleted out of band on refresh, and counts deleting it again as done", async () => {
      const outs = (await endpointProvider.create(endpointInputs({ branchId, type: "read_only" })))
        .outs as EndpointOutputs;
      await endpointProvider.delete!(outs.endpointId, outs);
      assert.equal(
        dumpState().endpoints.some((e) => e.id === outs.endpointId),
        false,
      );
      assert.deepEqual(await endpointProvider.read!(outs.endpointId, outs), { id: "" });
      await endpointProvider.delete!(outs.endpointId, outs);
    });
  });

  describe("getConnectionUri", () => {
    it("reads the pooled connection string of a branch's compute, and its Output form is a secret", async () => {
      const args = {
        projectId: DEMO.projectId,
        branchId: DEMO.branchId,
        endpointId: DEMO.endpointId,
        databaseName: "neondb",
        roleName: "neondb_owner",
        pooled: true,
      };
      const plain = await getConnectionUri(args);
      assert.match(plain.uri, new RegExp(`^postgresql://neondb_owner:[^@]+@${DEMO.endpointId}-pooler\\.`));
      const output = getConnectionUriOutput({ ...args, projectId: pulumi.output(DEMO.projectId) });
      assert.equal(await pulumi.isSecret(output), true);
      const resolved = await new Promise<{ uri: string }>((resolve) => output.apply(resolve));
      assert.equal(resolved.uri, plain.uri);
    });

    it("fails naming what is missing when the role does not exist", async () => {
      await assert.rejects(
        getConnectionUri({ projectId: DEMO.projectId, databaseName: "neondb", roleName: "nobody" }),
        /role nobody not found/,
      );
    });
  });
});
