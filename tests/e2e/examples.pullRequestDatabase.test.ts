// The pull-request-database example's GitHub workflow under the real Pulumi engine, against the
// emulator's real Postgres and a loopback server answering as GitHub's REST API does: opened posts
// one comment with the preview's branch, host, migrations and schema diff and no secret; a push
// with a migration added edits that comment (found past the first page of comments), its diff cut
// to what a comment holds; closed deletes the branch and removes the stack; the nightly sweep
// deletes the branch of a pull request whose stack was removed without a destroy.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { promisify } from "node:util";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { ROOT } from "./support/stack";
import {
  type Checkout,
  checkoutExample,
  type JobRun,
  previewOnBranch,
  readWorkflow,
} from "./support/workflow";

const execFileAsync = promisify(execFile);

const EXAMPLE = path.join(ROOT, "examples/pull-request-database/typescript");
const WORKFLOW = "pull-request-database.yml";
const PROJECT = DEMO.orgProjectId;
const PULL_REQUEST = "21";
const REPOSITORY = "acme/shop";
const TOKEN = "ghs_workflowtoken0123456789";
/** What GitHub's API refuses a comment's body beyond. */
const COMMENT_LIMIT = 65536;
/** The step of the `up` job that writes the comment. */
const COMMENT_STEP = "Comment the preview on the pull request";

interface Comment {
  id: number;
  issue: number;
  body: string;
  user: { login: string };
}

