// The program examples of the registry docs (docs/_index.md, docs/installation-configuration.md),
// taken from their code blocks as a reader copies them, and the per-kind examples of docs/examples/
// that the schema's descriptions carry, and the Go and C# programs of examples/pull-request-database: TypeScript typechecked against the package's
// declarations; Go built on sdk/go; Java compiled with Maven on the Java SDK; C# checked against the
// generated .NET sources (no `dotnet` here: see csharp.ts); Python and YAML run with `pulumi up`
// through the provider plugin against the emulator, then destroyed (the per-kind ones previewed).
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { pluginProgramEnv } from "../e2e/support/languages";
import { collect, createStack, type E2eStack, leaks } from "../e2e/support/stack";
import {
  type CodeBlock,
  codeBlocks,
  exampleProgramBlocks,
  kindExampleBlocks,
  PROGRAM_LANGUAGES,
  type ProgramLanguage,
  programBlocks,
  ROOT,
} from "./blocks";
import { csharpClasses, unknownCsharpNames } from "./csharp";

/** Every example in `language`: the registry docs' blocks, the per-kind examples, then the in-repo programs no e2e suite runs. */
const allExamples = (language: ProgramLanguage): CodeBlock[] => [
  ...programBlocks(language),
  ...kindExampleBlocks(language),
  ...exampleProgramBlocks(language),
];

const temporary: string[] = [];
/** A fresh temporary folder, removed after the suite. */
function scratch(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `clouddb-docs-${prefix}-`));
  temporary.push(dir);
  return dir;
}
after(() => {
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the registry docs' examples", () => {
  it("docs/_index.md has one example in each language: TypeScript, Python, Go, C#, Java and YAML", () => {
    const languages = codeBlocks("docs/_index.md").map((b) => b.language);
    for (const language of PROGRAM_LANGUAGES) {
      assert.equal(languages.filter((l) => l === language).length, 1, `${language} blocks in docs/_index.md`);
    }
  });

  it("TypeScript examples typecheck against the package's declarations (strict, as `pulumi new` writes)", function () {
    this.timeout(120_000);
    const blocks = allExamples("typescript");
    assert.ok(blocks.length > 0);
    assert.deepEqual(typeErrors(blocks), []);
  });

  it("the TypeScript check reports a misspelled input", function () {
    this.timeout(120_000);
    const [block] = programBlocks("typescript") as [CodeBlock];
    const broken = { ...block, code: block.code.replace("ttl:", "tll:") };
    assert.notEqual(broken.code, block.code);
    assert.match(typeErrors([broken]).join("\n"), /tll/);
  });

  it("Go examples compile on sdk/go", function () {
    this.timeout(5 * 60_000);
    const blocks = allExamples("go");
    assert.ok(blocks.length > 0);
    const goMod = fs
      .readFileSync(path.join(ROOT, "tests/sdk/go-program/go.mod"), "utf8")
      .replace(/^module .*$/m, "module example.com/clouddb-docs-example")
      .replace(/=> \.\.\/\.\.\/\.\.\/sdk\/go$/m, `=> ${path.join(ROOT, "sdk/go")}`);
    assert.match(goMod, new RegExp(`=> ${path.join(ROOT, "sdk/go")}`), "the go.mod's replace of the SDK");
    // One module, each example a main package of its own: one `go list -export` compiles them all
    // (as `go build` does, without linking binaries no one runs).
    const dir = scratch("go");
    fs.writeFileSync(path.join(dir, "go.mod"), goMod);
    fs.copyFileSync(path.join(ROOT, "tests/sdk/go-program/go.sum"), path.join(dir, "go.sum"));
    blocks.forEach((block, i) => {
      fs.mkdirSync(path.join(dir, `example${i}`));
      fs.writeFileSync(path.join(dir, `example${i}`, "main.go"), block.code);
    });
    const run = spawnSync("go", ["list", "-export", "-f", "{{.ImportPath}}", "./..."], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, GOFLAGS: "-mod=mod", CGO_ENABLED: "0" },
    });
    const where = blocks.map((b, i) => `example${i}: ${b.at}`).join(", ");
    assert.equal(run.status, 0, `the Go examples do not compile (${where}):\n${run.stderr}`);
  });

  it("Java examples compile with Maven on the Java SDK", function () {
    this.timeout(10 * 60_000);
    const blocks = allExamples("java");
    assert.ok(blocks.length > 0);
    const install = spawnSync("bash", [path.join(ROOT, "tools/java/install-sdk.sh")], { encoding: "utf8" });
    assert.equal(install.status, 0, `tools/java/install-sdk.sh failed:\n${install.stderr}`);
    const repo = install.stdout.trim().split("\n").pop() as string;
    const dir = scratch("java");
    const version = /<version>(.*)<\/version>/.exec(
      fs.readFileSync(path.join(ROOT, "sdk/java/pom.xml"), "utf8"),
    )?.[1];
    fs.writeFileSync(path.join(dir, "pom.xml"), javaPom(version as string));
    // Each block in a package of its own: every example is `myproject.App`.
    blocks.forEach((block, i) => {
      const folder = path.join(dir, "src/main/java", `example${i}`);
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(
        path.join(folder, "App.java"),
        block.code.replace(/^package \w+;/m, `package example${i};`),
      );
    });
    const run = spawnSync("mvn", ["-o", "-B", "-q", "-ntp", `-Dmaven.repo.local=${repo}`, "compile"], {
      cwd: dir,
      encoding: "utf8",
    });
    const where = blocks.map((b, i) => `example${i}: ${b.at}`).join(", ");
    assert.equal(run.status, 0, `mvn compile failed (${where}):\n${run.stdout}${run.stderr}`);
    blocks.forEach((block, i) => {
      const compiled = path.join(dir, "target/classes", `example${i}`, "App.class");
      assert.ok(fs.existsSync(compiled), `${block.at}: no ${compiled}`);
    });
  });

  it("C# examples name only classes and members of the generated .NET SDK (not compiled: no dotnet here)", () => {
    const blocks = allExamples("csharp");
    assert.ok(blocks.length > 0);
    const classes = csharpClasses(path.join(ROOT, "sdk/dotnet"));
    for (const block of blocks) {
      assert.match(block.code, /new CloudDb\.\w+\(/, `${block.at} declares a resource`);
      assert.deepEqual(unknownCsharpNames(block.code, classes), [], block.at);
    }
    const [first] = blocks as [CodeBlock];
    assert.deepEqual(
      unknownCsharpNames(first.code.replace("= preview.ExpiresAt", "= preview.ExpiryTime"), classes),
      [`CloudDb.PreviewEnvironment has no ExpiryTime`],
      "the check finds a member the SDK lacks",
    );
  });
});

