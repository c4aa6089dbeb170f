import assert from "node:assert/strict";
import sinon from "sinon";
import { DEMO } from "../../emulator";
import { getProjects } from "../../provider/data/projects";
import type { PartialFailure } from "../../provider/resources/errors";
import { pollIntervalFromEnv, providerSettings } from "../../provider/resources/host/settings";
import {
  type ApiKeyInputs,
  type ApiKeyOutputs,
  apiKeyProvider,
} from "../../provider/resources/public/apiKey";
import {
  type BranchInputs,
  type BranchOutputs,
  branchProvider,
} from "../../provider/resources/public/branch";
import { CONFIG } from "../../provider/resources/public/config";
import { clearStackConfig, fakeConfig, PROVIDER_TEXT, useEmulator, useTestEnv } from "./support";

const BOTH_WAYS = /clouddb:apiKey[\s\S]*CLOUDDB_API_KEY/;

async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => assert.fail("expected a rejection"),
    (e: Error) => e,
  );
}

/** Everything of an error a user or a log could see. */
function visible(err: Error): string {
  const extra = err as Error & { properties?: unknown; reasons?: unknown; cause?: unknown };
  return [
    err.message,
    err.stack ?? "",
    JSON.stringify(extra.properties ?? null),
    JSON.stringify(extra.reasons ?? null),
    String(extra.cause ?? ""),
    JSON.stringify(err),
  ].join("\n");
}

