// `npm run test:fast`: the in-process suites of the emulator, provider, faults and client folders on
// two workers, longest first (tests/support/order.cjs), without those that start real Postgres,
// TLS or the official CLI's processes.
const { longestFirst } = require("./support/order.cjs");

module.exports = {
  require: ["ts-node/register/transpile-only", "tests/support/global.ts"],
  extension: ["ts"],
  spec: longestFirst(["tests/emulator", "tests/provider", "tests/faults", "tests/client"]),
  ignore: [
    "tests/emulator/neonctl*.test.ts",
    "tests/emulator/cli.test.ts",
    "tests/emulator/restart.test.ts",
    "tests/emulator/history.test.ts",
    "tests/emulator/anonymized.history.test.ts",
    "tests/emulator/tls*.test.ts",
    "tests/emulator/postgres*.test.ts",
    "tests/emulator/serverless.test.ts",
    "tests/emulator/functions-run.test.ts",
    "tests/provider/branch.anonymized*.test.ts",
    "tests/provider/schemaDiff.test.ts",
  ],
  parallel: true,
  jobs: 2,
  timeout: 20000,
  reporter: "tests/support/timing-reporter.cjs",
};
