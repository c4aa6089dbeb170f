import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import sinon from "sinon";
import * as clouddb from "../../provider";
import { DEPRECATED } from "../../provider/resources/public/deprecated.gen";
import {
  deprecatedInputs,
  deprecatedInputWarnings,
  deprecationMessages,
} from "../../provider/resources/public/deprecatedInputs";
import { DECLARATIONS } from "../../provider/resources/public/kinds";

// An input the provider sends as a field the API's newest description marks deprecated warns at
// preview (the program's process, before anything is sent), saying what to use instead; the
// resource and what it registers are unchanged.

function resolved<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

describe("deprecated inputs warn at preview", () => {
  let registered: Record<string, unknown>[];
  let warn: sinon.SinonStub;

  before(async () => {
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => {
          registered.push(args.inputs);
          return { id: `${args.name}-id`, state: args.inputs };
        },
        call: () => ({}),
      },
      "clouddb-test",
      "unit",
    );
  });

  beforeEach(() => {
    registered = [];
    warn = sinon.stub(pulumi.log, "warn").resolves();
  });
  afterEach(() => sinon.restore());

  const warnings = () =>
    warn
      .getCalls()
      .map((c) => String(c.args[0]))
      .filter((m) => m.includes("is deprecated"));

  it("warns, on the resource, when an Endpoint sets poolerEnabled, saying what to use instead", async () => {
    const endpoint = new clouddb.Endpoint("pooled", {
      projectId: "p-1",
      branchId: "br-1",
      poolerEnabled: true,
    });
    await resolved(endpoint.urn);
    assert.deepEqual(warnings(), [
      "Endpoint input poolerEnabled is deprecated (the API marks pooler_enabled, which it is sent as, deprecated): " +
        "To enable connection pooling, append `-pooler` to the endpoint ID in the connection string. " +
        "See How to use connection pooling: https://neon.com/docs/connect/connection-pooling#how-to-use-connection-pooling. " +
        "Here, the Endpoint's pooledHost output is that host.",
    ]);
    const call = warn.getCalls().find((c) => String(c.args[0]).includes("poolerEnabled"));
    assert.equal(call?.args[1], endpoint, "the warning is the resource's");
    assert.equal(registered[0]?.["poolerEnabled"], true, "the input is still sent");
  });

  it("warns for a false value and an output too: the input is set", async () => {
    const off = new clouddb.Endpoint("off", { projectId: "p-1", branchId: "br-1", poolerEnabled: false });
    const later = new clouddb.Endpoint("later", {
      projectId: "p-1",
      branchId: "br-1",
      poolerEnabled: pulumi.output(Promise.resolve(true)),
    });
    await Promise.all([resolved(off.urn), resolved(later.urn)]);
    assert.equal(warnings().filter((w) => w.includes("poolerEnabled")).length, 2);
  });

  it("warns for poolerMode with the description's note", async () => {
    const endpoint = new clouddb.Endpoint("mode", {
      projectId: "p-1",
      branchId: "br-1",
      poolerMode: "transaction",
    });
    await resolved(endpoint.urn);
    assert.deepEqual(warnings(), [
      "Endpoint input poolerMode is deprecated (the API marks pooler_mode, which it is sent as, deprecated): " +
        "The connection pooler mode. Neon supports PgBouncer in `transaction` mode only. Removal scheduled for June 20, 2026.",
    ]);
  });

  it("says nothing for an Endpoint without them, nor for another kind", async () => {
    const endpoint = new clouddb.Endpoint("plain", { projectId: "p-1", branchId: "br-1", disabled: false });
    const branch = new clouddb.Branch("b", { projectId: "p-1" });
    await Promise.all([resolved(endpoint.urn), resolved(branch.urn)]);
    assert.deepEqual(warnings(), []);
    assert.deepEqual(deprecatedInputWarnings("Branch", { poolerEnabled: true }), []);
  });

  it("names only declared inputs, each sent as a field the derived list marks deprecated", () => {
    const listed = deprecatedInputs();
    assert.ok(Object.keys(listed).length > 0);
    for (const [type, inputs] of Object.entries(listed)) {
      const declaration = DECLARATIONS.find((d) => d.type === type);
      assert.ok(declaration, `${type} is a kind`);
      for (const [input, field] of Object.entries(inputs)) {
        assert.ok(input in declaration.inputs, `${type} declares ${input}`);
        assert.ok(DEPRECATED[field] !== undefined, `${field} is marked deprecated`);
      }
    }
  });

  it("marks each in the package schema with the same reason, so every SDK marks the input deprecated", () => {
    const schema = JSON.parse(readFileSync(join(__dirname, "../../schema.json"), "utf8")) as {
      resources: Record<string, { inputProperties: Record<string, { deprecationMessage?: string }> }>;
    };
    for (const [type, inputs] of Object.entries(deprecatedInputs())) {
      const properties = schema.resources[`clouddb:index:${type}`]?.inputProperties ?? {};
      const marked = Object.entries(properties).filter(([, p]) => p.deprecationMessage !== undefined);
      assert.deepEqual(marked.map(([name]) => name).sort(), Object.keys(inputs).sort(), type);
      for (const [input, message] of Object.entries(deprecationMessages(type))) {
        assert.equal(properties[input]?.deprecationMessage, message);
        const warning = deprecatedInputWarnings(type, { [input]: true })[0] ?? "";
        assert.ok(warning.endsWith(message.slice(message.indexOf("deprecated: ") + 12)), warning);
      }
    }
  });
});