describe("provider credentials", () => {
  const harness = useEmulator();
  const env = useTestEnv();
  afterEach(() => {
    clearStackConfig();
    sinon.restore();
  });

  it("fails without a key with an error naming clouddb:apiKey and CLOUDDB_API_KEY", async () => {
    env.set({ CLOUDDB_API_KEY: undefined });
    const attempts: Array<Promise<unknown>> = [
      apiKeyProvider.create({ name: "k" }),
      apiKeyProvider.read!("1", { keyId: 1, kind: "personal" } as ApiKeyOutputs),
      apiKeyProvider.delete!("1", { keyId: 1, kind: "personal" } as ApiKeyOutputs),
      branchProvider.create({ projectId: DEMO.projectId }),
      branchProvider.read!("br-x", { projectId: DEMO.projectId } as BranchOutputs),
      branchProvider.delete!("br-x", { projectId: DEMO.projectId } as BranchOutputs),
      getProjects(),
    ];
    for (const attempt of attempts) {
      const err = await rejection(attempt);
      assert.match(err.message, BOTH_WAYS);
    }
    assert.equal(harness.emulator.control.requests().length, 0, "nothing was sent");
  });

  it("uses the stack config recorded by configure() when the environment has no key", async () => {
    env.set({ CLOUDDB_API_KEY: undefined, CLOUDDB_API_URL: undefined });
    await apiKeyProvider.configure!({
      config: fakeConfig({ "clouddb:apiKey": DEMO.personalKey, "clouddb:apiUrl": harness.emulator.url }),
    });
    harness.emulator.control.clearRequests();
    const made = await apiKeyProvider.create({ name: "from-config" } as ApiKeyInputs);
    assert.ok(made.outs?.key.startsWith("napi_"));
    const [request] = harness.emulator.control.requests();
    assert.equal(request?.keyId, DEMO.personalKeyId);
  });

  it("prefers the stack config over the environment, for every copy of the provider in the process", async () => {
    env.set({ CLOUDDB_API_KEY: DEMO.memberPersonalKey });
    // configure() on one provider records the settings for all of them (they live on globalThis).
    await branchProvider.configure!({ config: fakeConfig({ "clouddb:apiKey": DEMO.personalKey }) });
    harness.emulator.control.clearRequests();
    await apiKeyProvider.create({ name: "config-wins" } as ApiKeyInputs);
    assert.deepEqual(
      harness.emulator.control.requests().map((r) => r.keyId),
      [DEMO.personalKeyId],
    );
  });

  it("takes the shared limiter from clouddb:limiterUrl, checked when a call is made", async () => {
    env.set({ CLOUDDB_LIMITER_URL: undefined });
    await apiKeyProvider.configure!({
      config: fakeConfig({ "clouddb:limiterUrl": "https://limiter.invalid:6379" }),
    });
    harness.emulator.control.clearRequests();
    const err = await rejection(apiKeyProvider.create({ name: "limited" } as ApiKeyInputs));
    assert.match(err.message, /shared limiter URL must start with redis:\/\/ or rediss:\/\//);
    assert.match(err.message, /clouddb:limiterUrl/);
    assert.equal(harness.emulator.control.requests().length, 0, "nothing was sent");
  });

  it("records each clouddb: setting the config declares from configure(), the timeout as a number", async () => {
    await apiKeyProvider.configure!({
      config: fakeConfig({
        "clouddb:apiKey": "napi_configured",
        "clouddb:apiUrl": "http://127.0.0.1:1/api/v2",
        "clouddb:operationTimeoutSeconds": "90",
        "clouddb:limiterUrl": "redis://127.0.0.1:6379",
        "clouddb:limiterAccount": "platform",
        "clouddb:unknownSetting": "left alone",
        "other:apiKey": "another package's",
      }),
    });
    assert.deepEqual(providerSettings(), {
      apiKey: "napi_configured",
      apiUrl: "http://127.0.0.1:1/api/v2",
      operationTimeoutSeconds: 90,
      limiterUrl: "redis://127.0.0.1:6379",
      limiterAccount: "platform",
    });
    assert.deepEqual(Object.keys(providerSettings()), Object.keys(CONFIG));
  });

  it("rejects a bad clouddb:operationTimeoutSeconds in configure(), saying how to fix it", async () => {
    const err = await rejection(
      apiKeyProvider.configure!({ config: fakeConfig({ "clouddb:operationTimeoutSeconds": "soon" }) }),
    );
    assert.match(
      err.message,
      /clouddb:operationTimeoutSeconds must be a positive number of seconds, got "soon"/,
    );
    assert.match(err.message, /pulumi config set clouddb:operationTimeoutSeconds 600/);
  });

  it("reads CLOUDDB_POLL_INTERVAL_MS as FIRST or FIRST,MAX and refuses anything else", () => {
    assert.equal(pollIntervalFromEnv({}), undefined);
    assert.deepEqual(pollIntervalFromEnv({ CLOUDDB_POLL_INTERVAL_MS: "15" }), { first: 15, max: 15 });
    assert.deepEqual(pollIntervalFromEnv({ CLOUDDB_POLL_INTERVAL_MS: "10, 80" }), { first: 10, max: 80 });
    for (const bad of ["fast", "0", "10,20,30", "-1,5"]) {
      assert.throws(
        () => pollIntervalFromEnv({ CLOUDDB_POLL_INTERVAL_MS: bad }),
        /CLOUDDB_POLL_INTERVAL_MS must be FIRST or FIRST,MAX in milliseconds/,
        bad,
      );
    }
  });

  it("never puts the key in an error message", async () => {
    const created = await apiKeyProvider.create({ name: "soon-revoked" } as ApiKeyInputs);
    const token = created.outs?.key ?? "";
    const errors: Error[] = [];
    // A revoked key (401), a key with a space (refused before sending), a refusal, a not-found adoption.
    env.set({ CLOUDDB_API_KEY: token });
    harness.emulator.control.revokeApiKey(Number(created.id));
    errors.push(await rejection(apiKeyProvider.create({ name: "k" } as ApiKeyInputs)));
    errors.push(
      await rejection(branchProvider.read!(DEMO.branchId, { projectId: DEMO.projectId } as BranchOutputs)),
    );
    env.restore();
    const spaced = `${DEMO.personalKey} x`;
    env.set({ CLOUDDB_API_KEY: spaced });
    errors.push(await rejection(apiKeyProvider.create({ name: "k" } as ApiKeyInputs)));
    env.restore();
    env.set({});
    errors.push(
      await rejection(
        branchProvider.delete!(DEMO.branchId, {
          projectId: DEMO.projectId,
          name: "main",
          default: true,
        } as BranchOutputs),
      ),
    );
    errors.push(
      await rejection(
        branchProvider.create({
          projectId: DEMO.projectId,
          adoptExisting: "br-missing-branch-00000000",
        } as BranchInputs),
      ),
    );
    assert.match(errors[0]?.message ?? "", /401|unauthori[sz]ed|revoked/i);
    for (const err of errors) {
      const text = visible(err);
      for (const secret of [token, DEMO.personalKey, "Bearer "]) {
        assert.ok(!text.includes(secret), `no secret in: ${err.message}`);
      }
    }
  });

  describe("operation deadlines", () => {
    // A stuck operation locks its project for good: this suite gets its own emulator.
    const stuck = useEmulator();

    it("bounds the create wait by clouddb:operationTimeoutSeconds and records the branch (partial failure)", async () => {
      env.set({ CLOUDDB_API_URL: stuck.emulator.url });
      await branchProvider.configure!({ config: fakeConfig({ "clouddb:operationTimeoutSeconds": "0.2" }) });
      stuck.emulator.control.scriptOperations({ action: "create_branch", count: 1 }, { kind: "stuck" });
      const started = Date.now();
      const err = (await rejection(
        branchProvider.create({
          projectId: DEMO.projectId,
          name: "stuck",
          __provider: PROVIDER_TEXT,
        } as BranchInputs),
      )) as PartialFailure;
      assert.ok(Date.now() - started < 2000, "gave up at the configured bound");
      assert.match(err.id, /^br-/);
      assert.match(err.reasons.join(" "), /Timed out/);
      assert.equal((err.properties.pendingOperationIds as string[]).length, 1);
      assert.ok(!visible(err).includes(DEMO.personalKey));
    });

    it("lets a branch's timeouts.create override the stack config", async () => {
      env.set({ CLOUDDB_API_URL: stuck.emulator.url });
      await branchProvider.configure!({ config: fakeConfig({ "clouddb:operationTimeoutSeconds": "600" }) });
      stuck.emulator.control.scriptOperations(
        { action: "create_branch", projectId: DEMO.orgProjectId, count: 1 },
        { kind: "stuck" },
      );
      const started = Date.now();
      const err = await rejection(
        branchProvider.create({
          projectId: DEMO.orgProjectId,
          name: "quick",
          timeouts: { create: 0.2 },
        } as BranchInputs),
      );
      assert.ok(Date.now() - started < 2000, `gave up after ${Date.now() - started} ms`);
      assert.match(err.message, /Timed out after 0 s waiting for 1 operation\(s\)/);
    });
  });
});
