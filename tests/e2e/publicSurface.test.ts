// What a program gets from the package installed from `npm pack`: its public declarations compile
// under the tsconfig.json `pulumi new typescript` writes (no skipLibCheck) and reach neither zod's
// declarations nor the client's, and importing it at run time loads neither zod nor the client.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { DECLARATIONS } from "../../provider/plugin/kinds";
import { installPackedProject } from "./support/package";
import { ROOT } from "./support/stack";

/** Every resource kind, named by its definition module (`provider/resources/<kind>.ts`). */
const KINDS = DECLARATIONS.map((d) => `${d.type[0]?.toLowerCase()}${d.type.slice(1)}`);

/**
 * Files of zod, of the HTTP client, or of the package's client and resource definitions (the
 * client's error markers excepted: a program recognises the errors it catches with them): a
 * definition, its `methods/` module, and the files beside it named after it (`branchInputs`).
 */
const PROVIDER_SIDE = new RegExp(
  `node_modules/(zod|got)/|pulumi-clouddb/lib/provider/(client/(?!errors\\.)|resources/(${KINDS.join("|")})\\w*\\.)`,
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

  it("compiles with the TypeScript Pulumi bundles (3.8) for a project that brings none: the program clean, a wrong argument still an error", () => {
    // Pulumi's language host compiles a program without a TypeScript of its own with the one
    // vendored in @pulumi/pulumi, and reports the errors of the program's files only; a package
    // declaration it cannot read turns every argument into a required one, or into any.
    const vendor = path.join(dir, "node_modules/@pulumi/pulumi/vendor");
    const bundled = fs.readdirSync(vendor).find((name) => name.startsWith("typescript@"));
    assert.ok(bundled, `a TypeScript in ${vendor}`);
    const ts = require(path.join(vendor, bundled, "typescript.js")) as typeof import("typescript");
    const errorsOf = (file: string): string[] => {
      const program = ts.createProgram([file], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2019,
        module: ts.ModuleKind.CommonJS,
        moduleResolution: ts.ModuleResolutionKind.NodeJs,
      });
      return [...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()]
        .filter(
          (d) =>
            d.file !== undefined &&
            (d.file.fileName === file || d.file.fileName.includes("pulumi-clouddb/lib/")),
        )
        .map(
          (d) =>
            `${path.basename(d.file?.fileName ?? "")}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
        );
    };
    assert.deepEqual(errorsOf(path.join(dir, "index.ts")), [], `compiled with ${bundled}`);

    const wrong = path.join(dir, "wrong.ts");
    fs.writeFileSync(
      wrong,
      [
        'import * as clouddb from "pulumi-clouddb";',
        'new clouddb.Branch("no-project", { ttl: "7d" });',
        'new clouddb.Role("misspelt", { projectId: "p", branchId: "b", nmae: "app" });',
        'export const port: number = new clouddb.Endpoint("e", { projectId: "p", branchId: "b" }).host;',
      ].join("\n"),
    );
    const errors = errorsOf(wrong);
    assert.equal(errors.length, 3, errors.join("\n"));
    assert.match(errors[0] ?? "", /'projectId' is missing/);
    assert.match(errors[1] ?? "", /'nmae' does not exist in type 'RoleArgs'/);
    assert.match(errors[2] ?? "", /Output<string>' is not assignable to type 'number'/);
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
