// The two files `npm run bench -- --write` keeps: RESULTS.md holds the current figure of each
// benchmark (one section per benchmark, from the newest run of it), HISTORY.md every run in the
// order they were made. A run replaces the sections of the benchmarks it ran, keeps the others as
// they were, and is appended to the history whole.

import * as fs from "node:fs";
import * as path from "node:path";

/** One run with `--write`: how it was made, and the Markdown of each benchmark it ran. */
export interface BenchRun {
  /** When the run started (names the run in the history). */
  started: Date;
  /** The command line, as the reader would type it. */
  command: string;
  /** Markdown list items describing the run (date, machine, versions, load), shown with each figure. */
  about: string[];
  /** The rendered tables of each benchmark the run measured, by benchmark number, in run order. */
  benches: Map<number, string>;
}

const RESULTS_INTRO = [
  "# Benchmark results",
  "",
  "The current figure of each benchmark: its newest run, with the command, machine and load of that",
  "run. Earlier runs, and the analyses written with them, are in [HISTORY.md](HISTORY.md).",
  "`npm run bench -- --write` replaces the sections of the benchmarks it ran, keeps the others, and",
  "appends the run to HISTORY.md.",
  "",
].join("\n");

const HISTORY_INTRO = [
  "# Benchmark history",
  "",
  "Every written run of the benchmarks, oldest first, with the notes written at the time; a later",
  "run supersedes an earlier figure of the same benchmark. The current figures are in",
  "[RESULTS.md](RESULTS.md).",
  "",
].join("\n");

/** The heading a benchmark's section starts with in RESULTS.md. */
const SECTION = /^## Bench (\d+)[ \t]*$/gm;

/** RESULTS.md split into its introduction and its sections by benchmark number. */
export function parseResults(text: string): { intro: string; sections: Map<number, string> } {
  const sections = new Map<number, string>();
  const heads = [...text.matchAll(SECTION)];
  const intro = heads.length === 0 ? text : text.slice(0, heads[0]!.index);
  heads.forEach((head, i) => {
    const end = heads[i + 1]?.index ?? text.length;
    sections.set(Number(head[1]), text.slice(head.index + head[0].length, end).trim());
  });
  return { intro, sections };
}

/** The body of a benchmark's section: the run it comes from, then its tables. */
function sectionBody(run: BenchRun, tables: string): string {
  return [`- Command: \`${run.command}\``, ...run.about, "", tables.trim()].join("\n");
}

/** RESULTS.md after `run`: the sections of the benchmarks it ran replaced, the others kept, in benchmark order. */
export function updateResults(current: string | undefined, run: BenchRun): string {
  const { intro, sections } = parseResults(current ?? RESULTS_INTRO);
  for (const [bench, tables] of run.benches) sections.set(bench, sectionBody(run, tables));
  const ordered = [...sections.entries()].sort(([a], [b]) => a - b);
  const body = ordered.map(([bench, text]) => `## Bench ${bench}\n\n${text}\n`).join("\n");
  return `${intro.trimEnd()}\n\n${body}`;
}

/** HISTORY.md with `run` appended at the end. */
export function appendHistory(history: string | undefined, run: BenchRun): string {
  const entry = [
    `## ${run.started.toISOString()}: \`${run.command}\``,
    "",
    ...run.about,
    "",
    ...[...run.benches.values()].map((tables) => tables.trim() + "\n"),
  ].join("\n");
  return `${(history ?? HISTORY_INTRO).trimEnd()}\n\n${entry}`;
}

/** Writes `run` into RESULTS.md and HISTORY.md in `dir`; returns the two paths. Throws on a file system error. */
export function writeRun(dir: string, run: BenchRun): { results: string; history: string } {
  const results = path.join(dir, "RESULTS.md");
  const history = path.join(dir, "HISTORY.md");
  const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined);
  const nextResults = updateResults(read(results), run);
  const nextHistory = appendHistory(read(history), run);
  fs.writeFileSync(history, nextHistory);
  fs.writeFileSync(results, nextResults);
  return { results, history };
}
