// The order a parallel run takes its files in. Mocha hands files to its workers in the order of its
// list, each to the first worker free, so a long file taken last runs alone while the other workers
// idle. Taking the longest first (each file's time in tests/support/durations.json, from a full run)
// ends the run soonest; a file that table does not know runs first, since its cost is not known yet.
// Refresh the table after adding or moving suites:
//   CLOUDDB_TEST_TIMINGS=tests/support/durations.json npm test
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "../..");
const DURATIONS = path.join(__dirname, "durations.json");

/** The `*.test.ts` files under each of `folders` (relative to the repository), longest first. */
function longestFirst(folders) {
  const known = fs.existsSync(DURATIONS) ? JSON.parse(fs.readFileSync(DURATIONS, "utf8")) : {};
  const files = folders.flatMap((folder) => testFiles(folder));
  const cost = (file) => known[file] ?? Number.POSITIVE_INFINITY;
  // Array.prototype.sort is stable: files of equal cost keep the folders' order.
  return files.sort((a, b) => cost(b) - cost(a));
}

function testFiles(folder) {
  const dir = path.join(ROOT, folder);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".test.ts"))
    .map((name) => path.posix.join(folder, name.split(path.sep).join("/")))
    .sort();
}

module.exports = { longestFirst };
