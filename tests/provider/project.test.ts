import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import type { PartialFailure } from "../../provider/resources/errors";
import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import { PROJECT_CHANGES } from "../../provider/resources/project";
import {
  Project,
  type ProjectInputs,
  type ProjectOutputs,
  projectProvider,
} from "../../provider/resources/public/project";
import type { FakeApi } from "../client/support/fakeApi";
import { branch, database, endpoint, operation, project, role } from "../client/support/fixtures";
import { PROVIDER_TEXT, useFakeApi } from "./support";

// Project against a local fake of the API: the connection string kept as the secret output (and
// never in a partial failure's properties), the change table row by row, refresh and delete of a
// project that is gone, and the messages of bad inputs.

const P = "hidden-river-50598307";
const B = "br-main-00000000";
const URI = "postgresql://neondb_owner:AbC123dEf456@ep-silent-smoke-806639.us-east-2.aws.neon.tech/neondb";

function inputs(values: Partial<ProjectInputs> = {}): ProjectInputs {
  return { name: "shop", ...values, __provider: PROVIDER_TEXT } as ProjectInputs;
}

/** The state of a project made with `values`. */
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
    defaultBranchId: B,
    defaultEndpointId: "ep-silent-smoke-806639",
    defaultRoleName: "neondb_owner",
    defaultDatabaseName: "neondb",
    host: "ep-silent-smoke-806639.us-east-2.aws.neon.tech",
    connectionUri: URI,
    createdAt: "2025-01-01T00:00:00Z",
    operationIds: [],
    pendingOperationIds: [],
    ...values,
  } as ProjectOutputs;
}

/** The API's answer to `POST /projects`. */
function created(overrides: Record<string, unknown> = {}) {
  return {
    project: project(P, {
      name: "shop",
      history_retention_seconds: 86400,
      default_endpoint_settings: {
        autoscaling_limit_min_cu: 0.25,
        autoscaling_limit_max_cu: 1,
        suspend_timeout_seconds: 0,
      },
    }),
    branch: branch({ id: B, name: "main", default: true, parent_id: undefined }),
    endpoints: [endpoint({ branch_id: B })],
    roles: [role({ name: "neondb_owner", branch_id: B, password: "AbC123dEf456" })],
    databases: [database({ name: "neondb", owner_name: "neondb_owner", branch_id: B })],
    operations: [operation({ project_id: P, action: "start_compute" })],
    connection_uris: [{ connection_uri: URI }],
    ...overrides,
  };
}

