import * as assert from "node:assert/strict";
import { Fuzzer, report } from "../fuzz/support/world";
import { EngineStack } from "./support/fuzzEngine";
import { prepareEngine } from "./support/stack";

// A few sequences of the lifecycle fuzzer (docs/invariants.md) through the real Pulumi engine: each
// step a `pulumi` command, a kill a SIGKILL of the CLI once the API received the step's k-th write.
// FUZZ_ENGINE_SEEDS (e.g. "7,46") runs others.

const SEEDS = (process.env.FUZZ_ENGINE_SEEDS ?? "46,68,84").split(",").map(Number);

describe("e2e: the lifecycle fuzzer through the real engine", function () {
  this.timeout(15 * 60 * 1000);
  let fuzzer: Fuzzer;
  before(async () => {
    prepareEngine();
    fuzzer = await Fuzzer.start();
  });
  after(async () => {
    await fuzzer?.stop();
  });

  for (const seed of SEEDS) {
    it(`keeps every invariant over sequence ${seed}`, async () => {
      const driver = await EngineStack.create(fuzzer.emulator, `fuzz-${seed}`);
      try {
        const outcome = await fuzzer.run(seed, { driver });
        const replay = `FUZZ_ENGINE_SEEDS=${seed} npx mocha --no-config -r ts-node/register/transpile-only --extension ts tests/e2e/fuzz.test.ts`;
        assert.equal(outcome.violations.length, 0, report(outcome, replay));
      } finally {
        await driver.dispose();
      }
    });
  }
});
