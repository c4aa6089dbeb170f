// The preview environment in YAML, Python and Java (examples/preview-environment-yaml, -python and -java),
// through the provider plugin, under the real engine, against the emulator with its real Postgres:
// `up` makes the branch, the role, the compute after it and DATABASE_URL (a secret, stored encrypted), the app's
// migration connects with it; the rest of the backend (Auth, the Data API, a bucket, the app's API
// deployed from the example's `api/`) with the TypeScript example's outputs, the keys secret (masked,
// shown with --show-secrets); refresh and preview show no change; a `pulumi up` killed (the CLI's
// process group and the plugin, SIGKILL) during the branch's create and again during the role's
// converges on the next run of the workflow's command, with no orphan; destroy leaves nothing (the
// bucket and the function 404). In Python and Java, `data: anonymized` gives production's rows with
// the masking rule's column masked.
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { DEMO, type RunningEmulator, startEmulator } from "../../../emulator";
import { call, dataPlaneRun, runSql } from "../../emulator/helpers";
import { killPlugins, runCli } from "./kill";
import type { ProgramLanguage } from "./languages";
import { programStack } from "./programStack";
import { collect, type E2eStack, isEncryptedSecret, leaks, leaksUnder, ROOT } from "./stack";
import { previewOnBranch, runAppMigration, userOperationsOn } from "./workflow";

const PROJECT = DEMO.projectId;

const noChange = (summary: Record<string, number | undefined>) =>
  Object.keys(summary).filter((kind) => kind !== "same");

/** The outputs every preview-environment example gives, the TypeScript one's names; the secret ones. */
const OUTPUTS = [
  "branchId",
  "expiresAt",
  "roleName",
  "DATABASE_URL",
  "AUTH_BASE_URL",
  "AUTH_JWKS_URL",
  "AUTH_PUBLISHABLE_KEY",
  "AUTH_SECRET_KEY",
  "DATA_API_URL",
  "BUCKET",
  "API_URL",
];
const SECRET_OUTPUTS = ["DATABASE_URL", "AUTH_PUBLISHABLE_KEY", "AUTH_SECRET_KEY"];

/** A function of a branch as the API shows it. */
interface ApiFunction {
  slug: string;
  invocation_url: string;
  active_deployment?: { status: string; environment: string[] };
}

/**
 * The suite of one language's example; each language has a file of its own (languageExamples.<language>.test.ts)
 * so that the three run side by side.
 */
