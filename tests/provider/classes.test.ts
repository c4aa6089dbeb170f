import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import sinon from "sinon";
import { moduleRef } from "../../provider/resources/lifecycle/moduleRef";
import { API_KEY, ApiKey } from "../../provider/resources/public/apiKey";
import { BACKUP_SCHEDULE, BackupSchedule } from "../../provider/resources/public/backupSchedule";
import { BRANCH, Branch } from "../../provider/resources/public/branch";
import { DATABASE, Database } from "../../provider/resources/public/database";
import { outputNames, type ResourceDeclaration, secretsOf } from "../../provider/resources/public/declare";
import { ENDPOINT, Endpoint } from "../../provider/resources/public/endpoint";
import { PROJECT, Project } from "../../provider/resources/public/project";
import { PROJECT_PERMISSION, ProjectPermission } from "../../provider/resources/public/projectPermission";
import { PROJECT_VPC_ENDPOINT, ProjectVpcEndpoint } from "../../provider/resources/public/projectVpcEndpoint";
import { providerSource } from "../../provider/resources/public/resource";
import { ROLE, Role } from "../../provider/resources/public/role";
import { SNAPSHOT, Snapshot } from "../../provider/resources/public/snapshot";
import { VPC_ENDPOINT, VpcEndpoint } from "../../provider/resources/public/vpcEndpoint";

// The resource classes, registered with Pulumi's mock monitor: what the engine is asked to do.

interface Registration {
  type: string;
  name: string;
  secretOutputs: string[];
  inputs: Record<string, unknown>;
  /** Where the program declared the resource, as Pulumi recorded it. */
  declaredAt: string | undefined;
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
    const monitor = pulumi.runtime.getMonitor() as unknown as {
      registerResource(req: unknown, callback: unknown): void;
    };
    const original = monitor.registerResource.bind(monitor);
    sinon.stub(monitor, "registerResource").callsFake((req: unknown, callback: unknown) => {
      const r = req as {
        getType(): string;
        getName(): string;
        getAdditionalsecretoutputsList(): string[];
        getObject(): { toJavaScript(): Record<string, unknown> };
        getSourceposition(): { getUri(): string } | undefined;
      };
      registrations.push({
        type: r.getType(),
        name: r.getName(),
        secretOutputs: r.getAdditionalsecretoutputsList(),
        inputs: r.getObject().toJavaScript(),
        declaredAt: r.getSourceposition()?.getUri(),
      });
      original(req, callback);
    });
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

  // Every kind: the declaration is the one list of outputs and secrets.
  const kinds: [ResourceDeclaration, () => pulumi.CustomResource][] = [
    [API_KEY, () => new ApiKey("k", { name: "k" })],
    [BRANCH, () => new Branch("b", { projectId: "p-1" })],
    [PROJECT, () => new Project("p")],
    [ENDPOINT, () => new Endpoint("e", { projectId: "p-1", branchId: "br-1" })],
    [ROLE, () => new Role("r", { projectId: "p-1", branchId: "br-1" })],
    [DATABASE, () => new Database("d", { projectId: "p-1", branchId: "br-1", ownerName: "app" })],
    [PROJECT_PERMISSION, () => new ProjectPermission("g", { projectId: "p-1", email: "ada@example.com" })],
    [SNAPSHOT, () => new Snapshot("s", { projectId: "p-1", branchId: "br-1", name: "s" })],
    [
      BACKUP_SCHEDULE,
      () =>
        new BackupSchedule("b", { projectId: "p-1", branchId: "br-1", schedule: [{ frequency: "daily" }] }),
    ],
    [
      VPC_ENDPOINT,
      () => new VpcEndpoint("v", { orgId: "org-1", regionId: "aws-us-east-2", vpcEndpointId: "vpce-1" }),
    ],
    [PROJECT_VPC_ENDPOINT, () => new ProjectVpcEndpoint("pv", { projectId: "p-1", vpcEndpointId: "vpce-1" })],
  ];
  for (const [declaration, make] of kinds) {
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

  it("sends provider code it writes itself, naming the methods module, not a serialized closure", async () => {
    const key = new ApiKey("ci4", { name: "ci4" });
    const branch = new Branch("b4", { projectId: "p-1" });
    await Promise.all([resolved(key.urn), resolved(branch.urn)]);
    const methods = (file: string) => moduleRef(require.resolve(`../../provider/resources/${file}`));
    assert.deepEqual(
      registrations.map((r) => r.inputs.__provider),
      [providerSource(methods("apiKeyMethods")), providerSource(methods("branchMethods"))],
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
    const definitions = loaded.filter((file) =>
      /node_modules\/zod\/|provider\/resources\/(apiKey|branch|branchComputes|branchConverge|branchCreate|branchInputs|branchOutputs|database|endpoint|project|projectInputs|projectOutputs|projectRequests|projectPermission|role|expiry|connection)\.ts$|provider\/client\/schemas\.ts$/.test(
        file,
      ),
    );
    assert.deepEqual(definitions, []);
  });

  it("importing it loads no provider methods, no emulator and no optional peer: the provider process loads those", () => {
    const unused = loaded.filter((file) =>
      /provider\/resources\/(lifecycle\/(methods|settings|diff|pending)|\w+Methods)\.ts$|\/emulator\/|node_modules\/(fastify|ajv|redis|@redis|rate-limiter-flexible)\//.test(
        file,
      ),
    );
    assert.deepEqual(unused, []);
  });
});