for (const language of ["python", "yaml"] as const) {
  describe(`the ${language} examples, run through the plugin against the emulator`, function () {
    this.timeout(10 * 60_000);
    let emulator: RunningEmulator;
    before(async () => {
      // A real Postgres behind the computes: the overview's PreviewEnvironment runs SQL on its branch.
      emulator = await startEmulator({ seed: "demo", opDurationMs: 20, postgres: true });
    });
    after(async () => {
      await emulator?.stop();
    });

    /** A stack of `block` as a program against the emulator, its config set as the examples read it. */
    async function exampleStack(block: CodeBlock): Promise<E2eStack> {
      const dir = scratch(language);
      if (language === "yaml") fs.writeFileSync(path.join(dir, "Pulumi.yaml"), block.code);
      else {
        fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: docs-example\nruntime: python\n");
        fs.writeFileSync(path.join(dir, "__main__.py"), block.code);
      }
      // An example that names a `migrations` folder has one next to it, as its text says.
      if (block.code.includes('"migrations"') || block.code.includes("migrations: migrations")) {
        fs.mkdirSync(path.join(dir, "migrations"));
        fs.writeFileSync(
          path.join(dir, "migrations", "0001_orders.sql"),
          "CREATE TABLE orders (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, item text NOT NULL);\n",
        );
      }
      const config: Record<string, string> = {
        projectId: DEMO.projectId,
        branchId: DEMO.branchId,
        clientProjectId: DEMO.projectId,
        pullRequest: "1",
      };
      const e2e = await createStack({
        workDir: dir,
        apiUrl: emulator.url,
        apiKey: DEMO.personalKey,
        config: Object.fromEntries(
          Object.entries(config).filter(
            ([key]) => block.code.includes(`"${key}"`) || block.code.includes(`${key}:`),
          ),
        ),
        // An explicit provider given no URL reads it from the environment.
        env: {
          ...pluginProgramEnv(language),
          CLOUDDB_API_URL: emulator.url,
          CLOUDDB_POLL_INTERVAL_MS: "20,100",
          // The kinds over SQL verify the computes' certificates against the emulator's CA.
          PGSSLROOTCERT: emulator.caPath ?? "",
        },
      });
      if (block.code.includes("agencyApiKey"))
        await e2e.stack.setConfig("agencyApiKey", { value: DEMO.personalKey, secret: true });
      return e2e;
    }

    for (const block of programBlocks(language)) {
      it(`${block.at}: up makes every resource and its outputs, a preview then shows no change, destroy removes them`, async () => {
        const e2e = await exampleStack(block);
        try {
          const up = await e2e.stack.up(collect(e2e.output));
          assert.ok((up.summary.resourceChanges?.create ?? 0) >= 2, e2e.output.join("\n"));
          const outputs = await e2e.stack.outputs();
          assert.ok(Object.keys(outputs).length > 0, "the example exports an output");
          for (const [name, output] of Object.entries(outputs)) {
            assert.ok(String(output.value) !== "", `${name} is empty`);
          }
          if (outputs.databaseUrl !== undefined) {
            assert.equal(outputs.databaseUrl.secret, true, "databaseUrl is a secret");
            assert.match(String(outputs.databaseUrl.value), /^postgres(ql)?:\/\//);
          }
          if (outputs.branchId !== undefined) assert.match(String(outputs.branchId.value), /^br-/);
          assert.deepEqual(leaks(e2e.rawState()), [], "a key or password in the state");
          const preview = await e2e.stack.preview();
          const changed = Object.keys(preview.changeSummary).filter((kind) => kind !== "same");
          assert.deepEqual(changed, [], "a preview after up shows no change");
          await e2e.stack.destroy(collect(e2e.output));
        } finally {
          await e2e.dispose();
        }
      });
    }

    for (const block of kindExampleBlocks(language)) {
      it(`${block.at}: a preview creates its resources with no error`, async () => {
        const e2e = await exampleStack(block);
        try {
          const preview = await e2e.stack.preview(collect(e2e.output));
          assert.ok((preview.changeSummary.create ?? 0) >= 2, e2e.output.join("\n")); // the stack and the resource
          assert.deepEqual(
            Object.keys(preview.changeSummary).filter((kind) => kind !== "create"),
            [],
            e2e.output.join("\n"),
          );
        } finally {
          await e2e.dispose();
        }
      });
    }
  });
}

/** The diagnostics of the TypeScript `blocks`, each compiled as a module of the repository. */
function typeErrors(blocks: CodeBlock[]): string[] {
  const files = new Map(blocks.map((b, i) => [path.join(ROOT, "tests/docs", `__example${i}.ts`), b]));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    lib: ["lib.es2023.d.ts"],
    types: ["node"],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    esModuleInterop: true,
    paths: { "pulumi-clouddb": [path.join(ROOT, "provider/index.ts")] },
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => files.has(name) || fileExists(name);
  host.readFile = (name) => files.get(name)?.code ?? readFile(name);
  host.getSourceFile = (name, language, ...rest) => {
    const block = files.get(name);
    return block === undefined
      ? getSourceFile(name, language, ...rest)
      : ts.createSourceFile(name, block.code, language, true);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  return [...files].flatMap(([name, block]) => {
    const source = program.getSourceFile(name);
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ];
    return diagnostics.map((d) => {
      const line = d.start === undefined ? 0 : (source?.getLineAndCharacterOfPosition(d.start).line ?? 0) + 1;
      return `${block.at} (+${line}): ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
  });
}

/** A Maven project depending on the Java SDK at `version`, compiled offline. */
function javaPom(version: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>example</groupId>
  <artifactId>clouddb-docs-examples</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.source>11</maven.compiler.source>
    <maven.compiler.target>11</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>io.github.pulumiclouddb</groupId>
      <artifactId>clouddb</artifactId>
      <version>${version}</version>
    </dependency>
  </dependencies>
</project>
`;
}
