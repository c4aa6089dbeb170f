import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import { DEMO } from "../../emulator";
import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import { forgetPreflight } from "../../provider/resources/lifecycle/preflight";
import { type ApiKeyInputs, apiKeyProvider } from "../../provider/resources/public/apiKey";
import { type BranchInputs, branchProvider } from "../../provider/resources/public/branch";
import { type RoleInputs, roleProvider } from "../../provider/resources/public/role";
import { useEmulator, useTestEnv } from "./support";

// `check` of a planned create or update checks the configuration the way the `up` will use it, so
// `pulumi preview` fails on it: one read per credential and per project or organization.

const PROJECT = DEMO.orgProjectId;

describe("check: configuration at preview", () => {
  const harness = useEmulator();
  const testEnv = useTestEnv();
  const env = testEnv.set;
  beforeEach(() => {
    forgetPreflight();
    harness.emulator.control.clearRequests();
  });

  const planBranch = (news: Partial<BranchInputs> = {}, olds: Partial<BranchInputs> = {}) =>
    branchProvider.check!(
      olds as BranchInputs,
      { projectId: PROJECT, name: "feature", ...news } as BranchInputs,
    );
  const planKey = (news: Partial<ApiKeyInputs>) =>
    apiKeyProvider.check!({} as ApiKeyInputs, { name: "ci", ...news } as ApiKeyInputs);
  const only = (result: pulumi.dynamic.CheckResult<unknown>) => {
    assert.equal(result.failures?.length, 1, JSON.stringify(result.failures));
    return result.failures?.[0] as pulumi.dynamic.CheckFailure;
  };

  it("passes a planned create the key may make, with one read of its project", async () => {
    const result = await planBranch();
    assert.equal(result.failures, undefined);
    assert.deepEqual(harness.log(), [`GET /projects/${PROJECT}`]);
  });

  it("fails without an API key, saying how to set one, before any request", async () => {
    env({ CLOUDDB_API_KEY: undefined });
    const failure = only(await planBranch());
    assert.equal(failure.property, "");
    assert.match(failure.reason, /No API key/);
    assert.match(failure.reason, /pulumi config set --secret clouddb:apiKey/);
    assert.deepEqual(harness.log(), []);
  });

  it("fails an API URL without /api/v2, naming the setting and an example, before any request", async () => {
    env({ CLOUDDB_API_URL: harness.emulator.url.replace(/\/api\/v2$/, "") });
    const failure = only(await planBranch());
    assert.match(failure.reason, /does not end in \/api\/v2/);
    assert.match(failure.reason, /clouddb:apiUrl/);
    assert.deepEqual(harness.log(), []);
  });

  it("fails an API nobody answers at, naming the URL and the setting", async () => {
    env({ CLOUDDB_API_URL: "http://127.0.0.1:9/api/v2" });
    const failure = only(await planBranch());
    assert.equal(failure.property, "");
    assert.match(
      failure.reason,
      /the API at http:\/\/127\.0\.0\.1:9\/api\/v2 could not be reached \(ECONNREFUSED/,
    );
    assert.match(failure.reason, /check clouddb:apiUrl/);
  });

  it("fails a key the API refuses (401) with the request id and how to set a valid key", async () => {
    env({ CLOUDDB_API_KEY: `napi_${"z".repeat(64)}` });
    const failure = only(await planBranch());
    assert.equal(failure.property, "");
    assert.match(failure.reason, /the API refused the API key \(401 Unauthorized, request id [\w-]+\)/);
    assert.match(failure.reason, /pulumi config set --secret clouddb:apiKey/);
    assert.doesNotMatch(failure.reason, /napi_z/);
  });

  it("fails an unknown project (404) on projectId, saying to check it", async () => {
    const failure = only(await planBranch({ projectId: "no-such-project-123" }));
    assert.equal(failure.property, "projectId");
    assert.match(
      failure.reason,
      /project no-such-project-123 was not found with this API key \(404 Not Found, request id/,
    );
    assert.match(failure.reason, /check projectId/);
  });

  it("fails a project the key may not use (403) on projectId", async () => {
    const failure = only(await planBranch({ projectId: DEMO.memberProjectId }));
    assert.equal(failure.property, "projectId");
    assert.match(
      failure.reason,
      new RegExp(`this API key may not use project ${DEMO.memberProjectId} \\(403 Forbidden`),
    );
  });

  it("fails an organization the key may not use on orgId", async () => {
    env({ CLOUDDB_API_KEY: DEMO.projectKey });
    const failure = only(await planKey({ orgId: "org-other-11111111" }));
    assert.equal(failure.property, "orgId");
    assert.match(failure.reason, /organization org-other-11111111/);
    assert.match(failure.reason, /check orgId/);
  });

  it("reads each project once for any number of resources, and the account once when no project is known", async () => {
    await Promise.all([planBranch(), planBranch({ name: "b2" }), planBranch({ name: "b3" })]);
    await planBranch({ name: "b4" });
    await Promise.all([planKey({}), planKey({ name: "other" }), planBranch({ projectId: UNKNOWN })]);
    assert.deepEqual(harness.log().sort(), ["GET /projects", `GET /projects/${PROJECT}`]);
  });

  it("makes no request for an unchanged resource, and one for a changed one", async () => {
    const olds = { projectId: PROJECT, name: "feature" };
    assert.equal((await planBranch({}, olds)).failures, undefined);
    assert.deepEqual(harness.log(), []);
    env({ CLOUDDB_API_KEY: `napi_${"z".repeat(64)}` });
    const failure = only(await planBranch({ name: "renamed" }, olds));
    assert.match(failure.reason, /401/);
    assert.equal(harness.log().length, 1);
  });

  it("makes no request for an unchanged role the program left unnamed (its name is the one check generated)", async () => {
    const urn = "urn:pulumi:dev::app::clouddb:index:Role::app-role";
    const news = { projectId: PROJECT, branchId: DEMO.branchId, __owner: urn } as unknown as RoleInputs;
    const first = await roleProvider.check!({} as RoleInputs, news);
    assert.equal(first.failures, undefined);
    forgetPreflight();
    harness.emulator.control.clearRequests();
    const again = await roleProvider.check!(first.inputs as RoleInputs, news);
    assert.equal(again.failures, undefined);
    assert.equal((again.inputs as RoleInputs).name, (first.inputs as RoleInputs).name);
    assert.deepEqual(harness.log(), []);
  });

  it("does not check inputs that already fail validation", async () => {
    env({ CLOUDDB_API_KEY: undefined });
    const failure = only(await planBranch({ name: " " }));
    assert.equal(failure.property, "name");
    assert.deepEqual(harness.log(), []);
  });
});
