import assert from "node:assert/strict";
import * as resources from "../../provider";
import { DECLARATIONS } from "../../provider/plugin/kinds";
import { BRANCH } from "../../provider/resources/public/branch";
import {
  arrayOf,
  changesOf,
  declareConfig,
  declareFunction,
  declareResource,
  outputNames,
  STRING,
  secretsOf,
} from "../../provider/resources/public/declare";
import { DynamicResource } from "../../provider/resources/public/resource";
import { declarationDocs } from "../../scripts/declaration-docs";
import { componentDeclarations } from "../../scripts/derive-schema";

// A declaration is the one place a resource's inputs and outputs are written: what is derived from
// it at run time, and what the compiler refuses in it (`npm run typecheck` checks the
// `@ts-expect-error` lines below: each must be an error).

const WIDGET = declareResource({
  type: "Widget",
  noun: "widget",
  family: "widgets",
  inputs: {
    /** The widget's name. */
    name: { type: STRING, required: true, change: "replace" },
    /** A note. */
    note: { type: STRING, change: "update" },
  },
  outputs: {
    /** The widget's id. */
    widgetId: { type: STRING },
    /** Its connection string. */
    connectionUri: { type: STRING, secret: true },
    /** Ids of operations. */
    operationIds: { type: arrayOf(STRING) },
    /** Its password. */
    password: { type: STRING, secret: true },
  },
});

declareResource({
  type: "Careless",
  noun: "careless thing",
  family: "careless",
  inputs: {},
  outputs: {
    // @ts-expect-error an output named like a credential must be declared a secret
    adminPassword: { type: STRING },
    // @ts-expect-error a connection string must be declared a secret
    readerUri: { type: STRING, nullable: true },
    // @ts-expect-error a field the declaration does not know (a misspelt `secret`) is refused
    label: { type: STRING, secert: true },
  },
});

declareFunction({
  name: "getCareless",
  inputs: {},
  outputs: {
    // @ts-expect-error a function's output holding a credential must be declared a secret
    readerUri: { type: STRING },
  },
});

declareConfig({
  // @ts-expect-error a setting holding a credential must be declared a secret
  apiKey: { type: STRING },
});

declareConfig({
  // @ts-expect-error a setting is a scalar
  limits: { type: arrayOf(STRING) },
});

describe("resource declarations", () => {
  it("lists the outputs in declaration order: what the class seeds", () => {
    assert.deepEqual(outputNames(WIDGET), ["widgetId", "connectionUri", "operationIds", "password"]);
  });

  it("lists the secret outputs in declaration order: what the class asks Pulumi to encrypt", () => {
    assert.deepEqual(secretsOf(WIDGET), ["connectionUri", "password"]);
    assert.deepEqual(secretsOf(BRANCH), ["connectionUri", "pooledConnectionUri"]);
  });

  it("makes the change table from each input's change", () => {
    assert.deepEqual(changesOf(WIDGET), { name: "replace", note: "update" });
  });

  it("documents every input, output and object-type property of every kind, function and setting in one paragraph", () => {
    const docs = declarationDocs();
    const kinds = Object.values(resources)
      .filter((value) => typeof value === "function" && value.prototype instanceof DynamicResource)
      .map((value) => (value as { name: string }).name)
      .sort();
    assert.deepEqual(
      kinds,
      DECLARATIONS.map((d) => d.type).sort(),
      "every declared kind is exported as a class",
    );
    const components = componentDeclarations().map((c) => c.type);
    assert.deepEqual(
      [...new Set(docs.filter((d) => d.of === "resource").map((d) => d.owner))].sort(),
      [...kinds, ...components].sort(),
    );
    const undocumented = docs.filter((d) => d.doc === undefined || /\n\s*\n/.test(d.doc));
    assert.deepEqual(
      undocumented.map((d) => `${d.owner}.${d.part}.${d.name} (${d.at})`),
      [],
      "each declared property needs a JSDoc of one paragraph: it is the property's doc on hover and in a package schema",
    );
  });
});
