// Every kind a team may already have made outside Pulumi, in one YAML program through the provider
// plugin (tests/e2e/fixtures/kinds-yaml; its rows: support/importedKindRows.ts): the objects made
// with the API, then brought in with one `pulumi import`, adopted (`adoptExisting`) or taken as they
// are by `up`, next to objects the program makes; a preview and a refresh with no change and no
// request that changes anything; each kind's config changed, in place or by replacement, with its
// own requests only; destroy. No secret of any row in the state file or the engine's output. The
// same objects read with `get` into another program (YAML, Python, JavaScript, Java), by the ids
// `pulumi import` took.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { type ImportContext, type Imported, IMPORTED_KIND_ROWS as ROWS } from "./support/importedKindRows";
import { assertNeverShown, eachRow, upByRow } from "./support/kindRows";
import { fixture, type ProgramFolder, programStack } from "./support/programStack";
import {
  assertNothingToChange,
  collect,
  type E2eStack,
  isEncryptedSecret,
  mutatingRequests,
  stateResources,
} from "./support/stack";

/** The kind of a type token: `clouddb:index:Branch` -> `Branch`. */
const kindOf = (type: string): string => type.slice(type.lastIndexOf(":") + 1);

describe("e2e: every kind made outside Pulumi, imported, adopted or taken into a YAML program through the plugin", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  const ctx = { outputs: {} } as ImportContext;
  const imports: Imported[] = [];
  const secrets = new Set<string>();
  /** Every line the engine printed, across the suite's commands. */
  const printed: string[] = [];
  const resources = ROWS.reduce((sum, row) => sum + row.resources, 0);

  /** No secret of any row, now or earlier, in the state file or the engine's output. */
  function assertNoSecret(): void {
    for (const row of ROWS) for (const secret of row.secrets?.(emulator) ?? []) secrets.add(secret);
    printed.push(...e2e.output);
    assertNeverShown(secrets, e2e.rawState(), printed.join("\n"));
  }

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
    const config: Record<string, string> = {
      projectId: DEMO.projectId,
      branchId: DEMO.branchId,
      orgId: DEMO.orgId,
      orgProjectId: DEMO.orgProjectId,
    };
    for (const row of ROWS) {
      const made = await row.setUp(emulator);
      imports.push(...made.imports);
      Object.assign(config, made.config);
    }
    e2e = await programStack({
      copyOf: fixture("kinds-yaml"),
      emulator,
      language: "yaml",
      config,
      secrets: Object.assign({}, ...ROWS.map((row) => row.secretConfig ?? {})),
      env: { CLOUDDB_POLL_INTERVAL_MS: "50,200" },
    });
    Object.assign(ctx, { emulator, e2e });
  });
  after(async () => {
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("imports each row's objects with one pulumi import, and the next up adopts or makes the rest, each row sending only its own requests", async () => {
    const imported = await e2e.stack.import({
      resources: imports,
      generateCode: false,
      ...collect(e2e.output),
    });
    assert.equal(imported.summary.resourceChanges?.import, imports.length, e2e.output.join("\n"));
    printed.push(...e2e.output);
    await eachRow(ROWS, "after the import", (row) => row.imported?.(ctx));

    const { up, sent } = await upByRow(emulator, e2e, ROWS, (row) => row.firstUp);
    ctx.outputs = up.outputs;
    await eachRow(ROWS, "after the first up", (row) => row.afterFirstUp(ctx, sent.get(row) ?? []));
    assertNoSecret();
  });

  it("previews and refreshes with no change and no request that changes anything", async () => {
    await assertNothingToChange(emulator, e2e, 1 + resources);
    assertNoSecret();
  });

  /** A program that reads each imported object with `get` by its import id, named as in the import, in each language. */
  const GET_PROGRAMS: Record<
    "yaml" | "python" | "javascript" | "java",
    (dir: string) => ProgramFolder & { language?: "yaml" | "python" | "java" }
  > = {
    yaml(dir) {
      const lines = ["name: clouddb-e2e-get", "runtime: yaml", "resources:"];
      for (const { type, name, id } of imports)
        lines.push(`  ${name}:`, `    type: ${type}`, "    get:", `      id: ${JSON.stringify(id)}`);
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `${lines.join("\n")}\n`);
      return { workDir: dir, language: "yaml" };
    },
    python(dir) {
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: clouddb-e2e-get\nruntime: python\n");
      const gets = imports.map(
        ({ type, name, id }) => `clouddb.${kindOf(type)}.get(${JSON.stringify(name)}, ${JSON.stringify(id)})`,
      );
      fs.writeFileSync(
        path.join(dir, "__main__.py"),
        ["import pulumi_clouddb as clouddb", "", ...gets, ""].join("\n"),
      );
      return { workDir: dir, language: "python" };
    },
    javascript(dir) {
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: clouddb-e2e-get\nruntime: nodejs\n");
      const gets = imports.map(
        ({ type, name, id }) =>
          `clouddb.${kindOf(type)}.get(${JSON.stringify(name)}, ${JSON.stringify(id)});`,
      );
      fs.writeFileSync(
        path.join(dir, "index.js"),
        ['const clouddb = require("pulumi-clouddb");', "", ...gets, ""].join("\n"),
      );
      // Installed from `npm pack`, as users install the package; the folder is the stack's own.
      return { packed: dir };
    },
    java(dir) {
      // The Maven project of the Java import suite (its pom names the SDK), with a program of gets.
      const maven = fixture("import-java");
      fs.copyFileSync(path.join(maven, "pom.xml"), path.join(dir, "pom.xml"));
      fs.cpSync(path.join(maven, ".mvn"), path.join(dir, ".mvn"), { recursive: true });
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: clouddb-e2e-get\nruntime: java\n");
      const gets = imports.map(
        ({ type, name, id }) =>
          `            ${kindOf(type)}.get(${JSON.stringify(name)}, Output.of(${JSON.stringify(id)}), null);`,
      );
      const classes = [...new Set(imports.map(({ type }) => kindOf(type)))].map(
        (kind) => `import io.github.pulumiclouddb.clouddb.${kind};`,
      );
      const source = path.join(dir, "src", "main", "java", "importjava");
      fs.mkdirSync(source, { recursive: true });
      fs.writeFileSync(
        path.join(source, "App.java"),
        [
          "package importjava;",
          "",
          "import com.pulumi.Pulumi;",
          "import com.pulumi.core.Output;",
          ...classes,
          "",
          "public class App {",
          "    public static void main(String[] args) {",
          "        Pulumi.run(ctx -> {",
          ...gets,
          "        });",
          "    }",
          "}",
          "",
        ].join("\n"),
      );
      return { workDir: dir, language: "java" };
    },
  };

  for (const [language, program] of Object.entries(GET_PROGRAMS)) {
    it(`reads each imported object into a ${language} program with \`get\`, by its import id: the same object, nothing changed, destroy leaves it`, async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-e2e-get-"));
      const reader = await programStack({ ...program(dir), emulator });
      try {
        emulator.control.clearRequests();
        const up = await reader.stack.up(collect(reader.output));
        printed.push(...reader.output);
        // Reads are not changes: the summary counts only the stack, and the state holds each object read.
        assert.deepEqual(up.summary.resourceChanges, { create: 1 }, reader.output.join("\n"));
        const named = (raw: string) =>
          new Map(stateResources(raw).map((r) => [r.urn?.split("::").at(-1), r]));
        const taken = named(e2e.rawState());
        const read = named(reader.rawState());
        assert.equal(read.size, imports.length + 2, "the stack, its provider and each object read");
        for (const { type, name } of imports) {
          const [mine, theirs] = [taken.get(name), read.get(name)];
          assert.ok(theirs?.type.endsWith(`:${kindOf(type)}`), `${name} is a ${type}: ${theirs?.type}`);
          assert.equal(theirs?.id, mine?.id, `${name}: get read the object the import took`);
          // What get reads is what the import's state holds of the object (which keeps inputs as given too).
          const own = Object.keys(theirs?.outputs ?? {}).filter((key) => !key.startsWith("__"));
          const extra = own.filter((key) => !(key in (mine?.outputs ?? {})));
          assert.deepEqual(extra, [], `${name}: get read outputs the import did not`);
          for (const key of ["projectId", "branchId", "endpointId", "orgId", "name"])
            if (key in (theirs?.outputs ?? {}))
              assert.deepEqual(theirs?.outputs?.[key], mine?.outputs?.[key], `${name}.${key}`);
          for (const [key, value] of Object.entries(mine?.outputs ?? {}))
            if (isEncryptedSecret(value) && key in (theirs?.outputs ?? {}))
              assert.ok(isEncryptedSecret(theirs?.outputs?.[key]), `${name}.${key} is a secret`);
        }
        await reader.stack.destroy(collect(reader.output));
        printed.push(...reader.output);
        // A credential's secret is read with a POST (`.../reveal`), and an object's bytes are hashed
        // through a presigned download URL (`.../presign`): neither changes anything.
        const changing = mutatingRequests(emulator).filter(
          (r) => !r.route.endsWith("/reveal") && !r.route.endsWith("/presign"),
        );
        assert.deepEqual(changing, [], "get or the destroy of what it read changed something");
        printed.push(reader.rawState());
        assertNoSecret();
      } finally {
        await reader.dispose();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it("changes each row's config: each kind in place or replaced as it says, with its own requests only", async () => {
    for (const row of ROWS)
      for (const [key, value] of Object.entries(row.change)) await e2e.stack.setConfig(key, { value });
    const preview = await e2e.stack.preview({ diff: true });
    await eachRow(ROWS, "the preview of the change", (row) => row.changePreview?.(preview.stdout));
    printed.push(preview.stdout);

    const { sent } = await upByRow(emulator, e2e, ROWS, (row) => row.changes);
    await eachRow(ROWS, "after the change", (row) => row.changed(ctx, sent.get(row) ?? []));
    assertNoSecret();
  });

  it("destroy removes or gives back each row's objects; no secret in the state file or the output", async () => {
    await e2e.stack.destroy(collect(e2e.output));
    await eachRow(ROWS, "after destroy", (row) => row.destroyed(emulator));
    assertNoSecret();
  });
});
