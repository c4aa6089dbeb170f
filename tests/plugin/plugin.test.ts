import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { DEMO, type RunningEmulator } from "../../emulator";
import { ENGINE_PROBE_MS } from "../../provider/resources/host/engineWatch";
import { QUIET_MS } from "../../provider/resources/host/progress";
import {
  type EngineStandIn,
  engineStandIn,
  forResource,
  isSecret,
  isSecretUri,
  type Plugin,
  proto,
  rejection,
  secret,
  startPlugin,
  struct,
  UNKNOWN,
  usePlugins,
} from "./support";

const BRANCH = "clouddb:index:Branch";

/** Resolves once `done()` holds (output of the plugin process arrives on its own schedule). */
async function until(done: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) assert.fail(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the provider plugin over gRPC", function () {
  // Each plugin process loads the sources through ts-node.
  this.timeout(60_000);
  // A compute start slow enough for a progress line (see host/progress.ts), the rest quick. Two
  // provider instances, two accounts: each gets its key only through Configure.
  const suite = usePlugins({ opDurationMs: { default: 20, start_compute: QUIET_MS + 500 } }, [
    DEMO.personalKey,
    DEMO.memberPersonalKey,
  ]);
  let emulator: RunningEmulator;
  let engine: EngineStandIn;
  let demo: Plugin;
  let member: Plugin;
  before(() => {
    ({ emulator, engine } = suite);
    [demo, member] = suite.plugins as [Plugin, Plugin];
  });

  async function check(plugin: Plugin, name: string, news: Record<string, unknown>, olds = {}) {
    const request = forResource(new proto.CheckRequest(), BRANCH, name);
    request.setOlds(struct(olds)).setNews(struct(news));
    const response = await plugin.call<proto.CheckRequest, proto.CheckResponse>("check", request);
    return {
      inputs: response.getInputs()?.toJavaScript() as Record<string, unknown>,
      failures: response.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`),
    };
  }

  async function create(plugin: Plugin, name: string, inputs: Record<string, unknown>) {
    const request = forResource(new proto.CreateRequest(), BRANCH, name).setProperties(struct(inputs));
    const response = await plugin.call<proto.CreateRequest, proto.CreateResponse>("create", request);
    return {
      id: response.getId(),
      outs: response.getProperties()?.toJavaScript() as Record<string, unknown>,
    };
  }

  /** A read as the engine sends it: the state's outputs and, for a refresh, its inputs. */
  async function read(
    plugin: Plugin,
    id: string,
    props: Record<string, unknown> | undefined,
    inputs?: Record<string, unknown>,
  ) {
    const request = forResource(new proto.ReadRequest(), BRANCH, "read").setId(id);
    if (props !== undefined) request.setProperties(struct(props));
    if (inputs !== undefined) request.setInputs(struct(inputs));
    const response = await plugin.call<proto.ReadRequest, proto.ReadResponse>("read", request);
    return {
      id: response.getId(),
      outs: response.getProperties()?.toJavaScript() as Record<string, unknown> | undefined,
      inputs: response.getInputs()?.toJavaScript() as Record<string, unknown> | undefined,
    };
  }

  function remove(
    plugin: Plugin,
    id: string,
    props: Record<string, unknown>,
    oldInputs?: Record<string, unknown>,
  ) {
    const request = forResource(new proto.DeleteRequest(), BRANCH, "delete")
      .setId(id)
      .setProperties(struct(props));
    if (oldInputs !== undefined) request.setOldInputs(struct(oldInputs));
    return plugin.call("delete", request);
  }

  const branchInEmulator = (id: string) =>
    emulator.control.dumpState().branches.find((b) => b.id === id && b.deleted_at_ms === undefined);

  it("reports the package's version", async () => {
    const info = await demo.call<Empty, { getVersion(): string }>("getPluginInfo", new Empty());
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "../../package.json"), "utf8"));
    assert.equal(info.getVersion(), pkg.version);
  });

  it("answers GetSchema with schema.json at the package root", async () => {
    const file = path.join(__dirname, "../../schema.json");
    const request = new proto.GetSchemaRequest();
    const response = await demo.call<proto.GetSchemaRequest, proto.GetSchemaResponse>("getSchema", request);
    assert.equal(response.getSchema(), fs.readFileSync(file, "utf8"));
  });

  it("says the package schema is missing, naming the file, when the package has no schema.json", async () => {
    // The package as installed without its schema.json: its package.json and sources, its dependencies.
    const root = path.join(__dirname, "../..");
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-no-schema-"));
    fs.copyFileSync(path.join(root, "package.json"), path.join(bare, "package.json"));
    fs.cpSync(path.join(root, "provider"), path.join(bare, "provider"), { recursive: true });
    fs.symlinkSync(path.join(root, "node_modules"), path.join(bare, "node_modules"), "dir");
    const main = path.join(bare, "provider/plugin/main.ts");
    const plugin = await startPlugin(engine.address, [
      process.execPath,
      "-r",
      "ts-node/register/transpile-only",
      main,
    ]);
    try {
      const err = await rejection(plugin.call("getSchema", new proto.GetSchemaRequest()));
      const missing = path.join(fs.realpathSync(bare), "schema.json");
      assert.ok(
        err.details.startsWith(`the package schema is missing: ${missing} does not exist`),
        err.details,
      );
    } finally {
      await plugin.stop();
      fs.rmSync(bare, { recursive: true, force: true });
    }
  });

  it("creates, reads and deletes a branch with the configured provider's key, connection strings as secrets", async () => {
    const checked = await check(demo, "feature", {
      projectId: DEMO.projectId,
      name: "plugin-feature",
      endpoints: [{ type: "read_write" }],
    });
    assert.deepEqual(checked.failures, []);
    assert.equal(typeof checked.inputs.__createKey, "string", "check derives the create key from the URN");

    const made = await create(demo, "feature", checked.inputs);
    assert.match(made.id, /^br-/);
    assert.equal(made.outs.name, "plugin-feature");
    assert.ok(
      isSecretUri(made.outs.connectionUri),
      `connectionUri is sent as a secret: ${JSON.stringify(made.outs.connectionUri)}`,
    );
    assert.ok(isSecretUri(made.outs.pooledConnectionUri), "pooledConnectionUri is sent as a secret");
    assert.equal(branchInEmulator(made.id)?.name, "plugin-feature");
    const progress = /^start_compute \S+ on ep-\S+ of br-\S+: finished \(\d+s\)$/;
    // Sent to the engine's Log: the engine hides a resource plugin's stdout.
    await until(() => engine.logs.some((line) => progress.test(line)), `a progress line: ${engine.logs}`);

    // The create key and the inputs the program gave stay in the state's inputs, which the engine
    // sends back with the outputs: a program's SDK reads every output of every resource.
    assert.equal("__createKey" in made.outs, false, "the create key is not an output");
    assert.equal("__given" in made.outs, false, "the given inputs are not an output");

    const refreshed = await read(demo, made.id, made.outs, checked.inputs);
    assert.equal(refreshed.id, made.id);
    assert.equal(refreshed.outs?.branchId, made.id);
    assert.ok(
      isSecretUri(refreshed.outs?.connectionUri),
      `a refresh keeps connectionUri secret: ${JSON.stringify(refreshed.outs?.connectionUri)}`,
    );
    assert.deepEqual(refreshed.inputs?.name, "plugin-feature");
    assert.deepEqual(
      Object.keys(refreshed.inputs ?? {}).sort(),
      Object.keys(checked.inputs).sort(),
      "a refresh reports back the inputs the program gave, with the create key",
    );
    assert.equal(refreshed.inputs?.__createKey, checked.inputs.__createKey);
    assert.equal("__createKey" in (refreshed.outs ?? {}), false, "nor is it an output after a refresh");
    // Outputs that carry their own (a state an earlier plugin wrote) are taken as they are.
    const earlier = await read(
      demo,
      made.id,
      { ...made.outs, __createKey: checked.inputs.__createKey, __given: ["name"] },
      checked.inputs,
    );
    assert.deepEqual(Object.keys(earlier.inputs ?? {}).sort(), ["__createKey", "name"]);

    const diff = forResource(new proto.DiffRequest(), BRANCH, "feature").setId(made.id);
    diff.setOlds(struct(made.outs)).setNews(struct(checked.inputs)).setOldInputs(struct(checked.inputs));
    const unchanged = await demo.call<proto.DiffRequest, proto.DiffResponse>("diff", diff);
    assert.equal(unchanged.getChanges(), proto.DiffResponse.DiffChanges.DIFF_NONE);

    await remove(demo, made.id, made.outs, checked.inputs);
    assert.equal(branchInEmulator(made.id), undefined);
    const gone = await read(demo, made.id, made.outs);
    assert.equal(gone.id, "", "a refresh of a deleted branch drops it");
  });

  it("serves each provider instance with its own account", async () => {
    const refused = await check(member, "other", { projectId: DEMO.projectId, name: "plugin-other" });
    assert.equal(refused.failures.length, 1, "the member's key cannot see the demo user's project");
    assert.match(refused.failures[0] ?? "", new RegExp(DEMO.projectId));

    const checked = await check(member, "own", { projectId: DEMO.memberProjectId, name: "plugin-own" });
    assert.deepEqual(checked.failures, []);
    const made = await create(member, "own", checked.inputs);
    assert.equal(branchInEmulator(made.id)?.project_id, DEMO.memberProjectId);
    await remove(member, made.id, made.outs);
  });

  it("warns on the resource, at check, when an Endpoint sets an input the API marks deprecated", async () => {
    const endpoint = "clouddb:index:Endpoint";
    const urn = forResource(new proto.CheckRequest(), endpoint, "pooled").getUrn();
    const inputs = { projectId: DEMO.projectId, branchId: DEMO.branchId };
    for (const [name, news] of [
      ["pooled", { ...inputs, poolerEnabled: true }],
      ["plain", inputs],
    ] as const) {
      const request = forResource(new proto.CheckRequest(), endpoint, name)
        .setOlds(struct({}))
        .setNews(struct(news));
      const response = await demo.call<proto.CheckRequest, proto.CheckResponse>("check", request);
      assert.deepEqual(
        response.getFailuresList().map((f) => f.getReason()),
        [],
      );
    }
    await until(() => engine.warnings.length > 0, "a warning");
    assert.deepEqual(
      engine.warnings.map((w) => w.urn),
      [urn],
    );
    assert.match(
      engine.warnings[0]?.message ?? "",
      /^Endpoint input poolerEnabled is deprecated .*append `-pooler`/,
    );
  });

  it("answers a create whose wait outlived the engine's timeout with the made branch's id and secret properties, for the state", async () => {
    emulator.control.scriptOperations({ action: "create_branch", count: 1 }, { kind: "stuck" });
    const checked = await check(demo, "slow", { projectId: DEMO.projectId, name: "plugin-slow" });
    const request = forResource(new proto.CreateRequest(), BRANCH, "slow").setProperties(
      struct(checked.inputs),
    );
    // The engine's customTimeouts: seconds.
    request.setTimeout(3);
    const err = await rejection(demo.call("create", request));
    const detail = err.metadata.get("grpc-status-details-bin")[0];
    assert.ok(detail instanceof Buffer, `a partial failure carries details: ${err.details}`);
    const any = Status.deserializeBinary(detail).getDetailsList()[0];
    const made = any?.unpack(
      proto.ErrorResourceInitFailed.deserializeBinary,
      "pulumirpc.ErrorResourceInitFailed",
    );
    assert.ok(made, "the details are an ErrorResourceInitFailed");
    assert.match(made.getId(), /^br-/);
    assert.equal(branchInEmulator(made.getId())?.name, "plugin-slow", "the recorded id is the branch made");
    const recorded = made.getProperties()?.toJavaScript() ?? {};
    assert.ok("connectionUri" in recorded, "the recorded properties hold the connection string");
    assert.ok(isSecret(recorded.connectionUri), "a recorded connection string is a secret");
    emulator.control.clearOperationScripts();
  });

  it("skips values not known yet at preview, and diffs by the declared change table", async () => {
    const checked = await check(demo, "preview", { projectId: UNKNOWN, name: "plugin-preview" });
    assert.deepEqual(checked.failures, []);
    assert.equal(checked.inputs.projectId, UNKNOWN);

    const request = forResource(new proto.DiffRequest(), BRANCH, "preview").setId("br-x");
    request
      .setOlds(struct({ projectId: DEMO.projectId, name: "a", branchId: "br-x" }))
      .setNews(struct({ projectId: DEMO.orgProjectId, name: "a" }));
    const diff = await demo.call<proto.DiffRequest, proto.DiffResponse>("diff", request);
    assert.equal(diff.getChanges(), proto.DiffResponse.DiffChanges.DIFF_SOME);
    assert.deepEqual(diff.getReplacesList(), ["projectId"]);
  });

  it("names in its Diff's detailed diff what a Function's update changes: sourceHash, each variable, the runtime", async () => {
    const request = forResource(new proto.DiffRequest(), "clouddb:index:Function", "fn").setId("p/br/fn");
    const olds = {
      projectId: DEMO.projectId,
      branchId: DEMO.branchId,
      slug: "fn",
      source: "/code",
      runtime: "nodejs20",
      sourceHash: "a".repeat(64),
      environment: secret({ A: "1", B: "2" }),
    };
    // The new inputs as the plugin's check gives them: with the code's hash.
    request.setOlds(struct(olds)).setNews(
      struct({
        ...olds,
        runtime: "nodejs24",
        sourceHash: "b".repeat(64),
        environment: secret({ A: "s3cr3t-one", C: "3" }),
      }),
    );
    const diff = await demo.call<proto.DiffRequest, proto.DiffResponse>("diff", request);
    assert.equal(diff.getChanges(), proto.DiffResponse.DiffChanges.DIFF_SOME);
    assert.equal(diff.getHasdetaileddiff(), true);
    const { ADD, DELETE, UPDATE } = proto.PropertyDiff.Kind;
    const detailed: Record<string, number> = {};
    diff.getDetaileddiffMap().forEach((d, path) => {
      detailed[path] = d.getKind();
    });
    assert.deepEqual(detailed, {
      runtime: UPDATE,
      sourceHash: UPDATE,
      "environment.A": UPDATE,
      "environment.B": DELETE,
      "environment.C": ADD,
    });
    assert.deepEqual(diff.getDiffsList().sort(), ["environment", "runtime", "sourceHash"]);
    assert.ok(!JSON.stringify(diff.toObject()).includes("s3cr3t"), "no value is named");
  });

  it("answers a read without state whose id is not an import id with the id's shape, not a crash", async () => {
    const err = await rejection(read(demo, DEMO.branchId, undefined));
    assert.match(
      err.details,
      /cannot import branch "br-damp-glitter-adqd4hk5": its import id is <projectId>\/<branchId>/,
    );
    // The plugin still serves after it.
    const again = await check(demo, "after", { projectId: DEMO.projectId, name: "plugin-after" });
    assert.deepEqual(again.failures, []);
  });

  it("checks a provider's config: a timeout that is not a positive number fails with the fix", async () => {
    const request = new proto.CheckRequest()
      .setUrn("urn:pulumi:dev::app::pulumi:providers:clouddb::second")
      .setOlds(struct({}))
      .setNews(struct({ apiKey: secret(DEMO.memberPersonalKey), operationTimeoutSeconds: "soon" }));
    const response = await demo.call<proto.CheckRequest, proto.CheckResponse>("checkConfig", request);
    const failures = response.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
    assert.equal(failures.length, 1);
    assert.match(failures[0] ?? "", /^operationTimeoutSeconds: .*positive number of seconds, got "soon"/);
    assert.ok(!(failures[0] ?? "").includes(DEMO.memberPersonalKey));
    assert.ok(isSecret(response.getInputs()?.toJavaScript().apiKey), "the key stays a secret");
  });

  it("checks a provider's config key by key, reporting each failure against the key that is wrong", async () => {
    const request = new proto.CheckRequest()
      .setUrn("urn:pulumi:dev::app::pulumi:providers:clouddb::third")
      .setOlds(struct({}))
      .setNews(
        struct({
          apiKey: secret(DEMO.memberPersonalKey),
          apiUrl: "ftp://api.example.com/api/v2",
          operationTimeoutSeconds: 600,
          limiterUrl: "http://limiter.internal:6379",
        }),
      );
    const response = await demo.call<proto.CheckRequest, proto.CheckResponse>("checkConfig", request);
    const failures = response.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
    assert.equal(failures.length, 2, failures.join("\n"));
    assert.match(
      failures[0] ?? "",
      /^apiUrl: The API URL "ftp:\/\/api\.example\.com\/api\/v2" must use http or https/,
    );
    assert.match(
      failures[1] ?? "",
      /^limiterUrl: The shared limiter URL must start with redis:\/\/ or rediss:\/\//,
    );
    assert.ok(failures.every((f) => !f.includes(DEMO.memberPersonalKey)));
  });

  it("names the type tokens it serves when asked for another", async () => {
    const request = forResource(new proto.CheckRequest(), "clouddb:index:Nope", "x");
    request.setOlds(struct({})).setNews(struct({}));
    const err = await rejection(demo.call("check", request));
    assert.match(
      err.details,
      /unknown resource type clouddb:index:Nope: this provider serves .*clouddb:index:Branch/,
    );
  });

  it("ends when its engine is gone, leaving no process behind", async () => {
    const own = await engineStandIn();
    const plugin = await startPlugin(own.address);
    const exited = new Promise<number | null>((resolve) => plugin.process.once("exit", resolve));
    await own.close();
    await until(() => plugin.process.exitCode !== null, "the plugin exits", 4 * ENGINE_PROBE_MS);
    assert.equal(await exited, 1);
    await plugin.stop();
  });
});
