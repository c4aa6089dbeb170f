// Mocha's spec reporter, then what the run cost: the 10 slowest test files and each tier's time (the
// tests and hooks of a file summed; in parallel mode files of two tiers overlap, so the tiers add up
// to more than the run's own time, which mocha prints next to "passing"). With CLOUDDB_TEST_TIMINGS
// set to a path, every file's time is written there as JSON too.
const fs = require("node:fs");
const path = require("node:path");
const Mocha = require("mocha");

const { EVENT_TEST_END, EVENT_HOOK_END, EVENT_RUN_END } = Mocha.Runner.constants;
const ROOT = path.resolve(__dirname, "../..");

class TimingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const byFile = new Map();
    const add = (runnable) => {
      if (runnable.file === undefined || typeof runnable.duration !== "number") return;
      const file = path.relative(ROOT, runnable.file);
      byFile.set(file, (byFile.get(file) ?? 0) + runnable.duration);
    };
    runner.on(EVENT_TEST_END, add);
    runner.on(EVENT_HOOK_END, add);
    runner.once(EVENT_RUN_END, () => {
      const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
      const files = [...byFile].sort((a, b) => b[1] - a[1]);
      console.log("  the 10 slowest files:");
      for (const [file, ms] of files.slice(0, 10)) console.log(`    ${s(ms).padStart(8)}  ${file}`);
      if (process.env.CLOUDDB_TEST_TIMINGS) {
        const all = Object.fromEntries(files.map(([file, ms]) => [file, Math.round(ms)]));
        fs.writeFileSync(process.env.CLOUDDB_TEST_TIMINGS, `${JSON.stringify(all, null, 2)}\n`);
      }
      const tiers = new Map();
      for (const [file, ms] of files) {
        const tier = file.split(path.sep)[1] ?? file;
        tiers.set(tier, (tiers.get(tier) ?? 0) + ms);
      }
      console.log(
        `  by tier: ${[...tiers]
          .sort((a, b) => b[1] - a[1])
          .map(([tier, ms]) => `${tier} ${s(ms)}`)
          .join(", ")}`,
      );
    });
  }
}

module.exports = TimingReporter;