interface Recorded {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

/**
 * GitHub's REST API for issue comments as the workflow calls it, on loopback: lists (paged by
 * `per_page`, at most 100, and `page`), creates (201) and edits a comment, refuses a body longer
 * than GitHub keeps (422) and a request without the token (401); it records every request.
 */
async function fakeGitHub() {
  const comments: Comment[] = [];
  const requests: Recorded[] = [];
  let nextId = 5000;
  const add = (issue: number, body: string, login: string) => {
    const comment = { id: nextId++, issue, body, user: { login } };
    comments.push(comment);
    return comment;
  };
  const view = (c: Comment) => ({
    id: c.id,
    body: c.body,
    user: c.user,
    html_url: `https://github.com/${REPOSITORY}/pull/${c.issue}#issuecomment-${c.id}`,
  });
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => {
      body += d;
    });
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      requests.push({
        method: req.method ?? "",
        url: url.pathname + url.search,
        authorization: req.headers.authorization,
        body,
      });
      const answer = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify(json));
      };
      const auth = req.headers.authorization;
      if (auth !== `Bearer ${TOKEN}` && auth !== `token ${TOKEN}`)
        return answer(401, { message: auth === undefined ? "Requires authentication" : "Bad credentials" });
      const text = (): { body: string } | { body?: undefined; error: string } => {
        let parsed: { body?: unknown };
        try {
          parsed = JSON.parse(body) as { body?: unknown };
        } catch {
          return { error: "Problems parsing JSON" };
        }
        if (typeof parsed?.body !== "string") return { error: "body wasn't supplied." };
        if (parsed.body.length > COMMENT_LIMIT)
          return { error: `body is too long (maximum is ${COMMENT_LIMIT} characters)` };
        return { body: parsed.body };
      };
      const onIssue = url.pathname.match(/^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/);
      const one = url.pathname.match(/^\/repos\/([^/]+\/[^/]+)\/issues\/comments\/(\d+)$/);
      if (onIssue?.[1] === REPOSITORY && req.method === "GET") {
        const perPage = Math.min(Number(url.searchParams.get("per_page") ?? 30), 100);
        const page = Number(url.searchParams.get("page") ?? 1);
        const all = comments.filter((c) => c.issue === Number(onIssue[2]));
        return answer(200, all.slice((page - 1) * perPage, page * perPage).map(view));
      }
      if (onIssue?.[1] === REPOSITORY && req.method === "POST") {
        const given = text();
        if (given.body === undefined)
          return answer(422, { message: "Validation Failed", errors: [given.error] });
        return answer(201, view(add(Number(onIssue[2]), given.body, "github-actions[bot]")));
      }
      if (one?.[1] === REPOSITORY && req.method === "PATCH") {
        const comment = comments.find((c) => c.id === Number(one[2]));
        if (comment === undefined) return answer(404, { message: "Not Found" });
        const given = text();
        if (given.body === undefined)
          return answer(422, { message: "Validation Failed", errors: [given.error] });
        comment.body = given.body;
        return answer(200, view(comment));
      }
      answer(404, { message: "Not Found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    comments,
    requests,
    add,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("e2e: the pull-request-database example's workflow under the real Pulumi engine", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let github: Awaited<ReturnType<typeof fakeGitHub>>;
  let checkout: Checkout;
  /** The id of the comment the workflow posted. */
  let commentId: number;

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60, postgres: true });
    github = await fakeGitHub();
    // The pull request's conversation so far: a full first page of people's comments, one of them
    // naming the marker; and the workflow's comment on another pull request.
    for (let i = 1; i <= 100; i++)
      github.add(
        Number(PULL_REQUEST),
        i === 7
          ? "Why does <!-- pull-request-database preview --> show up in the source?"
          : `Review note ${i}`,
        "casey",
      );
    github.add(
      8,
      "<!-- pull-request-database preview -->\n### Preview database\n\n- Branch: `br-other`",
      "github-actions[bot]",
    );
    checkout = repositoryCheckout(PULL_REQUEST);
  });
  after(async () => {
    if (checkout !== undefined && previewOnBranch(emulator, PROJECT, PULL_REQUEST).branches.length > 0)
      await checkout.runJob("destroy").catch(() => undefined);
    checkout?.dispose();
    await github?.close();
    await emulator?.stop();
  });

  /** The repository checked out for a run of the workflow on pull request `pullRequest`. */
  function repositoryCheckout(pullRequest: string): Checkout {
    return checkoutExample({
      example: EXAMPLE,
      workflow: WORKFLOW,
      apiUrl: emulator.url,
      apiKey: DEMO.personalKey,
      projectId: PROJECT,
      pullRequest,
      install: "link",
      // What a runner sets for every step; the endpoints' CA, which the service's certificates need not.
      env: {
        GITHUB_API_URL: github.url,
        GITHUB_REPOSITORY: REPOSITORY,
        PGSSLROOTCERT: emulator.caPath ?? "",
      },
      stepEnv: { GITHUB_TOKEN: TOKEN },
    });
  }

  /** The stack's outputs, secrets shown. */
  async function outputs() {
    const { stdout } = await execFileAsync(
      "pulumi",
      ["stack", "output", "--json", "--show-secrets", "--stack", checkout.env.STACK ?? ""],
      { cwd: checkout.programDir, env: checkout.env, encoding: "utf8" },
    );
    return JSON.parse(stdout) as {
      branchId: string;
      host: string;
      expiresAt: string;
      appliedMigrations: { name: string }[];
      schemaDiff: string;
      runtimeUri: string;
      migrationUri: string;
    };
  }

  /** Every password the preview's roles have: the stack's connection strings' and the emulator's. */
  function passwords(out: Awaited<ReturnType<typeof outputs>>): string[] {
    const branch = emulator.control.dumpState().branches.find((b) => b.id === out.branchId);
    const found = [
      new URL(out.runtimeUri).password,
      new URL(out.migrationUri).password,
      ...(branch?.roles ?? []).map((r) => r.password ?? ""),
    ].filter((p) => p !== "");
    assert.ok(found.length >= 2, "the preview's roles have passwords");
    return found;
  }

  /** The output of step `name` of a job's run. */
  const stepOutput = (run: JobRun, name: string) =>
    run.output.split(/^--- /m).find((s) => s.startsWith(name)) ?? "";

  /** The comment body the workflow wrote last, after checking what it never holds. */
  function written(out: Awaited<ReturnType<typeof outputs>>, run: JobRun): string {
    const body = github.comments.find((c) => c.id === commentId)?.body ?? "";
    for (const password of passwords(out)) {
      for (const r of github.requests) assert.ok(!r.body.includes(password), "no password sent to GitHub");
      assert.ok(!stepOutput(run, COMMENT_STEP).includes(password), "no password in the step's log");
    }
    for (const r of github.requests)
      assert.doesNotMatch(r.body, /postgres(ql)?:\/\//, "no connection string");
    return body;
  }

  it("opened: the up job posts one comment, marked, with the branch, host, expiry, migrations and the whole schema diff", async () => {
    const workflow = readWorkflow(EXAMPLE, WORKFLOW);
    assert.deepEqual(
      Object.keys(workflow.env).filter((k) => !(k in checkout.env)),
      [],
      "the test gives every variable of the workflow's env",
    );
    assert.equal(workflow.jobs.up?.permissions?.["pull-requests"], "write", "the token may comment");

    const opened = await checkout.runJob("up");
    assert.equal(opened.code, 0, opened.output);
    const out = await outputs();
    const live = previewOnBranch(emulator, PROJECT, PULL_REQUEST).branches;
    assert.deepEqual(
      live.map((b) => b.id),
      [out.branchId],
    );
    const compute = emulator.control.dumpState().endpoints.find((e) => e.branch_id === out.branchId);
    assert.ok(compute && out.host.startsWith(compute.id), `${out.host} is the branch's compute`);

    const posts = github.requests.filter((r) => r.method === "POST");
    assert.equal(posts.length, 1, "one comment posted");
    assert.equal(posts[0]?.url, `/repos/${REPOSITORY}/issues/${PULL_REQUEST}/comments`);
    assert.deepEqual(
      github.requests.filter((r) => r.method === "PATCH"),
      [],
      "no comment edited: neither the people's nor another pull request's",
    );
    for (const r of github.requests) assert.match(r.authorization ?? "", /^(Bearer|token) /);
    const mine = github.comments.filter((c) => c.issue === Number(PULL_REQUEST) && c.user.login !== "casey");
    assert.equal(mine.length, 1);
    commentId = mine[0]!.id;

    const body = written(out, opened);
    assert.ok(body.startsWith("<!-- pull-request-database preview -->\n"), body);
    assert.ok(body.includes(`\`${out.branchId}\``), body);
    assert.ok(body.includes(`\`${out.host}\``), body);
    assert.ok(body.includes(out.expiresAt), body);
    assert.ok(out.appliedMigrations.some((m) => m.name === "0001_orders.sql"));
    for (const { name } of out.appliedMigrations)
      assert.ok(body.includes(`\`${name}\``), `${name} in ${body}`);
    assert.match(out.schemaDiff, /CREATE TABLE public\.orders/);
    assert.ok(body.includes(`\`\`\`diff\n${out.schemaDiff.trimEnd()}\n\`\`\``), body);
    assert.doesNotMatch(body, /_The diff is cut/);

    // The step after hands the runtime role's connection string on, masked first.
    const handed = checkout.githubEnv().match(/^DATABASE_URL=(.*)$/m)?.[1];
    assert.equal(handed, out.runtimeUri);
    assert.ok(opened.output.includes(`::add-mask::${out.runtimeUri}`));
  });

  it("synchronize with a migration added: the up job edits the same comment, which names it, its long diff cut at a line", async () => {
    const migrations = path.join(checkout.programDir, "migrations");
    assert.ok(!fs.lstatSync(migrations).isSymbolicLink(), "the checkout's own folder, not the repository's");
    const last = fs.readdirSync(migrations).sort().at(-1) ?? "0000";
    const added = `${String(Number(last.slice(0, 4)) + 1).padStart(4, "0")}_wide_tables.sql`;
    // Enough tables that the schema's diff is longer than a comment holds.
    fs.writeFileSync(
      path.join(migrations, added),
      [
        "DO $$",
        "BEGIN",
        "  FOR t IN 1..150 LOOP",
        "    EXECUTE format('CREATE TABLE wide_%s (%s)', lpad(t::text, 3, '0'),",
        "      (SELECT string_agg(format('column_with_a_long_name_%s text', c), ', ') FROM generate_series(1, 12) c));",
        "  END LOOP;",
        "END $$;",
        "",
      ].join("\n"),
    );
    const before = github.requests.length;
    const pushed = await checkout.runJob("up");
    assert.equal(pushed.code, 0, pushed.output);
    const out = await outputs();
    assert.equal(out.appliedMigrations.at(-1)?.name, added);
    assert.ok(out.schemaDiff.length > COMMENT_LIMIT, "the whole diff is longer than a comment");

    const sent = github.requests.slice(before);
    assert.deepEqual(
      sent.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.url}`),
      [`PATCH /repos/${REPOSITORY}/issues/comments/${commentId}`],
      "the same comment edited, none posted",
    );
    assert.ok(
      sent.some((r) => r.method === "GET" && /[?&]page=2\b/.test(r.url)),
      "the comment was found on the second page",
    );
    for (const r of sent) assert.match(r.authorization ?? "", /^(Bearer|token) /);

    const body = written(out, pushed);
    assert.ok(body.length <= COMMENT_LIMIT);
    assert.ok(body.startsWith("<!-- pull-request-database preview -->\n"));
    assert.ok(body.includes(`\`${added}\``), body.slice(0, 600));
    const shown = body.match(/^```diff\n([\s\S]*?)\n```$/m)?.[1];
    assert.ok(shown !== undefined, body.slice(0, 600));
    assert.match(shown, /CREATE TABLE public\.orders/);
    assert.ok(out.schemaDiff.startsWith(`${shown}\n`), "the diff's first lines, whole");
    assert.ok(shown.length > COMMENT_LIMIT / 2, "as much of it as fits");
    assert.match(body, /\n_The diff is cut[^\n]*pulumi stack output schemaDiff --stack pr-21[^\n]*_$/);
    assert.equal(
      github.comments.filter((c) => c.body.startsWith("<!-- pull-request-database preview -->")).length,
      2,
      "this pull request's and the other's",
    );
  });

  it("closed: the destroy job deletes the branch and removes the stack", async () => {
    const { branchId } = await outputs();
    const before = github.requests.length;
    const closed = await checkout.runJob("destroy");
    assert.equal(closed.code, 0, closed.output);
    assert.deepEqual(previewOnBranch(emulator, PROJECT, PULL_REQUEST).branches, []);
    const branch = emulator.control.dumpState().branches.find((b) => b.id === branchId);
    assert.ok(branch === undefined || branch.deleted_at_ms !== undefined, "the branch is deleted");
    const { stdout: stacks } = await execFileAsync("pulumi", ["stack", "ls", "--json"], {
      cwd: checkout.programDir,
      env: checkout.env,
      encoding: "utf8",
    });
    assert.deepEqual(JSON.parse(stacks), [], "the pull request's stack is removed");
    assert.equal(github.requests.length, before, "the comment stays as the last up left it");
  });

  it("nightly: the sweep job deletes the branch of a pull request whose stack was removed without a destroy, and nothing else", async () => {
    // Pull request 22 of the same repository: its up, then its stack removed by force.
    const other = repositoryCheckout("22");
    try {
      const opened = await other.runJob("up");
      assert.equal(opened.code, 0, opened.output);
      const [orphan] = previewOnBranch(emulator, PROJECT, "22").branches;
      assert.ok(orphan, "pull request 22 has its preview");
      await execFileAsync("pulumi", ["stack", "rm", "--force", "--yes", "--stack", "pr-22"], {
        cwd: other.programDir,
        env: other.env,
      });
      const others = () =>
        emulator.control
          .dumpState()
          .branches.filter(
            (b) => b.project_id === PROJECT && b.deleted_at_ms === undefined && b.id !== orphan.id,
          )
          .map((b) => b.id)
          .sort();
      const kept = others();

      const swept = await other.runJob("sweep");
      assert.equal(swept.code, 0, swept.output);
      const branch = emulator.control.dumpState().branches.find((b) => b.id === orphan.id);
      assert.ok(branch === undefined || branch.deleted_at_ms !== undefined, "the orphan is deleted");
      assert.deepEqual(others(), kept, "no other branch of the project is touched");
      const report = JSON.parse(fs.readFileSync(path.join(other.programDir, "sweep-report.json"), "utf8"));
      assert.match(JSON.stringify(report), new RegExp(orphan.id), "the report names the orphan");
      assert.doesNotMatch(swept.output, new RegExp(DEMO.personalKey), "the key is never printed");
    } finally {
      other.dispose();
    }
  });
});
