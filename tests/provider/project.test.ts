import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import { DEMO } from "../../emulator";
import type { PartialFailure } from "../../provider/resources/errors";
import { projectDefinition } from "../../provider/resources/project";
import { Project, type ProjectOutputs, projectProvider } from "../../provider/resources/public/project";
import { projectInputs, projectState, useProjectSuite } from "./support";

// Project against the emulator (objects.test.ts covers defaults, lost answers, adoption and delete):
// the connection string kept as the secret output (and never in a partial failure's properties),
// read from its own route when the create answer has none; delete protection; the class's secret
// outputs. Its changes are in project.settings.test.ts, its preview's refusals in project.preview.test.ts.

const P = DEMO.projectId;

describe("Project provider against the emulator", () => {
  const { harness, control, stored, withoutUriInAnswer } = useProjectSuite();

  it("creates the project with the API's field names, waits for its operations and keeps the connection string", async () => {
    const made = await projectProvider.create(
      projectInputs({
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
      const outs = (await projectProvider.create(projectInputs({ name: "no-uri-in-answer" })))
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
      const err = (await projectProvider.create(projectInputs({ name: "uri-read-fails" })).then(
        () => assert.fail("expected a partial failure"),
        (e: PartialFailure) => e,
      )) as PartialFailure;
      assert.equal(err.id, stored(err.id)?.id, `the project is recorded: ${err.message}`);
      assert.match(err.message, /It is recorded in the state/);
      const recorded = err.properties as unknown as ProjectOutputs;
      assert.equal(recorded.connectionUri, "");
      const diff = await projectProvider.diff!(err.id, recorded, projectInputs({ name: "uri-read-fails" }));
      assert.equal(diff.changes, true, "the next up resumes it");
      const updated = await projectProvider.update!(
        err.id,
        recorded,
        projectInputs({ name: "uri-read-fails" }),
      );
      assert.match(updated.outs?.connectionUri ?? "", /^postgresql:\/\//);
    });
  });

  it("records a project whose compute start was cancelled without its connection string, and the resuming update reads it again", async () => {
    control().scriptOperations({ action: "start_compute", count: 1 }, { kind: "cancelled" });
    const err = (await projectProvider.create(projectInputs({ name: "half-made" })).then(
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
      projectInputs({ name: "half-made" }),
    );
    assert.match(updated.outs?.connectionUri ?? "", /^postgresql:\/\//);
    assert.ok(passwords.some((p) => updated.outs?.connectionUri.includes(p)));
    assert.deepEqual(updated.outs?.pendingOperationIds, []);
  });

  it("refuses to delete a project with deleteProtection, without calling the API", async () => {
    await assert.rejects(
      projectProvider.delete!(P, projectState({ deleteProtection: true })),
      /set deleteProtection: false/,
    );
    assert.deepEqual(harness.log(), []);
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
