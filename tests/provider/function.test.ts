import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO } from "../../emulator";
import { isResourceError } from "../../provider/resources/errors";
import { setHostLineWriter } from "../../provider/resources/host/progress";
import { sha256, zipFolder } from "../../provider/resources/inputs/zip";
import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import { forgetPreflight } from "../../provider/resources/lifecycle/preflight";
import {
  type FunctionInputs,
  type FunctionOutputs,
  functionProvider,
} from "../../provider/resources/public/function";
import { PROVIDER_TEXT, useEmulator } from "./support";

// A function on a branch against the emulator (docs/api-rules.md §27): made by its first
// deployment from a folder the provider zips the same way every time, a new deployment (waited for
// until completed) when the code, runtime or environment changes and none when nothing did, a
// rename in place, a new slug replacing it; import, adopt, a failed build, and deployments or a
// delete made outside Pulumi.

const P = DEMO.projectId;
const B = DEMO.branchId;
const FUNCTIONS = `/projects/${P}/branches/${B}/functions`;

describe("Function against the emulator", () => {
  // Deployments build on the emulator's clock: 3 s of it pass in 150 ms here.
  const harness = useEmulator({ timeScale: 20 });
  let dir: string;
  beforeEach(() => {
    forgetPreflight();
    harness.emulator.control.clearRequests();
    dir = mkdtempSync(join(tmpdir(), "clouddb-function-"));
    writeFileSync(join(dir, "index.js"), "export default () => new Response('v1');\n");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const inputs = (values: Partial<FunctionInputs> = {}): FunctionInputs =>
    ({
      projectId: P,
      branchId: B,
      slug: "hello",
      source: dir,
      ...values,
      __provider: PROVIDER_TEXT,
    }) as FunctionInputs;

  /** Calls the API as another tool would, with the demo user's key. */
  const outside = async (method: string, path: string, body?: FormData) => {
    const reply = await fetch(`${harness.emulator.url}${FUNCTIONS}${path}`, {
      method,
      headers: { authorization: `Bearer ${DEMO.personalKey}` },
      ...(body === undefined ? {} : { body }),
    });
    const text = await reply.text();
    assert.ok(reply.ok, `${method} ${path}: ${reply.status} ${text}`);
    return text === "" ? undefined : JSON.parse(text);
  };
  const deployOutside = (slug: string, zip: Uint8Array, environment?: Record<string, string>) => {
    const form = new FormData();
    form.set("zip", new Blob([new Uint8Array(zip)]), "f.zip");
    if (environment !== undefined) form.set("environment", JSON.stringify(environment));
    return outside("POST", `/${slug}/deployments`, form);
  };

  it("deploys the folder with one POST, waits until it completed, reads it back unchanged, and deletes it", async () => {
    const made = await functionProvider.create(inputs({ environment: { TOKEN: "s3cr3t" } }));
    const outs = made.outs as FunctionOutputs;
    assert.equal(made.id, `${P}/${B}/hello`);
    assert.deepEqual(
      [outs.deploymentId, outs.deploymentStatus, outs.runtime, outs.name, outs.sourceHash],
      [1, "completed", "nodejs24", "hello", sha256(zipFolder(dir))],
    );
    assert.equal(outs.invocationUrl, `${harness.emulator.origin}/__functions/${B}-hello/`);
    assert.deepEqual(harness.writes(), [`POST ${FUNCTIONS}/hello/deployments`]);
    const log = JSON.stringify(harness.emulator.control.requests());
    assert.ok(!log.includes("s3cr3t"), "the emulator's request log never holds a variable's value");
    const read = await functionProvider.read!(made.id, outs);
    assert.deepEqual(read.props, outs, "refresh finds nothing changed");
    const same = await functionProvider.diff!(made.id, outs, inputs({ environment: { TOKEN: "s3cr3t" } }));
    assert.equal(same.changes, false, "the same files zip to the same bytes");
    harness.emulator.control.clearRequests();
    await functionProvider.delete!(made.id, outs);
    assert.deepEqual(harness.writes(), [`DELETE ${FUNCTIONS}/hello`]);
    assert.deepEqual((await outside("GET", "")).functions, []);
  });

  it("deploys again when the code, runtime or environment changes; renames in place; replaces on a new slug", async () => {
    const made = await functionProvider.create(inputs({ slug: "upd", environment: { A: "1", B: "2" } }));
    let outs = made.outs as FunctionOutputs;
    writeFileSync(join(dir, "index.js"), "export default () => new Response('v2');\n");
    const code = await functionProvider.diff!(
      made.id,
      outs,
      inputs({ slug: "upd", environment: { A: "1", B: "2" } }),
    );
    assert.deepEqual([code.changes, code.replaces], [true, []], "new files are an in-place change");
    harness.emulator.control.clearRequests();
    outs = (await functionProvider.update!(made.id, outs, inputs({ slug: "upd", environment: { A: "1" } })))
      .outs as FunctionOutputs;
    assert.deepEqual([outs.deploymentId, outs.sourceHash], [2, sha256(zipFolder(dir))]);
    assert.deepEqual(harness.writes(), [`POST ${FUNCTIONS}/upd/deployments`]);
    const fn = (await outside("GET", "/upd")).function;
    assert.deepEqual(fn.active_deployment.environment, ["A"], "a variable left out is removed");

    harness.emulator.control.clearRequests();
    outs = (
      await functionProvider.update!(
        made.id,
        outs,
        inputs({ slug: "upd", environment: { A: "1" }, name: "Upd" }),
      )
    ).outs as FunctionOutputs;
    assert.deepEqual([outs.name, outs.deploymentId], ["Upd", 2]);
    assert.deepEqual(harness.writes(), [`PATCH ${FUNCTIONS}/upd`], "a new name deploys nothing");

    const slug = await functionProvider.diff!(
      made.id,
      outs,
      inputs({ slug: "other", environment: { A: "1" } }),
    );
    assert.deepEqual(slug.replaces, ["slug"]);
    const both = await functionProvider.check!(inputs(), inputs({ archive: join(dir, "f.zip") }));
    assert.match(JSON.stringify(both.failures), /exactly one of source/);
    await functionProvider.delete!(made.id, outs);
  });

  it("names what an update changes: the code as sourceHash, each environment variable by name, the runtime", async () => {
    const made = await functionProvider.create(inputs({ slug: "named", environment: { A: "1", B: "2" } }));
    const outs = made.outs as FunctionOutputs;
    const checked = async (values: Partial<FunctionInputs>) =>
      (await functionProvider.check!(outs as unknown as FunctionInputs, inputs({ slug: "named", ...values })))
        .inputs as FunctionInputs & { sourceHash?: string };
    const same = await checked({ environment: { A: "1", B: "2" } });
    assert.equal(same.sourceHash, outs.sourceHash, "the preview's inputs carry the code's hash");

    writeFileSync(join(dir, "index.js"), "export default () => new Response('v2');\n");
    const code = await checked({ environment: { A: "1", B: "2" } });
    assert.equal(
      code.sourceHash,
      sha256(zipFolder(dir)),
      "so the engine's diff of the inputs shows new code",
    );
    const codeDiff = await functionProvider.diff!(made.id, outs, code);
    assert.deepEqual((codeDiff as { detailedDiff?: unknown }).detailedDiff, { sourceHash: "update" });

    const lines: string[] = [];
    setHostLineWriter((line) => lines.push(line));
    try {
      const env = await functionProvider.diff!(
        made.id,
        { ...outs, sourceHash: code.sourceHash ?? "" },
        await checked({ environment: { A: "changed-secret", C: "3" } }),
      );
      assert.deepEqual((env as { detailedDiff?: unknown }).detailedDiff, {
        "environment.A": "update",
        "environment.B": "delete",
        "environment.C": "add",
      });
      assert.ok(!JSON.stringify(env).includes("changed-secret"), "no value is named");
      assert.deepEqual(lines, [
        `function ${made.id} (named): deploys again with environment variables A (new value), B (removed), C (added)`,
      ]);
      assert.ok(!lines.join("").includes("changed-secret"));
    } finally {
      setHostLineWriter(undefined);
    }
    const runtime = await functionProvider.diff!(
      made.id,
      { ...outs, sourceHash: code.sourceHash ?? "", runtime: "nodejs20" },
      await checked({ environment: { A: "1", B: "2" }, runtime: "nodejs24" }),
    );
    assert.deepEqual((runtime as { detailedDiff?: unknown }).detailedDiff, { runtime: "update" });
    // An environment not known yet at preview (built from another resource's unknown output).
    const unknown = await functionProvider.diff!(
      made.id,
      { ...outs, sourceHash: code.sourceHash ?? "" },
      { ...(await checked({ environment: { A: "1", B: "2" } })), environment: UNKNOWN as never },
    );
    assert.deepEqual((unknown as { detailedDiff?: unknown }).detailedDiff, { environment: "update" });
    await functionProvider.delete!(made.id, outs);
  });

  /** The slugs of the functions on the demo branch, as the emulator's state holds them. */
  const slugsOnBranch = () =>
    (harness.emulator.control.dumpState().branches.find((b) => b.id === B)?.functions ?? []).map(
      (f) => f.slug,
    );

  // Code the service cannot build, deployed without the preview's check (a program run with
  // `--skip-preview`, or code changed between preview and up): the first deployment fails.
  const UNBUILDABLE: { what: string; code: () => Partial<FunctionInputs> }[] = [
    { what: "an empty folder", code: () => ({ source: mkdtempSync(join(dir, "empty-")) }) },
    {
      what: "a folder without index.mjs or index.js at its root",
      code: () => {
        const folder = mkdtempSync(join(dir, "noentry-"));
        writeFileSync(join(folder, "main.js"), "export default () => new Response('x');\n");
        return { source: folder };
      },
    },
    {
      what: "a zip without index.mjs or index.js at its root",
      code: () => {
        const folder = mkdtempSync(join(dir, "zipped-"));
        writeFileSync(join(folder, "handler.mjs"), "export default () => new Response('x');\n");
        writeFileSync(join(dir, "noentry.zip"), zipFolder(folder));
        return { source: undefined, archive: join(dir, "noentry.zip") };
      },
    },
    {
      what: "a file that is not a zip",
      code: () => {
        writeFileSync(join(dir, "bad.zip"), "not a zip");
        return { source: undefined, archive: join(dir, "bad.zip") };
      },
    },
  ];
  for (const [i, c] of UNBUILDABLE.entries()) {
    it(`a create whose first deployment fails (${c.what}) deletes the function it made and says so`, async () => {
      const slug = `broken${i}`;
      await assert.rejects(functionProvider.create(inputs({ slug, ...c.code() })), (err: unknown) => {
        assert.ok(isResourceError(err), String(err));
        assert.ok(!("id" in (err as object)), "nothing is recorded");
        assert.match(
          (err as Error).message,
          new RegExp(
            `deployment 1 of function ${slug} on branch ${B} failed: .+\\. The function this first deployment ` +
              "made was deleted, so nothing is left on branch .* nothing is recorded: fix the code \\(a folder, " +
              "or a \\.zip archive, with index\\.mjs or index\\.js at its root\\) and run `pulumi up` again",
            "s",
          ),
        );
        return true;
      });
      assert.deepEqual(slugsOnBranch(), [], "no function is left on the branch");
      assert.ok(harness.writes().includes(`DELETE ${FUNCTIONS}/${slug}`));
    });
  }

  it("a create whose rename fails after the first deployment deletes the function it made", async () => {
    harness.emulator.control.failNext("PATCH /projects/{project_id}/branches/{branch_id}/functions/{slug}", {
      status: 400,
    });
    await assert.rejects(
      functionProvider.create(inputs({ slug: "renamed", name: "Renamed" })),
      /The function this first deployment made was deleted, so nothing is left on branch .*: run `pulumi up` again/s,
    );
    assert.deepEqual(slugsOnBranch(), []);
  });

  it("records the function when its delete fails too, so the next up deploys to it again", async () => {
    const bad = join(dir, "bad.zip");
    writeFileSync(bad, "not a zip");
    harness.emulator.control.failNext("DELETE /projects/{project_id}/branches/{branch_id}/functions/{slug}", {
      status: 400,
    });
    const err = await functionProvider.create(inputs({ slug: "kept", source: undefined, archive: bad })).then(
      () => assert.fail("the create succeeded"),
      (e: unknown) => e as { id?: string; message: string; properties?: FunctionOutputs },
    );
    assert.equal(err.id, `${P}/${B}/kept`, "a partial failure: the engine records the function");
    assert.match(err.message, /deleting it failed too .* It is recorded in the state/s);
    assert.deepEqual(slugsOnBranch(), ["kept"]);
    const outs = err.properties as FunctionOutputs;
    harness.emulator.control.clearRequests();
    const fixed = await functionProvider.update!(err.id ?? "", outs, inputs({ slug: "kept" }));
    assert.equal((fixed.outs as FunctionOutputs).deploymentStatus, "completed");
    assert.deepEqual(
      harness.writes(),
      [`POST ${FUNCTIONS}/kept/deployments`],
      "the next up deploys the code",
    );
    await functionProvider.delete!(err.id ?? "", fixed.outs as FunctionOutputs);
  });

  it("imports by <projectId>/<branchId>/<slug>, refuses a slug taken without proof, and adopts it by deploying", async () => {
    await deployOutside("legacy", zipFolder(dir));
    const imported = await functionProvider.read!(
      `${P}/${B}/legacy`,
      undefined as unknown as FunctionOutputs,
    );
    assert.deepEqual(
      [imported.id, imported.props?.slug, imported.props?.sourceHash, imported.props?.source],
      [`${P}/${B}/legacy`, "legacy", "", undefined],
      "the code cannot be read back: the next up deploys the source the program sets",
    );
    await assert.rejects(
      functionProvider.create(inputs({ slug: "legacy" })),
      /already exists.*adoptExisting: "legacy"/s,
    );
    harness.emulator.control.clearRequests();
    const adopted = await functionProvider.create(inputs({ slug: "legacy", adoptExisting: "legacy" }));
    assert.equal((adopted.outs as FunctionOutputs).deploymentId, 2);
    assert.deepEqual(harness.writes(), [`POST ${FUNCTIONS}/legacy/deployments`]);
    await functionProvider.delete!(adopted.id, adopted.outs as FunctionOutputs);
  });

  it("generates a slug from the resource's name when none is given, and a create killed after its deployment is taken back by the next", async () => {
    const owner = "urn:pulumi:dev::app::clouddb:index:Function::Api-Handler";
    /** The inputs as the engine passes them to `check`: with the resource's URN, no slug. */
    const owned = (urn: string) => ({ ...inputs({ slug: undefined }), __owner: urn }) as FunctionInputs;
    const slugOf = async (olds: FunctionInputs, urn: string) =>
      ((await functionProvider.check!(olds, owned(urn))).inputs as FunctionInputs).slug ?? "";
    const checked = (await functionProvider.check!({} as FunctionInputs, owned(owner)))
      .inputs as FunctionInputs;
    const slug = checked.slug ?? "";
    assert.match(slug, /^apihandler[0-9a-f]{10}$/, "the name's letters and digits, then the mark");
    assert.equal(await slugOf({} as FunctionInputs, owner), slug, "the next run asks for the very same slug");
    // A killed run deployed to the slug and recorded nothing: the function exists, nothing in the state.
    await deployOutside(slug, zipFolder(dir));
    harness.emulator.control.clearRequests();
    const made = await functionProvider.create(checked);
    assert.equal((made.outs as FunctionOutputs).slug, slug);
    assert.deepEqual(
      harness.writes(),
      [`POST ${FUNCTIONS}/${slug}/deployments`],
      "taken and deployed, not refused",
    );
    assert.notEqual(
      await slugOf({} as FunctionInputs, `${owner}2`),
      slug,
      "another resource asks for another slug",
    );
    // Left out later, the slug stays the one the function has: no replacement.
    assert.equal(await slugOf(made.outs as FunctionInputs, owner), slug);
    await functionProvider.delete!(made.id, made.outs as FunctionOutputs);
  });

  it("refresh sees a deployment made outside Pulumi, so the next up deploys the program's code; and a delete", async () => {
    const made = await functionProvider.create(inputs({ slug: "drift" }));
    const outs = made.outs as FunctionOutputs;
    writeFileSync(join(dir, "other.js"), "other");
    await deployOutside("drift", zipFolder(dir));
    rmSync(join(dir, "other.js"));
    await new Promise((resolve) => setTimeout(resolve, 400));
    const read = await functionProvider.read!(made.id, outs);
    assert.deepEqual([read.props?.sourceHash, read.props?.deploymentId], ["", 2]);
    const diff = await functionProvider.diff!(
      made.id,
      read.props as FunctionOutputs,
      inputs({ slug: "drift" }),
    );
    assert.deepEqual([diff.changes, diff.replaces], [true, []]);
    await outside("DELETE", "/drift");
    assert.deepEqual(await functionProvider.read!(made.id, outs), { id: "" });
  });
});