export function describeLanguageExample(
  language: Extract<ProgramLanguage, "yaml" | "python" | "java">,
): void {
  describe(`e2e: the ${language} preview environment through the provider plugin${dataPlaneRun()}`, function () {
    // A Java program is built by Maven on every run: slower.
    this.timeout((language === "java" ? 20 : 10) * 60 * 1000);
    let emulator: RunningEmulator;
    const stacks: E2eStack[] = [];
    /** Every line the CLI printed, across the suite's commands. */
    const printed: string[] = [];

    /** A stack of the example for pull request `pullRequest`, against the emulator. */
    async function previewStack(pullRequest: string, config: Record<string, string> = {}): Promise<E2eStack> {
      const e2e = await programStack({
        copyOf: path.join(ROOT, `examples/preview-environment-${language}`),
        emulator,
        language,
        stackName: `pr-${pullRequest}`,
        config: { projectId: PROJECT, pullRequest, ...config },
        env: { CLOUDDB_POLL_INTERVAL_MS: "50,200" },
      });
      stacks.push(e2e);
      return e2e;
    }

    /** The pull request's live branches and the roles on them that are not their parent's. */
    const onBranch = (pullRequest: string) => previewOnBranch(emulator, PROJECT, pullRequest);

    /** GET `route` of branch `branchId` of the project, as the API answers it. */
    const onBranchApi = (branchId: string, route: string) =>
      call(emulator.url, "GET", `/projects/${PROJECT}/branches/${branchId}${route}`, {
        key: DEMO.personalKey,
      });

    /** The branch's functions and the names of its buckets that its parent does not have, through the API. */
    async function backendOn(branchId: string): Promise<{ functions: ApiFunction[]; buckets: string[] }> {
      const functions = await onBranchApi(branchId, "/functions");
      assert.equal(functions.status, 200, functions.text);
      const buckets = await onBranchApi(branchId, "/buckets");
      assert.equal(buckets.status, 200, buckets.text);
      const parent = emulator.control.dumpState().branches.find((b) => b.default && b.project_id === PROJECT);
      const inherited = new Set((parent?.buckets ?? []).map((b) => b.name));
      return {
        functions: functions.body.functions as ApiFunction[],
        buckets: (buckets.body.buckets as { name: string }[])
          .map((b) => b.name)
          .filter((name) => !inherited.has(name)),
      };
    }

    before(async () => {
      // Operations take 1.5 s, so a kill lands while the plugin waits on them.
      emulator = await startEmulator({ seed: "demo", opDurationMs: 1500, postgres: true });
    });
    after(async () => {
      const leaked: string[] = [];
      for (const e2e of stacks) {
        await e2e.stack.destroy().catch(() => undefined);
        leaked.push(...leaksUnder(e2e.backendDir));
        await e2e.dispose();
      }
      await emulator?.stop();
      assert.deepEqual(leaked, [], "a key or a connection string with its password in a state file");
      assert.deepEqual(
        leaks(printed.join("\n")),
        [],
        "a key or a connection string with its password in the CLI's output",
      );
    });

    it("makes the preview environment, its role before its compute (two operations in all); DATABASE_URL is a secret the app's migration connects with", async () => {
      const e2e = await previewStack("41");
      const up = await e2e.stack.up(collect(e2e.output));
      printed.push(...e2e.output);
      // The stack, the branch, the role, the compute, Auth, the Data API, the bucket, the function.
      assert.equal(up.summary.resourceChanges?.create, 8, e2e.output.join("\n"));
      const outputs = await e2e.stack.outputs();
      assert.deepEqual(Object.keys(outputs).sort(), [...OUTPUTS].sort());
      for (const name of OUTPUTS)
        assert.equal(outputs[name]?.secret, SECRET_OUTPUTS.includes(name), `${name} is secret or not`);
      const url = String(outputs.DATABASE_URL?.value);
      const { branches, roles } = onBranch("41");
      assert.equal(branches.length, 1);
      assert.equal(branches[0]?.init_source, "schema-only");
      assert.equal(branches[0]?.id, outputs.branchId?.value);
      assert.equal(roles.length, 1);
      assert.equal(decodeURIComponent(new URL(url).username), roles[0]?.name);
      assert.deepEqual(
        userOperationsOn(emulator, String(branches[0]?.id)),
        ["create_branch", "start_compute"],
        "the role is made before the compute, so it starts no operation",
      );

      // The app's migration, as the workflow's next step would run it.
      assert.deepEqual(await runAppMigration(url, emulator.caPath), [{ who: roles[0]?.name, n: 1 }]);

      const raw = e2e.rawState();
      assert.ok(!raw.includes(url), "DATABASE_URL is in the state in plain text");
      assert.ok(
        !/postgresql:\/\/[^:@"]+:[^@"]+@/.test(raw),
        "a connection string with a password is in the state",
      );
      assert.ok(!raw.includes(DEMO.personalKey), "the API key is in the state in plain text");
      const role = (
        JSON.parse(raw) as {
          checkpoint: { latest: { resources: { type: string; outputs?: Record<string, unknown> }[] } };
        }
      ).checkpoint.latest.resources.find((r) => r.type === "clouddb:index:Role");
      assert.ok(isEncryptedSecret(role?.outputs?.password), "the role's password is stored encrypted");
    });

    it("makes the rest of the backend on the preview's branch: Auth, the Data API, the bucket and the app's API, its outputs the keys masked and --show-secrets showing them", async () => {
      const e2e = stacks[0] as E2eStack;
      const outputs = Object.fromEntries(
        Object.entries(await e2e.stack.outputs()).map(([name, output]) => [name, String(output.value)]),
      );
      const branchId = outputs.branchId as string;

      const { functions, buckets } = await backendOn(branchId);
      assert.deepEqual(buckets, [outputs.BUCKET], "the preview's own bucket");
      assert.equal(functions.length, 1, JSON.stringify(functions));
      const [api] = functions;
      assert.equal(api?.invocation_url, outputs.API_URL, "API_URL is the function's invocation URL");
      assert.equal(api?.active_deployment?.status, "completed");
      assert.deepEqual(
        api?.active_deployment?.environment,
        ["AUTH_JWKS_URL", "BUCKET", "DATABASE_URL", "DATA_API_URL"],
        "the backend's settings are the function's environment",
      );
      const answer = await fetch(`${outputs.API_URL}health`);
      assert.equal(answer.status, 200, "the emulator runs the function at API_URL");
      assert.deepEqual(await answer.json(), {
        path: "/health",
        configured: { DATABASE_URL: true, AUTH_JWKS_URL: true, DATA_API_URL: true, BUCKET: true },
      });
      const auth = await onBranchApi(branchId, "/auth");
      assert.equal(auth.status, 200, auth.text);
      const dataApi = await onBranchApi(branchId, "/data-api/neondb");
      assert.equal(dataApi.status, 200, dataApi.text);
      assert.match(outputs.DATA_API_URL as string, /^https:\/\/.+\/neondb\/rest\/v1$/);
      const jwks = await fetch(outputs.AUTH_JWKS_URL as string);
      assert.equal(jwks.status, 200, "the preview's Auth serves its JWKS");

      const masked = await runCli(e2e, ["stack", "output", "--json"]);
      printed.push(masked.output);
      assert.equal(masked.code, 0, masked.output);
      const shown = await runCli(e2e, ["stack", "output", "--json", "--show-secrets"]);
      assert.equal(shown.code, 0, "pulumi stack output --show-secrets failed");
      for (const name of OUTPUTS) {
        assert.equal(
          JSON.parse(masked.output)[name],
          SECRET_OUTPUTS.includes(name) ? "[secret]" : outputs[name],
          `${name} as the CLI prints it`,
        );
        assert.equal(JSON.parse(shown.output)[name], outputs[name], `${name} with --show-secrets`);
      }
      const raw = e2e.rawState();
      for (const name of SECRET_OUTPUTS)
        assert.ok(!raw.includes(outputs[name] as string), `${name} is in the state in plain text`);
    });

    it("refreshes and previews with no change, then destroy leaves no branch, bucket or function", async () => {
      const e2e = stacks[0] as E2eStack;
      const outputs = await e2e.stack.outputs();
      const branchId = String(outputs.branchId?.value);
      const [api] = (await backendOn(branchId)).functions;
      assert.ok(api, "the preview's function");
      const refresh = await e2e.stack.refresh(collect(e2e.output));
      printed.push(...e2e.output);
      assert.deepEqual(noChange(refresh.summary.resourceChanges ?? {}), [], e2e.output.join("\n"));
      const preview = await e2e.stack.preview(collect(e2e.output));
      printed.push(...e2e.output);
      assert.deepEqual(noChange(preview.changeSummary), [], e2e.output.join("\n"));
      await e2e.stack.destroy(collect(e2e.output));
      printed.push(...e2e.output);
      assert.deepEqual(onBranch("41"), { branches: [], roles: [] });
      for (const route of [`/buckets/${String(outputs.BUCKET?.value)}/objects`, `/functions/${api.slug}`]) {
        const left = await onBranchApi(branchId, route);
        assert.equal(left.status, 404, `${route} after destroy: ${left.text}`);
      }
    });

    it("converges after up is killed (the CLI and the plugin, SIGKILL) during the branch's create and the role's", async () => {
      const e2e = await previewStack("42");
      const kills: [string, () => boolean][] = [
        ["the branch's create", () => onBranch("42").branches.length >= 1],
        ["the role's create", () => onBranch("42").roles.length >= 1],
      ];
      for (const [what, when] of kills) {
        let plugins = 0;
        // As the workflow does before each up: release the lock a killed run left.
        await runCli(e2e, ["cancel", "--yes"]);
        const run = await runCli(e2e, ["up", "--yes", "--skip-preview"], {
          killWhen: when,
          alsoKill: () => {
            plugins = killPlugins(e2e.stack.workspace.workDir);
          },
        });
        printed.push(run.output);
        assert.equal(run.code, "killed", `up was not killed during ${what}:\n${run.output}`);
        assert.ok(plugins >= 1, `a plugin process was killed during ${what}`);
      }
      // The workflow's command: release the killed run's lock, then up with a refresh first.
      await runCli(e2e, ["cancel", "--yes"]);
      const run = await runCli(e2e, ["up", "--refresh", "--yes"]);
      printed.push(run.output);
      assert.equal(run.code, 0, run.output);
      const { branches, roles } = onBranch("42");
      assert.equal(branches.length, 1, `one branch, no orphan: ${JSON.stringify(branches.map((b) => b.id))}`);
      assert.equal(roles.length, 1, `one role, no orphan: ${JSON.stringify(roles.map((r) => r.name))}`);
      const { functions, buckets } = await backendOn(String(branches[0]?.id));
      assert.deepEqual(
        [functions.length, buckets.length],
        [1, 1],
        `one function and one bucket: ${JSON.stringify({ functions, buckets })}`,
      );
      const preview = await e2e.stack.preview(collect(e2e.output));
      assert.deepEqual(noChange(preview.changeSummary), [], e2e.output.join("\n"));
      await e2e.stack.destroy(collect(e2e.output));
      assert.deepEqual(onBranch("42"), { branches: [], roles: [] });
    });

    // Pulumi YAML has no conditional to pick the branch's source from a `data` config: its example
    // stays schema-only.
    if (language !== "yaml") {
      it("with data: anonymized, DATABASE_URL reads production's rows with the emails its masking rule names masked", async () => {
        const answer = await call(
          emulator.url,
          "GET",
          `/projects/${PROJECT}/connection_uri?database_name=neondb&role_name=neondb_owner`,
          { key: DEMO.personalKey },
        );
        assert.equal(answer.status, 200, answer.text);
        const production = answer.body.uri as string;
        const emails = ["ada@corp.example", "grace@corp.example"];
        await runSql(
          production,
          emulator.caPath,
          "CREATE TABLE people (id serial PRIMARY KEY, email text, team text)",
          `INSERT INTO people (email, team) VALUES ('${emails[0]}', 'core'), ('${emails[1]}', 'db')`,
        );
        const rule = {
          databaseName: "neondb",
          tableName: "people",
          columnName: "email",
          maskingFunction: "anon.fake_email()",
        };
        const e2e = await previewStack("43", { data: "anonymized", maskingRules: JSON.stringify([rule]) });
        await e2e.stack.up(collect(e2e.output));
        printed.push(...e2e.output);
        const url = String((await e2e.stack.outputs()).DATABASE_URL?.value);
        const rows = await runSql<{ email: string; team: string }>(
          url,
          emulator.caPath,
          "SELECT email, team FROM people ORDER BY id",
        );
        assert.deepEqual(
          rows.map((r) => r.team),
          ["core", "db"],
          "production's rows",
        );
        for (const { email } of rows) {
          assert.match(email, /^[^@\s]+@[^@\s]+\.[a-z]+$/);
          assert.ok(!emails.includes(email), `${email} is masked`);
        }
        const kept = await runSql<{ email: string }>(
          production,
          emulator.caPath,
          "SELECT email FROM people ORDER BY id",
        );
        assert.deepEqual(
          kept.map((r) => r.email),
          emails,
          "production keeps its data",
        );
        await e2e.stack.destroy(collect(e2e.output));
      });
    }
  });
}
