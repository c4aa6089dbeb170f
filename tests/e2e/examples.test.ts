// The in-repo examples under the real Pulumi engine, against the emulator: the quickstart through
// the root Pulumi.yaml (what `npm start` runs), the GitOps preview-branches pattern, and the
// preview environment with the workflow users copy next to it.
// Longer than 400 lines: the examples share one emulator and the stack helper below (`exampleStack`),
// so they stay one file.
import * as assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { createClient } from "../../provider/client";
import { zipFolder } from "../../provider/resources/inputs/zip";
import { runSql } from "../emulator/helpers";
import { runCli } from "./support/kill";
import { programStack } from "./support/programStack";
import { apiKeySecretsIn, collect, type E2eStack, ROOT } from "./support/stack";
import { checkoutExample, EXAMPLE, type JobRun, readWorkflow, userOperationsOn } from "./support/workflow";

const execFileAsync = promisify(execFile);
const DAY_MS = 24 * 60 * 60 * 1000;

/** A stack of the preview-environment example, in place, for pull request `pullRequest` of the demo organization's project. */
function exampleStack(emulator: RunningEmulator, pullRequest: string, config: Record<string, string> = {}) {
  return programStack({
    workDir: EXAMPLE,
    emulator,
    stackName: `e2e-pr-${pullRequest}-${process.pid}`,
    config: { projectId: DEMO.orgProjectId, pullRequest, ...config },
  });
}

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
  const branchesByName = () =>
    new Map(
      emulator.control
        .dumpState()
        .branches.filter((b) => b.project_id === DEMO.orgProjectId && b.deleted_at_ms === undefined)
        .map((b) => [b.name, b]),
    );

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

  it("preview-environment's workflow: its own commands, run in order: opened creates the stack and masks DATABASE_URL; a push after the branch expired makes it again; closed after it expired destroys and removes the stack", async () => {
    const checkout = checkoutExample({
      apiUrl: emulator.url,
      apiKey: DEMO.personalKey,
      projectId: DEMO.orgProjectId,
      pullRequest: "9",
      install: "link",
    });
    assert.deepEqual(
      Object.keys(readWorkflow().env).sort(),
      Object.keys(checkout.env)
        .filter((k) => k in readWorkflow().env)
        .sort(),
    );
    /** The DATABASE_URL the up job handed on, after checking that it was masked first. */
    const handedOn = (run: JobRun) => {
      const urls = [...checkout.githubEnv().matchAll(/^DATABASE_URL=(postgresql:\/\/\S+)$/gm)];
      const url = urls.at(-1)?.[1];
      assert.ok(url, `the up job exports DATABASE_URL: ${checkout.githubEnv()}`);
      assert.ok(
        run.output.includes(`::add-mask::${url}`),
        "the connection string is masked before it is exported",
      );
      return new URL(url);
    };
    try {
      const opened = await checkout.runJob("up");
      assert.equal(opened.code, 0, opened.output);
      const firstUrl = handedOn(opened);
      const first = branchesByName().get("preview/pr-9");
      assert.ok(first);

      // The service deletes a branch whose expiry passed, with everything on it.
      emulator.control.deleteBranch(DEMO.orgProjectId, first.id);
      const pushed = await checkout.runJob("up");
      assert.equal(pushed.code, 0, pushed.output);
      const second = branchesByName().get("preview/pr-9");
      assert.ok(second && second.id !== first.id, "a new branch for the pull request");
      const secondUrl = handedOn(pushed);
      assert.equal(secondUrl.username, firstUrl.username, "the same generated role name");
      assert.equal(
        decodeURIComponent(secondUrl.password),
        second.roles.find((r) => r.name === decodeURIComponent(secondUrl.username))?.password,
      );

      emulator.control.deleteBranch(DEMO.orgProjectId, second.id);
      const closed = await checkout.runJob("destroy");
      assert.equal(closed.code, 0, closed.output);
      const { stdout: stacks } = await execFileAsync("pulumi", ["stack", "ls", "--json"], {
        cwd: checkout.programDir,
        env: checkout.env,
        encoding: "utf8",
      });
      assert.deepEqual(JSON.parse(stacks), [], "the pull request's stack is removed");
    } finally {
      checkout.dispose();
    }
  });

  it("preview-environment's workflow as copied: its install step gets everything the program needs", async () => {
    // The package as the registry would serve it: this repository, packed.
    const packDir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-pack-"));
    const tarball = path.join(
      packDir,
      execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", packDir], {
        cwd: ROOT,
        encoding: "utf8",
      })
        .trim()
        .split("\n")
        .pop()!,
    );
    const checkout = checkoutExample({
      apiUrl: emulator.url,
      apiKey: DEMO.personalKey,
      projectId: DEMO.orgProjectId,
      pullRequest: "10",
      install: "run",
      rewrite: (run) => run.replace("pulumi-clouddb@^0.1.0", tarball),
    });
    try {
      const opened = await checkout.runJob("up");
      assert.equal(opened.code, 0, opened.output);
      assert.ok(
        fs.existsSync(path.join(checkout.programDir, "node_modules", "pulumi-clouddb", "package.json")),
      );
      assert.ok(
        !fs.lstatSync(path.join(checkout.programDir, "node_modules", "@pulumi")).isSymbolicLink(),
        "installed, not this repository's",
      );
      assert.match(checkout.githubEnv(), /^DATABASE_URL=postgresql:\/\//m);
      const closed = await checkout.runJob("destroy");
      assert.equal(closed.code, 0, closed.output);
    } finally {
      checkout.dispose();
      fs.rmSync(packDir, { recursive: true, force: true });
    }
  });
});

