// What a program gets from the package installed from `npm pack`: its public declarations compile
// under the tsconfig.json `pulumi new typescript` writes (no skipLibCheck) and reach neither zod's
// declarations nor the client's, and importing it at run time loads neither zod nor the client.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { installPackedProject } from "./support/package";
import { ROOT } from "./support/stack";

/** Every resource kind, named by its methods module (`provider/resources/<kind>Methods.ts`). */
const KINDS = fs
  .readdirSync(path.join(ROOT, "provider/resources"))
  .flatMap((name) => /^(\w+)Methods\.ts$/.exec(name)?.[1] ?? []);

/**
 * Files of zod, of the HTTP client, or of the package's client and resource definitions (the
 * client's error markers excepted: a program recognises the errors it catches with them).
 */
const PROVIDER_SIDE = new RegExp(
  `node_modules/(zod|got)/|pulumi-clouddb/lib/provider/(client/(?!errors\\.)|resources/(${KINDS.join("|")})(Methods)?\\.)`,
);

describe("the package's public surface, installed from npm pack", function () {
  this.timeout(5 * 60 * 1000);
  let dir: string;

  before(() => {
    const dev = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).devDependencies;
    dir = installPackedProject(path.join(__dirname, "fixtures/public-types"), {
      typescript: dev.typescript,
      "@types/node": dev["@types/node"],
    });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("compiles a program using it with the strict tsconfig of `pulumi new typescript`: 0 errors, no zod or client declarations read", () => {
    assert.ok(KINDS.length >= 6, `resource kinds found: ${KINDS}`);
    const tsc = path.join(dir, "node_modules/typescript/bin/tsc");
    let output: string;
    try {
      output = execFileSync(
        process.execPath,
        [tsc, "-p", dir, "--noEmit", "--listFiles", "--pretty", "false"],
        {
          cwd: dir,
          encoding: "utf8",
        },
      );
    } catch (err) {
      output = String((err as { stdout?: string }).stdout ?? err);
    }
    const lines = output.split("\n");
    assert.deepEqual(
      lines.filter((l) => / error TS\d+:/.test(l)),
      [],
    );
    assert.ok(
      lines.some((l) => l.includes("pulumi-clouddb/lib/provider/resources/public/branch.d.ts")),
      "the program reads the package's declarations",
    );
    assert.deepEqual(
      lines.filter((l) => PROVIDER_SIDE.test(l)),
      [],
    );
  });

  it("importing it in a fresh process loads neither zod nor the client", () => {
    const loaded = JSON.parse(
      execFileSync(
        process.execPath,
        ["-e", "require('pulumi-clouddb'); process.stdout.write(JSON.stringify(Object.keys(require.cache)))"],
        { cwd: dir, encoding: "utf8" },
      ),
    ) as string[];
    assert.ok(
      loaded.some((file) => file.endsWith("pulumi-clouddb/lib/provider/resources/public/branch.js")),
      "the resources are loaded",
    );
    assert.deepEqual(
      loaded.filter((file) => PROVIDER_SIDE.test(file)),
      [],
    );
  });
});
