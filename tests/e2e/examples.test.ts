// The in-repo examples under the real Pulumi engine, against the emulator: the quickstart through
// the root Pulumi.yaml (what `npm start` runs), the GitOps preview-branches pattern, and the
// preview environment (its workflow: examples.workflow.test.ts; on real Postgres: examples.postgres.test.ts).
import * as assert from "node:assert/strict";
import { createHash } from "node:crypto";
import * as path from "node:path";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { zipFolder } from "../../provider/resources/inputs/zip";
import { runCli } from "./support/kill";
import { programStack } from "./support/programStack";
import { apiKeySecretsIn, collect, type E2eStack, ROOT } from "./support/stack";
import { EXAMPLE, exampleStack, liveBranchesByName, userOperationsOn } from "./support/workflow";

const DAY_MS = 24 * 60 * 60 * 1000;

describe("e2e: the in-repo examples under the real Pulumi engine", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack | undefined;

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
  });
  after(async () => emulator?.stop());
  afterEach(async () => {
    await e2e?.dispose({ destroy: true });
    e2e = undefined;
  });

  it("quickstart (the root project): creates three keys and two branches, reads projects and operations, destroys", async () => {
    e2e = await programStack({
      workDir: ROOT,
      emulator,
      stackName: `e2e-quickstart-${process.pid}`,
      config: { orgId: DEMO.orgId, projectId: DEMO.orgProjectId },
    });
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(up.summary.resourceChanges?.create, 6, e2e.output.join("\n"));
    const out = await e2e.stack.outputs();
    const secrets = apiKeySecretsIn(e2e.rawState());
    assert.equal(secrets.length, 3);
    for (const s of secrets) assert.ok(s.encrypted, `${s.urn}: key not encrypted in state`);
    const keys = out.keys!.value as Record<string, { id: number; token: string }>;
    assert.deepEqual(Object.keys(keys).sort(), ["app", "ci", "org"]);
    const branches = out.branches!.value as {
      dev: { endpoints: { type: string }[] };
      feature: { parent: string };
    };
    assert.deepEqual(branches.dev.endpoints.map((e) => e.type).sort(), ["read_only", "read_write"]);
    assert.ok((out.organizationProjects!.value as string[]).some((p) => p.startsWith(DEMO.orgProjectId)));
    const ops = out.recentOperations!.value as string[];
    assert.ok(ops.includes("create_branch: finished"), ops.join(", "));
    await e2e.stack.destroy(collect(e2e.output));
    const snap = emulator.control.dumpState();
    for (const k of Object.values(keys)) assert.equal(snap.apiKeys.find((x) => x.id === k.id)?.revoked, true);
  });

  it("preview-branches: adding a pull request creates its branch and key, removing it deletes both", async () => {
    e2e = await programStack({
      workDir: path.join(ROOT, "examples/preview-branches"),
      emulator,
      stackName: `e2e-previews-${process.pid}`,
      config: { orgId: DEMO.orgId, projectId: DEMO.orgProjectId },
    });
    await e2e.stack.setConfig("pullRequests", { value: "[101, 102]" });
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(up.summary.resourceChanges?.create, 5, e2e.output.join("\n"));
    const previews = (await e2e.stack.outputs()).previews!.value as Record<
      string,
      { branchId: string; keyId: number }
    >;
    assert.deepEqual(Object.keys(previews).sort(), ["pr-101", "pr-102"]);

    await e2e.stack.setConfig("pullRequests", { value: "[102]" });
    const shrink = await e2e.stack.up(collect(e2e.output));
    assert.equal(shrink.summary.resourceChanges?.delete, 2, e2e.output.join("\n"));
    const snap = emulator.control.dumpState();
    const gone = previews["pr-101"]!;
    assert.ok(
      snap.branches.find((b) => b.id === gone.branchId)?.deleted_at_ms !== undefined,
      "branch deleted",
    );
    assert.equal(snap.apiKeys.find((k) => k.id === gone.keyId)?.revoked, true, "key revoked");
    const kept = previews["pr-102"]!;
    assert.equal(snap.branches.find((b) => b.id === kept.branchId)?.deleted_at_ms, undefined);
  });

  /** The branches of the demo organization's project, by name. */
  const branchesByName = () => liveBranchesByName(emulator, DEMO.orgProjectId);

  /** The stack outputs as plain values. */
  const outputsOf = async (stack: E2eStack) =>
    Object.fromEntries(Object.entries(await stack.stack.outputs()).map(([k, v]) => [k, v.value]));

  /** The live branch named `name` of the demo organization's project, and the role `roleName` on it. */
  function roleOn(name: string, roleName: string) {
    const branch = branchesByName().get(name);
    return { branch, role: branch?.roles.find((r) => r.name === roleName) };
  }

  it("preview-environment: a pull request's stack: a schema-only branch that expires, a role with a generated name made before the compute (two operations in all), DATABASE_URL to the branch's copy of neondb as a secret; destroy removes them", async () => {
    e2e = await exampleStack(emulator, "7", { expiresInDays: "2" });
    const up = await e2e.stack.up(collect(e2e.output));
    // The stack, the branch, the role, the compute, Auth, the Data API, the bucket, the function.
    assert.equal(up.summary.resourceChanges?.create, 8, e2e.output.join("\n"));

    const out = await e2e.stack.outputs();
    assert.equal(out.DATABASE_URL?.secret, true, "DATABASE_URL must be a secret output");
    const url = new URL(String(out.DATABASE_URL?.value));
    assert.equal(url.protocol, "postgresql:");
    assert.match(String(out.roleName?.value), /^app_[0-9a-f]{10}$/, "the role's name is generated");
    assert.equal(url.username, out.roleName?.value);
    assert.equal(url.pathname, "/neondb", "the branch's copy of the default branch's database");
    assert.ok(url.password.length > 0, "the connection string carries the role's password");

    const { branch, role } = roleOn("preview/pr-7", String(out.roleName?.value));
    assert.ok(branch, "the branch is named after the pull request");
    assert.equal(branch.id, out.branchId?.value);
    assert.equal(branch.init_source, "schema-only");
    assert.deepEqual(
      branch.databases.map((d) => d.name),
      ["neondb"],
      "no database of its own: the copy is the app's",
    );
    assert.equal(role?.password, decodeURIComponent(url.password));
    assert.deepEqual(
      userOperationsOn(emulator, branch.id),
      ["create_branch", "start_compute"],
      "the role is made before the compute, so it starts no operation",
    );
    const ttl = Date.parse(String(out.expiresAt?.value)) - Date.now();
    assert.ok(ttl > 1.9 * DAY_MS && ttl <= 2 * DAY_MS, `expires in ${ttl} ms, not about 2 days`);

    const raw = e2e.rawState();
    assert.ok(!raw.includes("postgresql://"), "a connection string is in the state in plaintext");
    assert.ok(!raw.includes(url.password), "the role's password is in the state in plaintext");

    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { same: 8 }, e2e.output.join("\n"));

    await e2e.stack.destroy(collect(e2e.output));
    assert.equal(branchesByName().get("preview/pr-7"), undefined, "destroy leaves the branch behind");
  });

  it("preview-environment's backend: the preview's Auth starts with the default branch's settings, keys of its own as secrets; the Data API on its neondb; an object uploaded through the bucket's presigned URL downloads again; the app's API deployed from api/ with the backend's settings, at API_URL; destroy leaves nothing of it", async () => {
    const auth = { authorization: `Bearer ${DEMO.personalKey}`, "content-type": "application/json" };
    const send = async (method: string, route: string, body?: unknown) => {
      const answer = await fetch(`${emulator.url}${route}`, {
        method,
        headers: auth,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await answer.text();
      assert.ok(answer.ok, `${method} ${route}: ${answer.status} ${text}`);
      return (text === "" ? {} : JSON.parse(text)) as Record<string, unknown>;
    };
    // Production's Auth, configured outside this stack: a trusted domain and GitHub sign-in.
    const production = `/projects/${DEMO.orgProjectId}/branches/${DEMO.orgBranchId}`;
    const productionKeys = await send("POST", `${production}/auth`, { auth_provider: "better_auth" });
    await send("POST", `${production}/auth/domains`, {
      domain: "https://shop.example.com",
      auth_provider: "better_auth",
    });
    const githubSecret = `gh-secret-${process.pid}`;
    await send("PATCH", `${production}/auth/oauth_providers/github`, {
      client_id: "gh-id",
      client_secret: githubSecret,
    });
    try {
      e2e = await exampleStack(emulator, "9");
      await e2e.stack.up(collect(e2e.output));
      const outputs = await e2e.stack.outputs();
      const out = await outputsOf(e2e);
      const branchUrl = `/projects/${DEMO.orgProjectId}/branches/${String(out.branchId)}`;

      const domains = (await send("GET", `${branchUrl}/auth/domains`)).domains as { domain: string }[];
      assert.deepEqual(
        domains.map((d) => d.domain),
        ["https://shop.example.com"],
        "the parent's trusted domain",
      );
      const providers = (await send("GET", `${branchUrl}/auth/oauth_providers`)).providers as {
        id: string;
      }[];
      assert.ok(
        providers.some((p) => p.id === "github"),
        "the parent's GitHub sign-in",
      );
      for (const name of ["AUTH_PUBLISHABLE_KEY", "AUTH_SECRET_KEY"]) {
        assert.equal(outputs[name]?.secret, true, `${name} is a secret output`);
      }
      assert.notEqual(
        out.AUTH_SECRET_KEY,
        productionKeys.secret_server_key,
        "the preview's keys are its own",
      );
      const jwks = (await (await fetch(String(out.AUTH_JWKS_URL))).json()) as { keys: unknown[] };
      assert.equal(jwks.keys.length, 1, "the preview's Auth serves its signing key");
      const raw = e2e.rawState() + e2e.output.join("\n");
      for (const secret of [String(out.AUTH_SECRET_KEY), String(out.AUTH_PUBLISHABLE_KEY), githubSecret]) {
        assert.ok(
          !raw.includes(secret),
          "an Auth key or client secret is in the state or the output in the clear",
        );
      }

      await send("GET", `${branchUrl}/data-api/neondb`);
      assert.match(String(out.DATA_API_URL), /^https:\/\/.+\/neondb\/rest\/v1$/);

      // The app's upload, as a browser does it: a presigned PUT, then a presigned GET.
      const object = `${branchUrl}/buckets/${String(out.BUCKET)}/objects/avatars%2Fada.txt/presign`;
      const body = Buffer.from(`pull request 9's upload ${process.pid}\n`);
      const upload = (await send("POST", object, { operation: "upload", content_type: "text/plain" })) as {
        url: string;
        method: string;
        headers: Record<string, string>;
      };
      const put = await fetch(upload.url, { method: upload.method, headers: upload.headers, body });
      assert.equal(put.status, 200, await put.clone().text());
      const download = (await send("POST", object, { operation: "download" })) as {
        url: string;
        method: string;
      };
      const got = await fetch(download.url, { method: download.method });
      assert.equal(got.status, 200);
      assert.deepEqual(Buffer.from(await got.arrayBuffer()), body, "the bytes uploaded come back");

      // The app's API: the example's api/ folder, built, serving at API_URL.
      const functions = (await send("GET", `${branchUrl}/functions`)).functions as {
        slug: string;
        invocation_url: string;
        active_deployment?: { status: string; environment: string[] };
      }[];
      assert.equal(functions.length, 1, JSON.stringify(functions));
      const [api] = functions;
      assert.equal(api?.invocation_url, out.API_URL, "API_URL is the function's invocation URL");
      assert.equal(api?.active_deployment?.status, "completed", "its deployment completed");
      assert.deepEqual(
        api?.active_deployment?.environment,
        ["AUTH_JWKS_URL", "BUCKET", "DATABASE_URL", "DATA_API_URL"],
        "the backend's settings are its environment",
      );
      const deployed = emulator.control
        .dumpState()
        .branches.find((b) => b.id === out.branchId)
        ?.functions?.find((f) => f.slug === api?.slug)
        ?.deployments.at(-1)?.archive;
      const apiZip = zipFolder(path.join(EXAMPLE, "api"));
      assert.equal(deployed, createHash("sha256").update(apiZip).digest("hex"), "the files of api/");
      // The emulator runs it: API_URL answers as the handler of api/ does, with every setting given.
      const answer = await fetch(`${String(out.API_URL)}orders?page=2`);
      assert.equal(answer.status, 200, await answer.clone().text());
      assert.deepEqual(await answer.json(), {
        path: "/orders",
        configured: { DATABASE_URL: true, AUTH_JWKS_URL: true, DATA_API_URL: true, BUCKET: true },
      });

      await e2e.stack.destroy(collect(e2e.output));
      const left = await fetch(`${emulator.url}${branchUrl}/buckets`, { headers: auth });
      assert.equal(
        left.status,
        404,
        "the branch, its Auth, its bucket with its object and its Data API are gone",
      );
      const fnLeft = await fetch(`${emulator.url}${branchUrl}/functions/${api?.slug}`, { headers: auth });
      assert.equal(fnLeft.status, 404, "the function is gone");
      assert.equal((await fetch(String(out.API_URL))).status, 404, "API_URL answers no more");
      assert.equal(branchesByName().get("preview/pr-9"), undefined);
      assert.equal((await fetch(String(out.AUTH_JWKS_URL))).status, 404, "the preview's Auth is gone");
    } finally {
      await send("DELETE", `${production}/auth`, { delete_data: true });
    }
  });

  it("preview-environment: its role deleted outside Pulumi: preview shows DATABASE_URL unknown; up fails saying what is missing and what to do, with no stack; up --refresh makes the role again", async () => {
    e2e = await exampleStack(emulator, "8");
    await e2e.stack.up(collect(e2e.output));
    const first = await outputsOf(e2e);
    const gone = await fetch(
      `${emulator.url}/projects/${DEMO.orgProjectId}/branches/${first.branchId}/roles/${first.roleName}`,
      { method: "DELETE", headers: { authorization: `Bearer ${DEMO.personalKey}` } },
    );
    assert.equal(gone.status, 200);

    const preview = await runCli(e2e, ["preview", "--show-secrets"]);
    assert.equal(preview.code, 0, preview.output);
    assert.match(preview.output, /DATABASE_URL\s*:.*\[unknown\]/, preview.output);

    const up = await runCli(e2e, ["up", "--yes", "--skip-preview"]);
    assert.notEqual(up.code, 0, up.output);
    assert.match(
      up.output,
      new RegExp(
        `no connection string for role "${first.roleName}" and database "neondb" on branch ${first.branchId} \\(compute ep-[\\w-]+\\) of project ${DEMO.orgProjectId}`,
      ),
    );
    assert.match(up.output, /`pulumi up --refresh` creates it again/);
    assert.match(up.output, /request id [0-9a-f-]{36}/);
    assert.doesNotMatch(up.output, /\.ts:\d+|^\s+at /m, "no stack trace in the error");

    const again = await runCli(e2e, ["up", "--refresh", "--yes", "--skip-preview"]);
    assert.equal(again.code, 0, again.output);
    const second = await outputsOf(e2e);
    assert.equal(second.roleName, first.roleName, "the generated name is the same");
    const url = new URL(String(second.DATABASE_URL));
    assert.equal(decodeURIComponent(url.password), roleOn("preview/pr-8", first.roleName).role?.password);
  });
});
