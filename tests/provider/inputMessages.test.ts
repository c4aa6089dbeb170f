import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import { forgetPreflight } from "../../provider/resources/lifecycle/preflight";
import { methodsOf } from "../../provider/resources/methodsTable";
import type { ResourceDeclaration, Type } from "../../provider/resources/public/declare";
import { DECLARATIONS } from "../../provider/resources/public/kinds";
import { useEmulator } from "./support";

// The checklist of every kind's input messages, derived from the registry: each declared input (and
// each property of an object input, and of a list's objects) is given values of the wrong type and
// out of range, and every failure `check` answers must be a sentence naming the input, never the
// validator's own phrase. A new kind or input is walked without a line here.

/** The validator's default phrases, which say neither the input nor what to give. */
const RAW =
  /(^|: )(Too (big|small)|Invalid( (URL|option|input|string|number|email|enum value|type|key|element|union|discriminator|date))?\b|Expected|Required|Unrecognized|String must|Number must|Array must)/i;

/** Wrong and out-of-range values for a value of `type`. */
function badValues(type: Type): unknown[] {
  if ("oneOf" in type) return [{}, []];
  switch (type.type) {
    case "string":
      return [12345, true, "", " ", "x".repeat(5000), "not a url or id", {}];
    case "number":
    case "integer":
      return ["ten", -1, 0, 1.5, 1e12, true, []];
    case "boolean":
      return ["yes", 1];
    case "array":
      return ["x", {}, [12345], [""], ...badValues(type.items).map((item) => [item])];
    case "map":
      return ["x", [], { key: [] }, ...badValues(type.values).map((value) => ({ key: value }))];
    case "object":
      return [
        "x",
        5,
        [],
        {},
        ...Object.entries(type.properties).flatMap(([name, property]) =>
          badValues(property.type).map((value) => ({ [name]: value })),
        ),
      ];
  }
}

/** Inputs of `kind` each holding one bad value, with the rest left out (so required ones are missing too). */
function badInputs(kind: ResourceDeclaration): Record<string, unknown>[] {
  return [
    {},
    ...Object.entries(kind.inputs).flatMap(([name, input]) =>
      badValues(input.type).map((value) => ({ [name]: value })),
    ),
  ];
}

describe("every input failure is a sentence naming the input", () => {
  useEmulator();
  beforeEach(() => forgetPreflight());

  for (const kind of DECLARATIONS) {
    it(`${kind.type}: no failure is the validator's own phrase`, async () => {
      const methods = methodsOf(kind.type) as Pick<pulumi.dynamic.ResourceProvider, "check">;
      const raw: string[] = [];
      let failures = 0;
      for (const inputs of badInputs(kind)) {
        const news = { ...inputs, __owner: `urn:pulumi:dev::app::clouddb:index:${kind.type}::bad` };
        const result = await methods.check!({}, news);
        for (const { property, reason } of result.failures ?? []) {
          failures += 1;
          // A failure names its input: as the property the engine prints, or in its reason.
          const named = property !== "" || Object.keys(kind.inputs).some((input) => reason.includes(input));
          if (RAW.test(reason) || !named) raw.push(`${JSON.stringify(inputs)} -> ${property}: ${reason}`);
        }
      }
      assert.ok(failures > 0, `no bad value of ${kind.type} was refused`);
      assert.deepEqual([...new Set(raw)], [], `${kind.type} answers the validator's own phrases`);
    });
  }
});
