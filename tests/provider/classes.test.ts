import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import sinon from "sinon";
import * as clouddb from "../../provider";
import { outputNames, secretsOf, type Type } from "../../provider/resources/public/declare";
import { DECLARATIONS } from "../../provider/resources/public/kinds";
import { providerSource } from "../../provider/resources/public/resource";
import { type Registration, recordRegistrations } from "./support/mockMonitor";

// The resource classes, registered with Pulumi's mock monitor: what the engine is asked to do.

const { ApiKey, Branch } = clouddb;

/** A resource class of the package. */
type KindClass = new (name: string, args: Record<string, unknown>) => pulumi.CustomResource;

/** A value of the declared type `type` (the mock monitor checks nothing of it). */
function sample(type: Type): unknown {
  if ("oneOf" in type) return sample(type.oneOf[0] as Type);
  if ("enum" in type) return type.enum[0];
  switch (type.type) {
    case "array":
      return [sample(type.items)];
    case "map":
      return {};
    case "object":
      return Object.fromEntries(
        Object.entries(type.properties)
          .filter(([, property]) => property.optional !== true)
          .map(([name, property]) => [name, sample(property.type)]),
      );
    case "string":
      return "x-1";
    case "boolean":
      return true;
    default:
      return 1;
  }
}

function resolved<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

describe("resource classes (Pulumi mock monitor)", () => {
  let registrations: Registration[];

  before(async () => {
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
        call: () => ({}),
      },
      "clouddb-test",
      "unit",
    );
  });

  beforeEach(() => {
    registrations = [];
    recordRegistrations(registrations);
  });
  afterEach(() => sinon.restore());

  it("registers ApiKey with the clouddb type token and `key` as an additional secret output", async () => {
    const key = new ApiKey("ci", { name: "ci" });
    await resolved(key.urn);
    const [reg] = registrations;
    assert.ok(reg);
    assert.equal(reg.type, "pulumi-nodejs:dynamic/clouddb:ApiKey");
    assert.deepEqual(reg.secretOutputs, ["key"]);
  });

  it("keeps the caller's own additionalSecretOutputs next to `key`", async () => {
    const key = new ApiKey("ci2", { name: "ci2" }, { additionalSecretOutputs: ["createdBy"] });
    await resolved(key.urn);
    assert.deepEqual(registrations[0]?.secretOutputs, ["key", "createdBy"]);
  });

  // Every kind of the registry, made with its required inputs: the declaration is the one list of
  // outputs and secrets.
  for (const declaration of DECLARATIONS) {
    const make = () => {
      const Kind = (clouddb as unknown as Record<string, KindClass>)[declaration.type];
      assert.ok(Kind, `the package exports the class ${declaration.type}`);
      const args = Object.fromEntries(
        Object.entries(declaration.inputs)
          .filter(([, input]) => input.required === true)
          .map(([name, input]) => [name, sample(input.type)]),
      );
      return new Kind(declaration.type.toLowerCase(), args);
    };
    it(`seeds every output ${declaration.type} declares, so each is an Output on the object, and asks for its declared secrets`, async () => {
      const made = make() as unknown as Record<string, unknown> & pulumi.CustomResource;
      for (const name of outputNames(declaration)) {
        assert.ok(pulumi.Output.isInstance(made[name]), `${declaration.type}.${name} is an Output`);
      }
      await resolved(made.urn);
      assert.equal(registrations[0]?.type, `pulumi-nodejs:dynamic/clouddb:${declaration.type}`);
      assert.deepEqual(registrations[0]?.secretOutputs, secretsOf(declaration));
    });
  }

  it("sends the serialized provider with the inputs, never a credential", async () => {
    const key = new ApiKey("ci3", { name: "ci3", orgId: "org-x" });
    await resolved(key.urn);
    const inputs = registrations[0]?.inputs ?? {};
    assert.equal(inputs.name, "ci3");
    assert.equal(inputs.orgId, "org-x");
    assert.equal(typeof inputs.__provider, "string");
    assert.match(String(inputs.__provider), /exports\.handler/);
    assert.ok(!/napi_|Bearer/.test(String(inputs.__provider)));
  });

  it("registers every resource of a component of the program's own, with its URN as __owner and no wait on its siblings", async () => {
    class Stage extends pulumi.ComponentResource {
      readonly branch: pulumi.CustomResource;
      readonly key: pulumi.CustomResource;
      constructor(name: string) {
        super("acme:index:Stage", name, {}, {});
        this.branch = new Branch(`${name}-branch`, { projectId: "p-1" }, { parent: this });
        this.key = new ApiKey(`${name}-key`, { name: "stage" }, { parent: this });
      }
    }
    const stage = new Stage("stage");
    const settled = Promise.all([resolved(stage.branch.urn), resolved(stage.key.urn)]);
    const timeout = new Promise((resolve) => setTimeout(() => resolve("stuck"), 2000));
    assert.notEqual(await Promise.race([settled, timeout]), "stuck", "each waits for the other");
    const branch = registrations.find((r) => r.name === "stage-branch");
    assert.equal(branch?.inputs.__owner, await resolved(stage.branch.urn));
  });

  it("sends provider code it writes itself, naming the kind, not a serialized closure or a file", async () => {
    const key = new ApiKey("ci4", { name: "ci4" });
    const branch = new Branch("b4", { projectId: "p-1" });
    await Promise.all([resolved(key.urn), resolved(branch.urn)]);
    assert.deepEqual(
      registrations.map((r) => r.inputs.__provider),
      [providerSource("ApiKey"), providerSource("Branch")],
    );
  });

  it("turns stack capture off only while Pulumi sets a resource up: the limit is restored and Pulumi still records where the resource was declared", async () => {
    const before = Error.stackTraceLimit;
    Error.stackTraceLimit = 17;
    try {
      const key = new ApiKey("traced", { name: "traced" });
      assert.equal(Error.stackTraceLimit, 17);
      await resolved(key.urn);
    } finally {
      Error.stackTraceLimit = before;
    }
    // Pulumi records the frame a fixed depth below its own constructor: the class's, as it did when
    // the classes extended pulumi.dynamic.Resource (same depth). It needs a stack to find it.
    assert.match(registrations[0]?.declaredAt ?? "", /public\/apiKey\.ts$/);
  });

  it("gives an error thrown while Pulumi sets a resource up the stack of the program's call", () => {
    const notAResource = {} as pulumi.Resource;
    assert.throws(
      () => new ApiKey("orphan", { name: "orphan" }, { parent: notAResource }),
      (err: Error) =>
        /Resource parent is not a valid Resource/.test(err.message) &&
        /classes\.test\.ts/.test(err.stack ?? ""),
    );
  });

  it("registers Branch with the clouddb type token and both connection strings as additional secret outputs", async () => {
    const branch = new Branch("preview", { projectId: "p-1", name: "preview" });
    await resolved(branch.urn);
    const [reg] = registrations;
    assert.equal(reg?.type, "pulumi-nodejs:dynamic/clouddb:Branch");
    assert.deepEqual(reg?.secretOutputs, ["connectionUri", "pooledConnectionUri"]);
    assert.equal(reg?.inputs.projectId, "p-1");
  });
});

