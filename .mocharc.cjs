// `npm test`: every suite, in mocha's parallel mode with four workers, the longest files first
// (tests/support/order.cjs).
const { longestFirst } = require("./tests/support/order.cjs");

module.exports = {
  require: ["ts-node/register/transpile-only", "tests/support/global.ts"],
  extension: ["ts"],
  spec: longestFirst([
    "tests/fuzz",
    "tests/e2e",
    "tests/release",
    "tests/sdk",
    "tests/plugin",
    "tests/emulator",
    "tests/provider",
    "tests/faults",
    "tests/client",
    "tests/docs",
    "tests/bench",
  ]),
  parallel: true,
  jobs: 4,
  timeout: 20000,
  reporter: "tests/support/timing-reporter.cjs",
};
