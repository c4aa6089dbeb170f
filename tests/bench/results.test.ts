import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type BenchRun, parseResults, writeRun } from "../../bench/support/results";

function run(at: string, benches: [number, string][]): BenchRun {
  return {
    started: new Date(at),
    command: `npm run bench -- --only ${benches.map(([n]) => n).join(",")}`,
    about: [`- Date: ${at}`, "- Load average (1 min) at start 1.00, at end 1.00; took 1 min"],
    benches: new Map(benches),
  };
}

const table = (title: string, figure: string) =>
  `### ${title}\n\n| figure | value |\n|--------|-------|\n| wall   | ${figure} |\n`;

describe("bench results: current figures and history", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-results-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const read = (name: string) => fs.readFileSync(path.join(dir, name), "utf8");

  it("starts both files on the first run, one section per benchmark in number order", () => {
    writeRun(
      dir,
      run("2026-12-01T10:00:00.000Z", [
        [3, table("3. Keys", "9.0 s")],
        [1, table("1. Branches", "20 s")],
      ]),
    );
    const results = read("RESULTS.md");
    assert.match(results, /^# Benchmark results\n/);
    assert.deepEqual([...parseResults(results).sections.keys()], [1, 3]);
    assert.match(
      parseResults(results).sections.get(3)!,
      /only 3,1`[\s\S]*2026-12-01T10:00:00.000Z[\s\S]*9\.0 s/,
    );
    const history = read("HISTORY.md");
    assert.match(history, /^# Benchmark history\n/);
    assert.match(
      history,
      /## 2026-12-01T10:00:00.000Z: `npm run bench -- --only 3,1`[\s\S]*9\.0 s[\s\S]*20 s/,
    );
  });

  it("replaces the sections of the benchmarks a run measured and keeps the others' current figures", () => {
    writeRun(
      dir,
      run("2026-12-01T10:00:00.000Z", [
        [1, table("1. Branches", "20 s")],
        [2, table("2. Requests", "8.4")],
      ]),
    );
    writeRun(
      dir,
      run("2026-12-02T10:00:00.000Z", [
        [2, table("2. Requests", "7.8")],
        [7, table("7. Start", "3 s") + table("7b. Parts", "1 s")],
      ]),
    );
    const { sections } = parseResults(read("RESULTS.md"));
    assert.deepEqual([...sections.keys()], [1, 2, 7]);
    assert.match(sections.get(1)!, /2026-12-01[\s\S]*20 s/);
    assert.match(sections.get(2)!, /2026-12-02[\s\S]*7\.8/);
    assert.doesNotMatch(sections.get(2)!, /8\.4|2026-12-01/);
    assert.match(sections.get(7)!, /### 7\. Start[\s\S]*### 7b\. Parts/);
  });

  it("appends every run to the history, oldest first, leaving what was there untouched", () => {
    const earlier =
      "# Benchmark history\n\nhand-written intro\n\n## Added 2026-11-23: an old run\n\n### 1. old\n\n| a |\n";
    fs.writeFileSync(path.join(dir, "HISTORY.md"), earlier);
    writeRun(dir, run("2026-12-01T10:00:00.000Z", [[1, table("1. Branches", "20 s")]]));
    writeRun(dir, run("2026-12-02T10:00:00.000Z", [[1, table("1. Branches", "19 s")]]));
    const history = read("HISTORY.md");
    assert.ok(history.startsWith(earlier.trimEnd()));
    const first = history.indexOf("## 2026-12-01");
    const second = history.indexOf("## 2026-12-02");
    assert.ok(first > earlier.length - 2 && second > first, history);
    assert.match(history.slice(second), /19 s/);
    assert.match(read("RESULTS.md"), /19 s/);
    assert.doesNotMatch(read("RESULTS.md"), /20 s/);
  });

  it("keeps the introduction of an existing RESULTS.md and its untouched sections byte for byte", () => {
    const existing =
      "# Benchmark results\n\nour intro\n\n## Bench 4\n\n- Command: `x`\n\n### 4. Listing\n\n| a | b |\n\n- a note\n\n## Bench 9\n\n- Command: `y`\n\n### 9. Refresh\n";
    fs.writeFileSync(path.join(dir, "RESULTS.md"), existing);
    writeRun(dir, run("2026-12-01T10:00:00.000Z", [[9, table("9. Refresh", "4 s")]]));
    const results = read("RESULTS.md");
    assert.ok(
      results.startsWith(
        "# Benchmark results\n\nour intro\n\n## Bench 4\n\n- Command: `x`\n\n### 4. Listing\n\n| a | b |\n\n- a note\n\n## Bench 9\n",
      ),
    );
    assert.match(parseResults(results).sections.get(9)!, /4 s/);
  });
});