describe("Project provider against a fake API", () => {
  const fake = useFakeApi();
  let api: FakeApi;
  beforeEach(() => {
    api = fake.api;
  });

  it("creates the project with the API's field names, waits for its operations and keeps the connection string", async () => {
    const answer = created();
    api.route("POST", "/projects", { status: 201, json: answer });
    const made = await projectProvider.create(
      inputs({
        regionId: "aws-us-east-2",
        pgVersion: 17,
        historyRetentionSeconds: 86400,
        defaultEndpointSettings: { autoscalingLimitMaxCu: 1 },
      }),
    );
    assert.equal(made.id, P);
    assert.deepEqual(api.requests[0]?.body, {
      project: {
        name: "shop",
        region_id: "aws-us-east-2",
        pg_version: 17,
        history_retention_seconds: 86400,
        default_endpoint_settings: { autoscaling_limit_max_cu: 1 },
      },
    });
    assert.deepEqual(api.log(), [
      "POST /projects",
      `GET /projects/${P}/operations/${answer.operations[0]?.id}`,
    ]);
    const outs = made.outs as ProjectOutputs;
    assert.equal(outs.connectionUri, URI);
    assert.deepEqual(
      [
        outs.defaultBranchId,
        outs.defaultEndpointId,
        outs.defaultRoleName,
        outs.defaultDatabaseName,
        outs.host,
      ],
      [
        B,
        "ep-silent-smoke-806639",
        "neondb_owner",
        "neondb",
        "ep-silent-smoke-806639.us-east-2.aws.neon.tech",
      ],
    );
    // Only the declared default settings are recorded, so the API's other defaults make no diff.
    assert.deepEqual(outs.defaultEndpointSettings, { autoscalingLimitMaxCu: 1 });
  });

  it("reads the connection string from the connection_uri route when the create answer has none", async () => {
    api.route("POST", "/projects", { status: 201, json: created({ connection_uris: [] }) });
    api.route("GET", "/projects/:project_id/connection_uri", { json: { uri: URI } });
    const outs = (await projectProvider.create(inputs())).outs as ProjectOutputs;
    assert.equal(outs.connectionUri, URI);
    const query = api.requests.at(-1)?.query;
    assert.deepEqual(
      [query?.get("role_name"), query?.get("database_name"), query?.get("branch_id")],
      ["neondb_owner", "neondb", B],
    );
  });

  it("records a project whose operation failed without its connection string, and the resuming update reads it again", async () => {
    const answer = created();
    const op = answer.operations[0]!;
    api.route("POST", "/projects", { status: 201, json: answer });
    api.route("GET", "/projects/:project_id/operations/:operation_id", {
      json: { operation: { ...op, status: "error" } },
    });
    const err = (await projectProvider.create(inputs()).then(
      () => assert.fail("expected a partial failure"),
      (e: PartialFailure) => e,
    )) as PartialFailure;
    assert.equal(err.id, P);
    assert.ok(
      !JSON.stringify(err.properties).includes("AbC123dEf456"),
      "no password in the recorded properties",
    );
    assert.ok(!err.message.includes("AbC123dEf456"));
    api.route("GET", "/projects/:project_id/operations/:operation_id", {
      json: { operation: { ...op, status: "finished" } },
    });
    api.route("GET", "/projects/:project_id/connection_uri", { json: { uri: URI } });
    const updated = await projectProvider.update!(
      err.id,
      err.properties as unknown as ProjectOutputs,
      inputs(),
    );
    assert.equal(updated.outs?.connectionUri, URI);
    assert.deepEqual(updated.outs?.pendingOperationIds, []);
  });

  it("replaces on a change of region, Postgres version or organization and updates the rest in place, one row each", async () => {
    const olds = state();
    const cases: Record<keyof typeof PROJECT_CHANGES, Partial<ProjectInputs>> = {
      regionId: { regionId: "aws-eu-central-1" },
      pgVersion: { pgVersion: 16 },
      orgId: { orgId: "org-quiet-forest-27188409" },
      name: { name: "shop-2" },
      historyRetentionSeconds: { historyRetentionSeconds: 3600 },
      defaultEndpointSettings: { defaultEndpointSettings: { suspendTimeoutSeconds: 300 } },
      deleteProtection: { deleteProtection: true },
      timeouts: { timeouts: { delete: 30 } },
      adoptExisting: { adoptExisting: "other-project-1" },
    };
    for (const [input, change] of Object.entries(PROJECT_CHANGES)) {
      const result = await projectProvider.diff!(
        P,
        olds,
        inputs(cases[input as keyof typeof PROJECT_CHANGES]),
      );
      assert.deepEqual(result.replaces, change === "replace" ? [input] : [], input);
      assert.equal(result.changes, change !== "ignore", input);
    }
    assert.deepEqual(api.log(), [], "diff made no API call");
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
    api.route("PATCH", "/projects/:project_id", {
      json: {
        project: project(P, {
          name: "shop-2",
          history_retention_seconds: 86400,
          default_endpoint_settings: {
            autoscaling_limit_min_cu: 0.25,
            autoscaling_limit_max_cu: 2,
            suspend_timeout_seconds: 0,
          },
        }),
        operations: [],
      },
    });
    const news = inputs({
      name: "shop-2",
      historyRetentionSeconds: 86400,
      defaultEndpointSettings: { autoscalingLimitMaxCu: 2 },
    });
    const outs = (await projectProvider.update!(P, state(), news)).outs as ProjectOutputs;
    assert.deepEqual(api.log(), [`PATCH /projects/${P}`]);
    assert.deepEqual(api.requests[0]?.body, {
      project: { name: "shop-2", default_endpoint_settings: { autoscaling_limit_max_cu: 2 } },
    });
    assert.deepEqual([outs.name, outs.defaultEndpointSettings], ["shop-2", { autoscalingLimitMaxCu: 2 }]);
    assert.equal(outs.connectionUri, URI);
  });

  it("drops a project deleted out of band on refresh, and counts deleting it as done", async () => {
    api.route("GET", "/projects/:project_id", {
      status: 404,
      json: { code: "", message: "project not found" },
    });
    api.route("DELETE", "/projects/:project_id", {
      status: 404,
      json: { code: "", message: "project not found" },
    });
    assert.deepEqual(await projectProvider.read!(P, state()), { id: "" });
    await projectProvider.delete!(P, state());
    assert.deepEqual(api.log(), [`GET /projects/${P}`, `DELETE /projects/${P}`]);
  });

  it("refuses to delete a project with deleteProtection, without calling the API", async () => {
    await assert.rejects(
      projectProvider.delete!(P, state({ deleteProtection: true })),
      /set deleteProtection: false/,
    );
    assert.deepEqual(api.log(), []);
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
      assert.deepEqual(registered, [["connectionUri"]]);
      assert.ok(pulumi.Output.isInstance(made.connectionUri));
    } finally {
      monitor.registerResource = original;
    }
  });
});
