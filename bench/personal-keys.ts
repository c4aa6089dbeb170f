// Benchmark 8: N personal API keys in one `pulumi up` (the real engine) against the emulator's real
// rate limits, next to an empty `up` of the same program. Personal keys are created on a route with
// the per-route limit of 40 per second, so the keys themselves take a fraction of a second: the
// wall time above the empty `up` is what the provider adds.
import { emptyUp, engineRun, type KeySpec, noopUp, timedUp } from "./support/engine";
import { fmt, median, secs, signedSecs, type Table, verdict } from "./support/stats";
import { routeWindow } from "./support/window";

const PERSONAL_KEY_ROUTE = "POST /api_keys";
const LIMIT_PER_SECOND = 40;
/** The target: the `up` takes at most this much longer than the empty program's. */
const ABOVE_EMPTY_MS = 1500;

interface PersonalKeysRun {
  upMs: number;
  /** From the start of `up` to the first key request. */
  beforeMs: number;
  windowMs: number;
  /** From the engine's summary to the end of `up`: the CLI closing its plugins and exiting. */
  afterSummaryMs: number;
  created: number;
  rateLimited: number;
  error?: string;
}

function keyScenario(n: number): KeySpec[] {
  return Array.from({ length: n }, (_, i) => ({ res: `k${i}`, name: `personal-key-${i}` }));
}

async function runOnce(n: number): Promise<PersonalKeysRun> {
  const run = await engineRun({ scenario: { keys: keyScenario(n) }, emulator: {} });
  try {
    const { ms, startedAt, afterSummaryMs, error } = await timedUp(run);
    const log = run.emulator.control.requests();
    const window = routeWindow(log, PERSONAL_KEY_ROUTE);
    return {
      upMs: ms,
      beforeMs: window.first - startedAt,
      windowMs: window.spanMs,
      afterSummaryMs,
      created: window.ok,
      rateLimited: log.filter((r) => r.status === 429).length,
      ...(error === undefined ? {} : { error }),
    };
  } finally {
    await run.dispose();
  }
}

/** Benchmark 8 as a table. */
export async function benchPersonalKeys(opts: {
  n: number;
  runs: number;
  log: (line: string) => void;
}): Promise<Table> {
  const { n, runs } = opts;
  const done: PersonalKeysRun[] = [];
  const empties: { ms: number; afterSummaryMs: number }[] = [];
  const noops: number[] = [];
  for (let i = 0; i < runs; i++) {
    // Alternated with the keys' `up`, so all three see the same load on the machine.
    empties.push(await emptyUp(1));
    noops.push(await noopUp(n));
    const r = await runOnce(n);
    opts.log(
      `  run ${i + 1}/${runs}: empty up ${secs(empties.at(-1)!.ms)}, no-op up ${secs(noops.at(-1)!)}, up ${secs(r.upMs)}, first key request after ${secs(r.beforeMs)}, key window ${secs(r.windowMs)}, ` +
        `after the summary ${secs(r.afterSummaryMs)} (empty ${secs(empties.at(-1)!.afterSummaryMs)}), ` +
        `created ${r.created}, 429s ${r.rateLimited}${r.error ? `\n    error: ${r.error}` : ""}`,
    );
    done.push(r);
  }
  const empty = median(empties.map((e) => e.ms));
  const noop = median(noops);
  const emptyTail = median(empties.map((e) => e.afterSummaryMs));
  const tail = median(done.map((r) => r.afterSummaryMs));
  const up = median(done.map((r) => r.upMs));
  const window = median(done.map((r) => r.windowMs));
  const before = median(done.map((r) => r.beforeMs));
  const created = Math.min(...done.map((r) => r.created));
  const limited = Math.max(...done.map((r) => r.rateLimited));
  // The bucket of 40 starts full: n keys need (n - 40) / 40 s after the first request.
  const floorMs = (Math.max(0, n - LIMIT_PER_SECOND) / LIMIT_PER_SECOND) * 1000;
  const rate = created / (window / 1000);
  return {
    title: `8. ${n} personal keys in one \`pulumi up\`, real rate limits — median of ${runs}`,
    header: ["figure", "measured", "compared to", "difference / ratio", "target", "verdict"],
    rows: [
      ["keys created (worst run)", `${created}/${n}`, String(n), "", "all", verdict(created === n)],
      ["429 responses (worst run)", String(limited), "0", "", "0", verdict(limited === 0)],
      [
        "`up` wall time",
        secs(up),
        `empty \`up\` ${secs(empty)}`,
        signedSecs(up - empty),
        `≤ +${secs(ABOVE_EMPTY_MS)}`,
        verdict(up - empty <= ABOVE_EMPTY_MS),
      ],
      [
        `the same program with ${n} resources of a no-op dynamic provider (Pulumi's own cost)`,
        secs(noop),
        `empty \`up\` ${secs(empty)}`,
        signedSecs(noop - empty),
        "",
        "",
      ],
      ["ours: `up` − the no-op `up`", signedSecs(up - noop), "", "", "", ""],
      [
        "from the start of `up` to the first key request",
        secs(before),
        `empty \`up\` ${secs(empty)}`,
        signedSecs(before - empty),
        "",
        "",
      ],
      ["after the key-creation window, to the end of `up`", secs(up - before - window), "", "", "", ""],
      [
        "of it, after the engine's summary (the CLI's exit)",
        secs(tail),
        `empty \`up\` ${secs(emptyTail)}`,
        signedSecs(tail - emptyTail),
        "",
        "",
      ],
      ["key-creation window", secs(window), `floor ${secs(floorMs)}`, signedSecs(window - floorMs), "", ""],
      [
        "keys/s over the key-creation window",
        fmt(rate, 1),
        `${LIMIT_PER_SECOND}/s`,
        fmt(rate / LIMIT_PER_SECOND),
        "≥ 0.9",
        verdict(rate / LIMIT_PER_SECOND >= 0.9),
      ],
    ],
    notes: [
      `The empty \`up\` runs the same scenario program with no resources, on a fresh stack, alternated with the keys' runs.`,
      `The key-creation window runs from the first ${PERSONAL_KEY_ROUTE} to the last successful response. ${PERSONAL_KEY_ROUTE} has the per-route limit (${LIMIT_PER_SECOND}/s, a bucket of ${LIMIT_PER_SECOND} that starts full), so its floor is max(0, ${n} − ${LIMIT_PER_SECOND}) / ${LIMIT_PER_SECOND} s and the rate over a window this short can exceed the limit.`,
      "The difference to the empty `up` holds the dynamic-provider process start, the engine's steps for each resource and the API calls; bench 7 splits the start-up.",
      `The no-op program declares ${n} \`pulumi.dynamic.Resource\`s whose provider's create returns at once, without any API: the plugin start and the engine's steps (a Check, then a Create, per resource) that any dynamic provider pays for this shape. What the keys' \`up\` takes beyond it is ours.`,
      "Each `up` is the CLI's `pulumi up --yes --skip-preview`, as a pipeline runs it. After the engine's summary the CLI closes its plugins (the provider process is gone within tens of ms: the engine's log shows no wait on it) and exits.",
    ],
  };
}
