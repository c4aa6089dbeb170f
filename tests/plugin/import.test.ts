import assert from "node:assert/strict";
import { DEMO, type RunningEmulator } from "../../emulator";
import { createClient } from "../../provider/client";
import { projectIdle } from "../provider/support";
import {
  forResource,
  isSecret,
  isSecretUri,
  type Plugin,
  proto,
  rejection,
  struct,
  usePlugins,
} from "./support";

// `pulumi import` sends the plugin a Read with the id the user typed and no state. Each kind but
// ApiKey takes an id that carries what the read needs, and answers with the object's own id, its
// outputs (credentials as secrets) and the inputs a program declares it with.

describe("the provider plugin importing what exists (a Read without state)", function () {
  this.timeout(60_000);
  const suite = usePlugins({ opDurationMs: 20 }, [DEMO.personalKey]);
  let emulator: RunningEmulator;
  let plugin: Plugin;
  let role: { name: string; password?: string | undefined };
  let database: { name: string; owner_name?: string | undefined };

  before(async () => {
    emulator = suite.emulator;
    plugin = suite.plugins[0] as Plugin;
    // A role and a database made outside Pulumi, as a script would.
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    role = (await client.createRole(DEMO.projectId, DEMO.branchId, { role: { name: "made_by_hand" } })).role;
    await projectIdle(emulator, DEMO.projectId);
    database = (
      await client.createDatabase(DEMO.projectId, DEMO.branchId, {
        database: { name: "made_by_hand", owner_name: role.name },
      })
    ).database;
    await projectIdle(emulator, DEMO.projectId);
  });

  async function imported(type: string, id: string) {
    const request = forResource(new proto.ReadRequest(), `clouddb:index:${type}`, "imported").setId(id);
    const response = await plugin.call<proto.ReadRequest, proto.ReadResponse>("read", request);
    return {
      id: response.getId(),
      outs: (response.getProperties()?.toJavaScript() ?? {}) as Record<string, unknown>,
      inputs: (response.getInputs()?.toJavaScript() ?? {}) as Record<string, unknown>,
    };
  }

  /** What the engine does after an import: checks the inputs the import wrote, then diffs them with the outputs; none may change. */
  async function checksClean(type: string, found: Awaited<ReturnType<typeof imported>>): Promise<void> {
    const token = `clouddb:index:${type}`;
    const check = forResource(new proto.CheckRequest(), token, "imported")
      .setOlds(struct(found.inputs))
      .setNews(struct(found.inputs));
    const checked = await plugin.call<proto.CheckRequest, proto.CheckResponse>("check", check);
    assert.deepEqual(
      checked.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`),
      [],
    );
    const diff = forResource(new proto.DiffRequest(), token, "imported")
      .setId(found.id)
      .setOlds(struct(found.outs))
      .setNews(checked.getInputs() ?? struct({}));
    const diffed = await plugin.call<proto.DiffRequest, proto.DiffResponse>("diff", diff);
    assert.equal(diffed.getChanges(), proto.DiffResponse.DiffChanges.DIFF_NONE, type);
  }

  it("imports a project by <projectId>, its connection string a secret", async () => {
    const project = await imported("Project", DEMO.projectId);
    assert.equal(project.id, DEMO.projectId);
    assert.equal(project.outs.defaultBranchId, DEMO.branchId);
    assert.ok(isSecretUri(project.outs.connectionUri), JSON.stringify(project.outs.connectionUri));
    assert.equal(typeof project.inputs.name, "string", "the inputs name the project as a program would");
  });

  it("imports a branch by <projectId>/<branchId> and answers with the branch's own id", async () => {
    const branch = await imported("Branch", `${DEMO.projectId}/${DEMO.branchId}`);
    assert.equal(branch.id, DEMO.branchId);
    assert.equal(branch.outs.projectId, DEMO.projectId);
    assert.ok(isSecretUri(branch.outs.connectionUri), JSON.stringify(branch.outs.connectionUri));
    assert.deepEqual(branch.inputs.endpoints, [{ type: "read_write" }]);
    assert.equal(branch.inputs.projectId, DEMO.projectId);
  });

  it("imports a compute endpoint by <projectId>/<endpointId>, with the branch it is on", async () => {
    const endpoint = await imported("Endpoint", `${DEMO.projectId}/${DEMO.endpointId}`);
    assert.equal(endpoint.id, DEMO.endpointId);
    assert.equal(endpoint.inputs.branchId, DEMO.branchId);
    assert.equal(endpoint.inputs.projectId, DEMO.projectId);
  });

  it("imports a role by <projectId>/<branchId>/<roleName>, its password a secret", async () => {
    const found = await imported("Role", `${DEMO.projectId}/${DEMO.branchId}/${role.name}`);
    assert.equal(found.id, `${DEMO.branchId}/${role.name}`);
    assert.ok(isSecret(found.outs.password), "the password is sent as a secret");
    assert.equal((found.outs.password as { value: unknown }).value, role.password);
    assert.deepEqual(
      { projectId: found.inputs.projectId, branchId: found.inputs.branchId, name: found.inputs.name },
      { projectId: DEMO.projectId, branchId: DEMO.branchId, name: role.name },
    );
  });

  it("imports a database by <projectId>/<branchId>/<databaseName>, with its owner", async () => {
    const found = await imported("Database", `${DEMO.projectId}/${DEMO.branchId}/${database.name}`);
    assert.equal(found.outs.name, database.name);
    assert.equal(found.inputs.ownerName, database.owner_name);
    assert.equal(found.outs.branchId, DEMO.branchId);
  });

  it("imports a yearly backup schedule made outside Pulumi by <projectId>/<branchId>; its inputs check and diff clean", async () => {
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    const entry = { frequency: "yearly", hour: 2, day: 1, month: 1, retention_seconds: 31_536_000 };
    await client.setBackupSchedule(DEMO.projectId, DEMO.branchId, [entry]);
    const found = await imported("BackupSchedule", `${DEMO.projectId}/${DEMO.branchId}`);
    assert.equal(found.id, DEMO.branchId);
    const declared = [{ frequency: "yearly", hour: 2, day: 1, month: 1, retentionSeconds: 31_536_000 }];
    assert.deepEqual(found.inputs.schedule, declared);
    await checksClean("BackupSchedule", found);
    await client.setBackupSchedule(DEMO.projectId, DEMO.branchId, []);
  });

  it("imports an organization's member by <orgId>/<email>, its spending limit by <orgId> and an invitation by <orgId>/<email>; their inputs check and diff clean", async () => {
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    await client.setOrgSpendingLimit(DEMO.orgId, 40_000);
    await client.inviteOrgMembers(DEMO.orgId, [{ email: "imported@example.com", role: "admin" }]);
    const cases = [
      { type: "OrganizationMember", id: `${DEMO.orgId}/casey@example.com`, inputs: { role: "member" } },
      { type: "OrganizationSpendingLimit", id: DEMO.orgId, inputs: { spendingLimitCents: 40_000 } },
      {
        type: "OrganizationInvitation",
        id: `${DEMO.orgId}/imported@example.com`,
        inputs: { email: "imported@example.com", role: "admin" },
      },
    ];
    for (const { type, id, inputs } of cases) {
      const found = await imported(type, id);
      assert.notEqual(found.id, "", `${type} ${id} is found`);
      assert.deepEqual({ ...found.inputs, ...inputs }, found.inputs, `${type}'s inputs`);
      await checksClean(type, found);
    }
    await client.clearOrgSpendingLimit(DEMO.orgId);
  });

  it("imports a member's project role by <projectId>/<email>; its inputs check and diff clean", async () => {
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    const casey = (await client.listProjectMembers(DEMO.orgProjectId)).find(
      (m) => m.email === "casey@example.com",
    );
    assert.ok(casey);
    await client.setProjectMemberRole(DEMO.orgProjectId, casey.member_id, "editor");
    const found = await imported("ProjectMember", `${DEMO.orgProjectId}/casey@example.com`);
    assert.equal(found.id, `${DEMO.orgProjectId}/${casey.member_id}`);
    assert.deepEqual(
      [found.inputs.projectId, found.inputs.memberId, found.inputs.email, found.inputs.role],
      [DEMO.orgProjectId, casey.member_id, "casey@example.com", "editor"],
    );
    await checksClean("ProjectMember", found);
    await client.removeProjectMemberRole(DEMO.orgProjectId, casey.member_id);
  });

  it("imports a function by <projectId>/<branchId>/<slug>; its check asks for the code it cannot read back", async () => {
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    await client.deployFunction(DEMO.projectId, DEMO.branchId, "byhand", {
      zip: Buffer.from("PK\u0003\u0004 an archive"),
      environment: { TOKEN: "never-read-back" },
    });
    const found = await imported("Function", `${DEMO.projectId}/${DEMO.branchId}/byhand`);
    assert.equal(found.id, `${DEMO.projectId}/${DEMO.branchId}/byhand`);
    assert.deepEqual(
      [
        found.inputs.projectId,
        found.inputs.branchId,
        found.inputs.slug,
        found.inputs.runtime,
        found.inputs.source,
      ],
      [DEMO.projectId, DEMO.branchId, "byhand", "nodejs24", undefined],
    );
    assert.ok(!JSON.stringify(found).includes("never-read-back"), "no variable's value is read back");
    const check = forResource(new proto.CheckRequest(), "clouddb:index:Function", "imported")
      .setOlds(struct(found.inputs))
      .setNews(struct(found.inputs));
    const checked = await plugin.call<proto.CheckRequest, proto.CheckResponse>("check", check);
    assert.deepEqual(
      checked.getFailuresList().map((f) => f.getReason()),
      ["source: give exactly one of source (a folder) or archive (a .zip file) with the function's code"],
      "the program sets source or archive on the imported function, and the next up deploys it",
    );
    await client.deleteFunction(DEMO.projectId, DEMO.branchId, "byhand");
  });

  it("imports a trigger by <projectId>/<branchId>/<triggerId>; its inputs check and diff clean", async () => {
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    await client.deployFunction(DEMO.projectId, DEMO.branchId, "cronjob", {
      zip: Buffer.from("PK\u0003\u0004 job"),
    });
    const made = await client.createTrigger(DEMO.projectId, DEMO.branchId, {
      type: "schedule",
      name: "hourly",
      function_slug: "cronjob",
      schedule: { cron: "0 * * * *" },
      enabled: false,
    });
    const found = await imported("Trigger", `${DEMO.projectId}/${DEMO.branchId}/${made.trigger_id}`);
    assert.equal(found.id, `${DEMO.projectId}/${DEMO.branchId}/${made.trigger_id}`);
    assert.deepEqual(
      [
        found.inputs.type,
        found.inputs.name,
        found.inputs.functionSlug,
        found.inputs.cron,
        found.inputs.enabled,
      ],
      ["schedule", "hourly", "cronjob", "0 * * * *", false],
    );
    await checksClean("Trigger", found);
    await client.deleteTrigger(DEMO.projectId, DEMO.branchId, made.trigger_id);
    await client.deleteFunction(DEMO.projectId, DEMO.branchId, "cronjob");
  });

  it("imports a bucket by <projectId>/<branchId>/<name>; its inputs check and diff clean", async () => {
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    await client.createBucket(DEMO.projectId, DEMO.branchId, {
      name: "made-by-hand",
      access_level: "public_read",
    });
    const found = await imported("Bucket", `${DEMO.projectId}/${DEMO.branchId}/made-by-hand`);
    assert.equal(found.id, `${DEMO.projectId}/${DEMO.branchId}/made-by-hand`);
    assert.deepEqual(
      [found.inputs.projectId, found.inputs.branchId, found.inputs.name, found.inputs.accessLevel],
      [DEMO.projectId, DEMO.branchId, "made-by-hand", "public_read"],
    );
    await checksClean("Bucket", found);
    await client.deleteBucket(DEMO.projectId, DEMO.branchId, "made-by-hand");
  });

  it("imports a branch's credential by <projectId>/<branchId>/<tokenId> with its secrets as secrets; its inputs check and diff clean", async () => {
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    const issued = await client.createCredential(DEMO.projectId, DEMO.branchId, {
      name: "by hand",
      scopes: ["functions:invoke"],
      principal_type: "user",
    });
    const found = await imported("Credential", `${DEMO.projectId}/${DEMO.branchId}/${issued.token_id}`);
    assert.equal(found.id, issued.token_id);
    assert.deepEqual(
      [found.inputs.projectId, found.inputs.branchId, found.inputs.name, found.inputs.scopes],
      [DEMO.projectId, DEMO.branchId, "by hand", ["functions:invoke"]],
    );
    assert.ok(isSecret(found.outs.apiToken), "the token is a secret");
    assert.ok(isSecret(found.outs.s3SecretAccessKey), "the S3 secret is a secret");
    assert.ok(!JSON.stringify(found.inputs).includes(issued.api_token), "no secret among the inputs");
    await checksClean("Credential", found);
    await client.revokeCredential(DEMO.projectId, DEMO.branchId, issued.token_id);
  });

  it("imports a custom domain by <projectId>/<branchId>/<domain>; its inputs check and diff clean", async () => {
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    await client.registerCustomDomain(DEMO.projectId, DEMO.branchId, {
      domain: "docs.example.com",
      entity_type: "function",
      entity_id: "docs",
    });
    const found = await imported("CustomDomain", `${DEMO.projectId}/${DEMO.branchId}/docs.example.com`);
    assert.equal(found.id, `${DEMO.projectId}/${DEMO.branchId}/docs.example.com`);
    assert.deepEqual(
      [found.inputs.domain, found.inputs.entityType, found.inputs.entityId, found.outs.status],
      ["docs.example.com", "function", "docs", "pending"],
    );
    await checksClean("CustomDomain", found);
    await client.deleteCustomDomain(DEMO.projectId, DEMO.branchId, "docs.example.com");
  });

  it("imports a branch's Auth made outside Pulumi by <projectId>/<branchId>, its client secret a secret; its inputs check and diff clean", async () => {
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    await client.enableBranchAuth(DEMO.projectId, DEMO.branchId, { auth_provider: "better_auth" });
    await client.updateBranchAuthOauthProvider(DEMO.projectId, DEMO.branchId, "github", {
      client_id: "gh-id",
      client_secret: "gh-secret",
    });
    const found = await imported("BranchAuth", `${DEMO.projectId}/${DEMO.branchId}`);
    assert.equal(found.id, `${DEMO.projectId}/${DEMO.branchId}`);
    assert.equal(found.inputs.authProvider, "better_auth");
    assert.match(String(found.outs.jwksUrl), /\/\.well-known\/jwks\.json$/);
    assert.ok(isSecret(found.outs.oauthProviders), "the providers, with their client secrets, are a secret");
    assert.ok(isSecret(found.inputs.oauthProviders), "in the inputs the import writes too");
    assert.ok(JSON.stringify(found.outs.oauthProviders).includes("gh-secret"));
    await checksClean("BranchAuth", found);
    await client.disableBranchAuth(DEMO.projectId, DEMO.branchId);
  });

  it("imports a database's Data API by <projectId>/<branchId>/<databaseName>, with the settings that differ from the defaults; its inputs check and diff clean", async () => {
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    await client.createDataApi(DEMO.projectId, DEMO.branchId, database.name, {
      settings: { db_max_rows: 50, db_schemas: ["public"] },
    });
    const found = await imported("DataApi", `${DEMO.projectId}/${DEMO.branchId}/${database.name}`);
    assert.equal(found.id, `${DEMO.projectId}/${DEMO.branchId}/${database.name}`);
    assert.deepEqual(
      [found.inputs.projectId, found.inputs.branchId, found.inputs.databaseName, found.inputs.settings],
      [DEMO.projectId, DEMO.branchId, database.name, { dbMaxRows: 50 }],
    );
    assert.match(String(found.outs.url), new RegExp(`/${database.name}/rest/v1$`));
    await checksClean("DataApi", found);
    await client.deleteDataApi(DEMO.projectId, DEMO.branchId, database.name);
  });

  it("imports a project's JWKS URL by <projectId>/<jwksId>, with the branch it applies to; its inputs check and diff clean", async () => {
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    const added = await client.addJwks(DEMO.projectId, {
      jwks_url: "https://clerk.example.com/.well-known/jwks.json",
      provider_name: "Clerk",
      branch_id: DEMO.branchId,
      jwt_audience: "app",
    });
    const found = await imported("Jwks", `${DEMO.projectId}/${added.id}`);
    assert.equal(found.id, `${DEMO.projectId}/${added.id}`);
    assert.deepEqual(
      [found.inputs.jwksUrl, found.inputs.providerName, found.inputs.branchId, found.inputs.jwtAudience],
      ["https://clerk.example.com/.well-known/jwks.json", "Clerk", DEMO.branchId, "app"],
    );
    assert.equal(found.outs.jwksId, added.id);
    await checksClean("Jwks", found);
    await client.deleteJwks(DEMO.projectId, added.id);
  });

  it("answers an id of an object that does not exist with no id, so the engine says it does not exist", async () => {
    const missing = await imported("Branch", `${DEMO.projectId}/br-nothing-here-00000000`);
    assert.equal(missing.id, "");
  });

  it("refuses an id of the wrong shape, naming the shape the kind takes", async () => {
    const err = await rejection(imported("Role", `${DEMO.projectId}/${DEMO.branchId}`));
    assert.match(err.details, /its import id is <projectId>\/<branchId>\/<roleName>, e\.g\. /);
    const empty = await rejection(imported("Database", `${DEMO.projectId}//neondb`));
    assert.match(empty.details, /its import id is <projectId>\/<branchId>\/<databaseName>/);
  });

  it("refuses to import an API key, saying why and what to do instead", async () => {
    const err = await rejection(imported("ApiKey", String(DEMO.personalKeyId)));
    assert.match(
      err.details,
      /the token is returned only at creation, so an existing key cannot be imported/,
    );
    assert.match(err.details, /Create a new ApiKey and revoke the old key instead/);
    assert.ok(!err.details.includes(DEMO.personalKey));
  });
});