describe("e2e: the preview-environment example on the emulator's real Postgres", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack | undefined;

  /** Runs `statements` in order on a fresh connection to `uri` (verifying the endpoint); returns the last one's rows. */
  const query = <T>(uri: string, ...statements: string[]) => runSql<T>(uri, emulator.caPath, ...statements);

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60, postgres: true });
  });
  after(async () => {
    await e2e?.dispose({ destroy: true });
    await emulator?.stop();
  });

  it("DATABASE_URL connects as the app's own role to the branch's copy of neondb: production's table, none of its rows, and the role writes to it", async () => {
    const production = await createClient({
      apiKey: DEMO.personalKey,
      apiUrl: emulator.url,
    }).getConnectionUri(DEMO.orgProjectId, { roleName: "neondb_owner", databaseName: "neondb" });
    await query(
      production,
      "CREATE TABLE items (id serial PRIMARY KEY, note text)",
      "INSERT INTO items (note) VALUES ('a'), ('b'), ('c')",
    );
    e2e = await exampleStack(emulator, "11");
    await e2e.stack.up(collect(e2e.output));
    const out = await e2e.stack.outputs();
    const url = String(out.DATABASE_URL?.value);

    const [who] = await query<{ role: string; items: number }>(
      url,
      "SELECT current_user AS role, (SELECT count(*)::int FROM items) AS items",
    );
    assert.deepEqual(who, { role: out.roleName?.value, items: 0 }, "the schema, none of the rows");
    const [written] = await query<{ n: number }>(
      url,
      "INSERT INTO items (note) VALUES ('fixture 1'), ('fixture 2')",
      "SELECT count(*)::int AS n FROM items",
    );
    assert.equal(written?.n, 2);
    const [kept] = await query<{ n: number }>(production, "SELECT count(*)::int AS n FROM items");
    assert.equal(kept?.n, 3, "production keeps its own rows");
  });

  it("with data: anonymized, DATABASE_URL reads production's rows with the emails its masking rule names masked", async () => {
    const production = await createClient({
      apiKey: DEMO.personalKey,
      apiUrl: emulator.url,
    }).getConnectionUri(DEMO.orgProjectId, { roleName: "neondb_owner", databaseName: "neondb" });
    await query(
      production,
      "CREATE TABLE people (id serial PRIMARY KEY, email text, team text)",
      "INSERT INTO people (email, team) VALUES ('ada@corp.example', 'core'), ('grace@corp.example', 'db')",
    );
    const rule = {
      databaseName: "neondb",
      tableName: "people",
      columnName: "email",
      maskingFunction: "anon.fake_email()",
    };
    e2e = await exampleStack(emulator, "12", { data: "anonymized", maskingRules: JSON.stringify([rule]) });
    await e2e.stack.up(collect(e2e.output));
    const url = String((await e2e.stack.outputs()).DATABASE_URL?.value);
    const rows = await query<{ email: string; team: string }>(
      url,
      "SELECT email, team FROM people ORDER BY id",
    );
    assert.deepEqual(
      rows.map((r) => r.team),
      ["core", "db"],
      "production's rows, the columns no rule names as they are",
    );
    for (const { email } of rows) {
      assert.match(email, /^[^@\s]+@[^@\s]+\.[a-z]+$/);
      assert.ok(!["ada@corp.example", "grace@corp.example"].includes(email), `${email} is masked`);
    }
    const [kept] = await query<{ email: string }>(production, "SELECT email FROM people ORDER BY id LIMIT 1");
    assert.equal(kept?.email, "ada@corp.example", "production keeps its data");
  });
});
