/**
 * `clouddb sweep`: finds the branches a stack made that no live stack owns (its stack is gone, no
 * longer holds it, or its expiry has passed) and, with `--delete`, deletes them. Every run reads
 * everything again, so a run cut off halfway is finished by the next. The account is the
 * provider's: `CLOUDDB_API_KEY` and `CLOUDDB_API_URL`.
 */
import { writeFileSync } from "node:fs";
import { type CloudDbClient, createClient, isApiError, isNotFound } from "../client";
import { clearBelow, deleteOrder, type Finding, findUnowned, type Judgement, markedBranches } from "./find";
import { parseSweepArgs, type SweepOptions } from "./options";
import { reported, type SweepReport, table } from "./report";
import { heldBranches, listStacks, shownBackend, stateReader } from "./stacks";

/** Exit codes: nothing found (or all found deleted), found in a dry run, a failure. */
export const EXIT = { clean: 0, found: 10, failed: 1 } as const;

/** What a step was doing when it failed, and the failure, as one line with the API's request id. */
function failure(step: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const id = isApiError(err) && err.requestId !== undefined ? ` (request id ${err.requestId})` : "";
  return `${step} failed: ${message}${id}`;
}

/** Where a run writes: lines for the user, lines about failures, and the client it uses (default: from the environment). */
interface SweepIo {
  out: (line: string) => void;
  err: (line: string) => void;
  client?: CloudDbClient;
}

/**
 * Runs a sweep as `options` say, writing to `io` and, with `--report`, the JSON report (also when
 * it fails, with what failed); answers the exit code.
 */
export async function sweep(options: SweepOptions, io: SweepIo): Promise<number> {
  const report: SweepReport = {
    projectId: options.projectId,
    backend: shownBackend(options.backend),
    mode: options.delete ? "delete" : "dry-run",
    at: new Date().toISOString(),
    found: [],
    deleted: [],
    errors: [],
  };
  const failed = (line: string) => {
    report.errors.push(line);
    io.err(line);
  };
  const found = await run(options, io.client ?? createClient(), io.out, failed, report);
  if (options.report !== undefined) {
    try {
      writeFileSync(options.report, `${JSON.stringify(report, null, 2)}\n`);
    } catch (err) {
      io.err(`${failure(`writing the report to ${options.report}`, err)}: give --report a writable path`);
      return EXIT.failed;
    }
  }
  if (report.errors.length > 0) return EXIT.failed;
  return found > 0 && !options.delete ? EXIT.found : EXIT.clean;
}

/** One run: lists, judges, prints and (with `--delete`) deletes, recording in `report`; answers how many it found. */
async function run(
  options: SweepOptions,
  client: CloudDbClient,
  out: (line: string) => void,
  failed: (line: string) => void,
  report: SweepReport,
): Promise<number> {
  const { projectId, backend } = options;
  let listing: Awaited<ReturnType<CloudDbClient["listAnnotatedBranches"]>>;
  try {
    listing = await client.listAnnotatedBranches(projectId);
  } catch (err) {
    failed(
      `${failure(`listing the branches of project ${projectId}`, err)}. ` +
        "Check the project id, CLOUDDB_API_KEY (a key that can read the project) and CLOUDDB_API_URL",
    );
    return 0;
  }
  const now = Date.now();
  const marked = markedBranches(listing.branches, listing.annotations);
  let judgement: Judgement;
  try {
    const needStacks = marked.some((m) => !(Date.parse(m.branch.expires_at ?? "") <= now));
    const stacks = needStacks ? await listStacks(backend) : [];
    judgement = findUnowned(
      marked,
      now,
      stacks,
      stateReader((name) => heldBranches(backend, name)),
    );
  } catch (err) {
    failed(failure(`reading the stacks of backend ${shownBackend(backend)}`, err));
    return 0;
  }
  // The lines of deletes made before the table is printed wait for it.
  const waiting: string[] = [];
  let tableShown = false;
  const say = (line: string) => (tableShown ? out(line) : waiting.push(line));
  const showWaiting = () => {
    tableShown = true;
    for (const line of waiting.splice(0)) out(line);
  };
  const deleteEach = async (list: readonly Finding[]) => {
    for (const f of list) {
      try {
        const answer = await client.deleteBranch(projectId, f.branch.id);
        report.deleted.push(f.branch.id);
        say(`deleted ${f.branch.id} (${f.branch.name})${answer === null ? ": already gone" : ""}`);
      } catch (err) {
        if (isNotFound(err)) {
          report.deleted.push(f.branch.id);
          say(`deleted ${f.branch.id} (${f.branch.name}): already gone`);
        } else
          failed(
            `${failure(`deleting branch ${f.branch.id} (${f.branch.name})`, err)}. ` +
              "Run the sweep again; if it fails again, delete the branch in the console or keep it",
          );
      }
    }
  };
  // With --delete, what the marks and the stack list decide is deleted while the stacks' states are
  // read (one export per stack, the longest part of a run), unless a branch still to judge is below
  // it: children go first.
  const first = options.delete
    ? deleteOrder(clearBelow(judgement.atOnce, judgement.undecided, listing.branches), listing.branches)
    : [];
  const deletingFirst = deleteEach(first);
  let found: Finding[];
  try {
    found = await judgement.all;
  } catch (err) {
    await deletingFirst;
    report.found = first.map(reported);
    showWaiting();
    failed(failure(`reading the stacks of backend ${shownBackend(backend)}`, err));
    return first.length;
  }
  report.found = found.map(reported);
  if (found.length === 0) out(`No branch of project ${projectId} is left without its stack.`);
  else {
    out(table(found, now));
    out(
      options.delete
        ? `Deleting ${found.length} branch(es), children first.`
        : `${found.length} branch(es) no stack owns. Run again with --delete to delete them.`,
    );
  }
  showWaiting();
  if (!options.delete) return found.length;
  await deletingFirst;
  const started = new Set(first.map((f) => f.branch.id));
  await deleteEach(
    deleteOrder(
      found.filter((f) => !started.has(f.branch.id)),
      listing.branches,
    ),
  );
  return found.length;
}

/** The command: parses `argv`, runs the sweep, answers the exit code; a usage error is a failure that says what to change. */
export async function main(argv: readonly string[]): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const err = (line: string) => process.stderr.write(`clouddb: ${line}\n`);
  let options: SweepOptions;
  try {
    options = parseSweepArgs(argv);
  } catch (e) {
    err(e instanceof Error ? e.message : String(e));
    return EXIT.failed;
  }
  return sweep(options, { out, err });
}