describe("the package in a program process", () => {
  const root = path.resolve(__dirname, "../..");
  let loaded: string[] = [];
  before(() => {
    loaded = JSON.parse(
      execFileSync(
        process.execPath,
        [
          "-r",
          "ts-node/register/transpile-only",
          "-e",
          "require('./provider'); process.stdout.write(JSON.stringify(Object.keys(require.cache)))",
        ],
        { cwd: root, encoding: "utf8" },
      ),
    ) as string[];
  });

  it("importing it loads no HTTP client: that waits for the first data-source call", () => {
    assert.ok(
      loaded.some((file) => file.endsWith(path.join("provider", "resources", "public", "branch.ts"))),
      "the resources are loaded",
    );
    const client = loaded.filter((file) =>
      /node_modules\/got\/|provider\/client\/(request|http|index)\.ts$/.test(file),
    );
    assert.deepEqual(client, []);
  });

  it("importing it loads no zod and no resource definition: only the provider process validates inputs", () => {
    // What the program process may load of the resources: the declarations and classes (and the
    // data generated beside them), the error markers, and the few lines naming a methods module.
    const programSide =
      /provider\/resources\/(public\/\w+(\.gen)?|lifecycle\/(define|lazyProvider|moduleRef|statePaths)|errors)\.ts$/;
    const definitions = loaded.filter(
      (file) =>
        /node_modules\/zod\/|provider\/client\/schemas\//.test(file) ||
        (/provider\/resources\//.test(file) && !programSide.test(file)),
    );
    assert.deepEqual(definitions, []);
  });

  it("importing it loads no provider methods, no emulator and no optional peer: the provider process loads those", () => {
    const unused = loaded.filter((file) =>
      /provider\/resources\/(lifecycle\/(methods|diff|pending)|host\/settings|methods\/\w+)\.ts$|\/emulator\/|node_modules\/(fastify|ajv|redis|@redis|rate-limiter-flexible)\//.test(
        file,
      ),
    );
    assert.deepEqual(unused, []);
  });
});
