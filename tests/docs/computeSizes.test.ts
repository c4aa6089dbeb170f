// What the pages say about compute sizes is the rule the code checks: 0.25, 0.5 or a whole number
// of CU up to 56 (docs/api-rules.md §7), in the provider's inputs and in the emulator alike. A page
// that states only the document's lower bound (0.25) would promise sizes such as 0.3 that both refuse.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { computeSettings } from "../../emulator/rules";
import { isComputeSize, MAX_CU } from "../../provider/resources/inputs/compute";
import { ROOT } from "./blocks";

/** Every Markdown page a reader meets: the READMEs, docs/ and the changelog. */
function pages(): string[] {
  const found = ["README.md", "CHANGELOG.md", "emulator/README.md", "provider/resources/README.md"];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".md")) found.push(rel);
    }
  };
  walk("docs");
  return found;
}

/** The emulator's answer to a compute of `cu` CU: whether it takes it. */
function emulatorTakes(cu: number): boolean {
  const base = { autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 0.25, suspend_timeout_seconds: 0 };
  try {
    computeSettings(base, { autoscaling_limit_min_cu: cu, autoscaling_limit_max_cu: cu }, "");
    return true;
  } catch {
    return false;
  }
}

describe("what the pages say about compute sizes", () => {
  it("is the rule the provider and the emulator check: 0.25, 0.5 or a whole number up to 56", () => {
    const offered = [0.25, 0.5, 1, 2, 16, 17, MAX_CU];
    const refused = [0.1, 0.3, 0.75, 1.5, MAX_CU + 1];
    for (const cu of offered) assert.ok(isComputeSize(cu) && emulatorTakes(cu), `${cu} CU is a size`);
    for (const cu of refused) assert.ok(!isComputeSize(cu) && !emulatorTakes(cu), `${cu} CU is not a size`);
    assert.equal(MAX_CU, 56);
  });

  it("never promises every size from 0.25 up (`>= 0.25`, `at least 0.25`, `from 0.25`)", () => {
    const promise = /(>=|≥|at least|from|minimum of|min(imum)?:?)\s*0\.25\s*CU/i;
    for (const page of pages()) {
      const text = fs.readFileSync(path.join(ROOT, page), "utf8");
      assert.doesNotMatch(text, promise, page);
    }
  });

  it("names the sizes the emulator refuses where a page lists its refusals", () => {
    for (const page of ["docs/guide.md", "emulator/README.md"]) {
      const text = fs.readFileSync(path.join(ROOT, page), "utf8").replace(/\s+/g, " ");
      assert.match(text, /a CU that is not a compute size \(0\.25, 0\.5 or a whole number up to 56\)/, page);
      assert.match(text, /an autoscaling range above 16 CU or wider than 8/, page);
    }
  });
});
