import assert from "node:assert/strict";
import { FINALE, Fuzzer, generate, report } from "./support/world";

// The lifecycle fuzzer (docs/invariants.md): seeded sequences of a stack's steps, kills and
// outside actions over a program with every kind, in process against one emulator, each step
// checked against the invariants. `npm run fuzz -- --seed N --runs M` runs more.

/** Sequences in the suite's budget; FUZZ_RUNS and FUZZ_SEED change them for one run. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const FIRST_SEED = Number(process.env.FUZZ_SEED ?? 1);

describe("lifecycle fuzzer", function () {
  // A few minutes on an idle core; the bound leaves room for a busy machine (it is no speed check).
  this.timeout(1_200_000);
  let fuzzer: Fuzzer;
  before(async () => {
    fuzzer = await Fuzzer.start();
  });
  after(async () => {
    await fuzzer?.stop();
  });

  it("generates the same steps from the same seed, and other steps from another", () => {
    assert.deepEqual(generate(7), generate(7));
    assert.notDeepEqual(generate(7), generate(8));
    assert.equal(generate(7)[0], "up");
  });

  it("kills a run after its k-th write: a create in flight is not recorded, and the next up takes it", async () => {
    const outcome = await fuzzer.run(1, { steps: ["kill@1 up", "up"] });
    assert.match(outcome.trace[0] ?? "", /-> killed$/);
    assert.match(outcome.trace[1] ?? "", /-> ok$/);
    const broken = outcome.violations.filter((v) =>
      ["no-orphans", "takes-only-its-own"].includes(v.invariant),
    );
    assert.deepEqual(broken, []);
    const projects = fuzzer.emulator.control.dumpState().projects.filter((p) => p.name === "fuzz");
    assert.equal(projects.length, 1, "the killed run's project is taken, not made twice");
  });

  it("finds a secret in the state that no longer works", async () => {
    const outcome = await fuzzer.run(1, { steps: ["up", "tamper reset-password", "up"] });
    const secrets = outcome.violations.filter((v) => v.invariant === "secrets-work");
    assert.deepEqual(
      secrets.map((v) => `${v.step}: ${v.detail}`),
      ["2: Role owner_1db8a1fb84: the state's password is not the live one"],
    );
  });

  it("finds an object the stack made that is not in the state", async () => {
    const outcome = await fuzzer.run(1, { steps: ["up", "tamper orphan", "up"] });
    const orphans = outcome.violations.filter((v) => v.invariant === "no-orphans");
    assert.equal(orphans.length, 1, report(outcome));
    assert.match(
      orphans[0]?.detail ?? "",
      /^made by the stack, not in the state: branch br-[a-z0-9-]+ \(lost\)$/,
    );
    assert.equal(orphans[0]?.step, 2);
  });

  it("finds an anonymized branch whose compute serves unmasked data", async () => {
    const outcome = await fuzzer.run(1, { steps: ["up", "tamper reset-anon", "up"] });
    const reads = outcome.violations.filter((v) => v.invariant === "no-unmasked-reads");
    assert.equal(reads.length, 1, report(outcome));
    assert.match(
      reads[0]?.detail ?? "",
      /^anonymized branch br-[a-z0-9-]+ \(anon\) holds unmasked data \(no masking run since its create or its last restore\) and its compute ep-[a-z0-9-]+ is enabled$/,
    );
    assert.equal(reads[0]?.step, 2);
  });

  it("keeps an anonymized branch reset outside from serving once a refresh saw it, and masks it at the next up", async () => {
    const outcome = await fuzzer.run(1, {
      steps: [
        "up",
        "outside reset-anon",
        "refresh",
        "up",
        "set reset-anon",
        "kill@2 up",
        "up",
        "cancel",
        "up --refresh",
        "destroy",
      ],
    });
    assert.deepEqual(outcome.violations, [], report(outcome));
  });

  // Shortest sequences the fuzzer found breaking an invariant before their fixes (the seed picks
  // what an outside action acts on): each names the invariant it broke.
  const FOUND: readonly [invariant: string, seed: number, steps: string][] = [
    [
      "replaced-data-never-returns",
      1,
      "up; outside restore-finalize; refresh; outside delete-branch; up --refresh",
    ],
    [
      "replaced-data-never-returns",
      22,
      "up; outside restore-finalize-cli; outside expire-branch; up --refresh",
    ],
    ["replaced-data-never-returns", 43, "up; outside restore-finalize-cli; set rename; up"],
    ["no-orphans", 1, "up; set restore=snapB; kill@1 up; cancel; up --refresh; destroy"],
    ["no-orphans", 68, "up; set restore=snapB; outside restore-finalize; kill@2 up; up --refresh"],
    ["no-orphans", 42, "up; destroy; kill@4 up --refresh; set rename; up --refresh"],
    ["no-orphans", 1049, "up; set restore=snapB; kill@2 up; outside restore-finalize; up --refresh; destroy"],
    ["state-is-true", 46, "up; set restore=snapA; up"],
    ["secrets-work", 7, "up; outside reset-password; up --refresh"],
    ["refused-destroy-deletes-nothing", 1, "up; outside protect-branch; destroy"],
    [
      "refused-destroy-deletes-nothing",
      951,
      "up; outside protect-branch; outside restore-finalize-cli; destroy; cancel; up --refresh; destroy",
    ],
    ["no-change-preview", 106, "up; outside rename-branch; outside restore-finalize-cli; up --refresh"],
    ["converges", 25, "up; destroy; set restore=snapB; up"],
    [
      "converges",
      1328,
      "up; destroy; kill@4 up; outside restore-finalize-cli; cancel; up --refresh; destroy",
    ],
    [
      "replaced-data-never-returns",
      1169,
      "up; outside restore-finalize; outside restore-finalize; outside expire-branch; cancel; up --refresh; destroy",
    ],
    ["no-orphans", 1210, "up; set restore=snapB; kill@2 up; set restore=none; cancel; up --refresh; destroy"],
    ["no-orphans", 1210, "up; set restore=snapB; kill@2 up; set restore=none; cancel; refresh; up; destroy"],
    [
      "no-orphans",
      1424,
      "up; set restore=snapA; kill@2 up --refresh; outside expire-branch; cancel; up --refresh; destroy",
    ],
    [
      "no-orphans",
      1941,
      "up; outside delete-branch; set restore=snapA; kill@3 up --refresh; set restore=none; cancel; up --refresh; destroy",
    ],
    [
      "no-orphans",
      1441,
      "up; set restore=snapA; kill@3 up --refresh; outside delete-branch; cancel; up --refresh; destroy",
    ],
    [
      "converges",
      111,
      "up; outside snapshot; cancel; outside make-role; up; outside protect-branch; outside clear-spending-limit; up; destroy; outside snapshot; outside restore-finalize; refresh; outside revoke-permission; cancel; up --refresh; destroy",
    ],
  ];
  for (const [invariant, seed, steps] of FOUND) {
    it(`keeps ${invariant} where it once broke: seed ${seed}, ${steps}`, async () => {
      const outcome = await fuzzer.run(seed, { steps: steps.split(";").map((s) => s.trim()) });
      assert.deepEqual(outcome.violations, [], report(outcome));
    });
  }

  it(`keeps every invariant over ${RUNS} seeded sequences from seed ${FIRST_SEED}`, async () => {
    const failed: string[] = [];
    for (let seed = FIRST_SEED; seed < FIRST_SEED + RUNS; seed++) {
      const outcome = await fuzzer.run(seed);
      assert.deepEqual(outcome.steps.slice(-FINALE.length), [...FINALE]);
      if (outcome.violations.length > 0) failed.push(report(outcome));
    }
    assert.equal(
      failed.length,
      0,
      `${failed.length} of ${RUNS} sequences broke an invariant:\n${failed.join("\n")}`,
    );
  });
});
