// The policy pack (policy/) under the real engine, `pulumi preview --policy-pack`: a Python program
// through the provider plugin, one case per rule, each reporting its rule's violation with what to
// change (a mandatory one failing the preview, changing nothing), and a compliant one passing, a
// PreviewEnvironment's among them; the TypeScript package's dynamic resources meet the same rules.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { fixture, type ProgramFolder, programStack } from "./support/programStack";
import { collect, type E2eStack, mutatingRequests, ROOT } from "./support/stack";

/**
 * The pack, as the binary analyzer its folder holds: the Node.js language host this CLI is built with
 * (tools/pulumi-cli) predates running packs, so the folder itself cannot be given.
 */
const PACK = path.join(ROOT, "policy", "pulumi-analyzer-clouddb");

/**
 * Each case of the programs: its name (the rule it breaks, or what breaks it), the rule, whether the
 * pack refuses it, what the message says, and the pack's config when not its defaults.
 */
const CASES: {
  name: string;
  rule: string;
  mandatory: boolean;
  says: RegExp;
  packConfig?: Record<string, unknown>;
}[] = [
  {
    name: "preview-branches-expire",
    rule: "preview-branches-expire",
    mandatory: true,
    says: /Branch "preview" has no expiry: set ttl \(e\.g\. "72h", at most 720h\) or expiresAt/,
  },
  {
    name: "preview-data-masked",
    rule: "preview-data-masked",
    mandatory: true,
    says: /Branch "preview" copies the data of the default branch of project "shop", which is protected: set initSource: "anonymized"/,
  },
  {
    name: "no-open-network",
    rule: "no-open-network",
    mandatory: true,
    says: /Project "shop" allows 0\.0\.0\.0\/0 in allowedIps, which lets every address in/,
  },
  {
    name: "production-protected",
    rule: "production-protected",
    mandatory: false,
    says: /Project "shop" is not protected: set deleteProtection: true/,
  },
  {
    name: "keys-rotate",
    rule: "keys-rotate",
    mandatory: false,
    says: /ApiKey "ci" has no rotationTrigger: set one/,
  },
  {
    name: "preview-environment-ttl",
    rule: "preview-branches-expire",
    mandatory: true,
    says: /PreviewEnvironment "review" expires in 240h, more than the 168h a preview may live: set a shorter ttl \(without one it lives 168h\)/,
    packConfig: { "preview-branches-expire": { maxTtlHours: 168 } },
  },
  {
    name: "preview-environment-data",
    rule: "preview-data-masked",
    mandatory: true,
    says: /PreviewEnvironment "review" copies the rows of a branch of project "shop", which protects its default branch, as they are \(data: "data"\): set data: "anonymized"/,
  },
  {
    name: "preview-environment-staging",
    rule: "preview-data-masked",
    mandatory: true,
    says: /PreviewEnvironment "review" copies the rows of branch "staging", which is protected, as they are \(data: "data"\): set data: "anonymized"/,
  },
];

/**
 * The preview of `e2e` with the pack, under `packConfig` when given: its output, and the error when
 * it failed.
 */
async function previewWithPack(
  e2e: E2eStack,
  packConfig?: Record<string, unknown>,
): Promise<{ text: string; failed?: Error }> {
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-pack-config-"));
  const configFile = path.join(configDir, "config.json");
  fs.writeFileSync(configFile, JSON.stringify(packConfig ?? {}));
  const failed = await e2e.stack
    .preview({ policyPacks: [PACK], policyPackConfigs: [configFile], ...collect(e2e.output) })
    .finally(() => fs.rmSync(configDir, { recursive: true, force: true }))
    .then(
      () => undefined,
      (e: Error) => e,
    );
  return {
    text: `${e2e.output.join("\n")}\n${failed?.message ?? ""}`,
    ...(failed === undefined ? {} : { failed }),
  };
}

const PROGRAMS: { language: string; program: ProgramFolder & { language?: "python" }; cases: string[] }[] = [
  {
    language: "a Python program through the plugin",
    program: { copyOf: fixture("policy-python"), language: "python" },
    cases: ["compliant", ...CASES.map((c) => c.name)],
  },
  {
    language: "the TypeScript package's dynamic resources",
    program: { packed: fixture("policy-js") },
    cases: [
      "compliant",
      "preview-data-masked",
      "keys-rotate",
      "preview-environment-ttl",
      "preview-environment-data",
      "preview-environment-staging",
    ],
  },
];

for (const { language, program, cases } of PROGRAMS) {
  describe(`e2e: the policy pack on ${language}`, function () {
    this.timeout(10 * 60 * 1000);
    let emulator: RunningEmulator;
    let e2e: E2eStack;

    before(async () => {
      emulator = await startEmulator({ seed: "demo", opDurationMs: 10 });
      e2e = await programStack({ ...program, emulator, config: { case: "compliant" } });
    });
    after(async () => {
      await e2e?.dispose();
      await emulator?.stop();
    });

    for (const name of cases) {
      const broken = CASES.find((c) => c.name === name);
      const title =
        broken === undefined
          ? "passes a compliant program with no violation"
          : `reports ${broken.rule}${name === broken.rule ? "" : ` (${name})`}${broken.mandatory ? ", failing the preview and changing nothing" : " as advisory, the preview going on"}`;
      it(title, async () => {
        await e2e.stack.setConfig("case", { value: name });
        emulator.control.clearRequests();
        const { text, failed } = await previewWithPack(e2e, broken?.packConfig);
        if (broken === undefined) {
          assert.equal(failed, undefined, text);
          assert.doesNotMatch(text, /mandatory|advisory/, "a compliant program has no violation");
          return;
        }
        assert.match(text, broken.says);
        assert.match(
          text,
          new RegExp(`- \\[${broken.mandatory ? "mandatory" : "advisory"}\\]\\s+${broken.rule}\\s+\\(`),
        );
        assert.equal(failed !== undefined, broken.mandatory, text);
        // Only what the case breaks is reported.
        for (const other of CASES) if (other.name !== name) assert.doesNotMatch(text, other.says, other.name);
        assert.deepEqual(mutatingRequests(emulator), [], "a preview changed something");
      });
    }
  });
}
