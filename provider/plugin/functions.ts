/**
 * The functions (data sources) the plugin serves, by token: `clouddb:index:<name>` for each
 * declaration of `../data/declared.ts`, `../data/lookups.declared.ts` and `../data/inventory.declared.ts`, run by the package's function of the same name (the one a
 * Node.js program calls), so both run one implementation. Their arguments are checked against the
 * declaration first, each failure naming the argument.
 */

import * as declared from "../data/declared";
import * as inventory from "../data/inventory.declared";
import * as lookups from "../data/lookups.declared";
import * as exported from "../index";
import type { Argument, FunctionDeclaration, Type } from "../resources/public/declare";
import { token } from "./token";

type Props = Record<string, unknown>;

/** A function the plugin serves: its declaration and what runs it. */
export interface ServedFunction {
  readonly declaration: FunctionDeclaration;
  run(args: Props): Promise<Props>;
}

const isFunction = (value: unknown): value is FunctionDeclaration =>
  typeof value === "object" && value !== null && "name" in value && "inputs" in value && "outputs" in value;

const FUNCTIONS = new Map<string, ServedFunction>(
  ([...Object.values(declared), ...Object.values(lookups), ...Object.values(inventory)] as unknown[])
    .filter(isFunction)
    .map((declaration) => {
      const implementation = (exported as unknown as Record<string, unknown>)[declaration.name];
      if (typeof implementation !== "function") {
        throw new Error(
          `the declared function ${declaration.name} has no implementation exported by the package`,
        );
      }
      const run = implementation as (args: Props) => Promise<Props>;
      return [token(declaration.name), { declaration, run: (args: Props) => run(args) }];
    }),
);

/** The function of `tok`; throws naming the functions served when there is none. */
export function functionOf(tok: string): ServedFunction {
  const served = FUNCTIONS.get(tok);
  if (served === undefined) {
    throw new Error(
      `unknown function ${tok}: this provider serves ${[...FUNCTIONS.keys()].join(", ")}; check the function token`,
    );
  }
  return served;
}

/** What is wrong with `args` for `declaration`: one `[argument, reason]` per problem. */
export function argumentFailures(declaration: FunctionDeclaration, args: Props): [string, string][] {
  const failures: [string, string][] = [];
  const known = Object.keys(declaration.inputs);
  for (const [name, argument] of Object.entries(declaration.inputs) as [string, Argument][]) {
    const value = args[name];
    if (value === undefined || value === null) {
      if (argument.required === true) failures.push([name, `${declaration.name}: ${name} is required`]);
      continue;
    }
    const expected = describe(argument.type);
    if (!fits(argument.type, value)) {
      failures.push([name, `${declaration.name}: ${name} must be ${expected}, got ${JSON.stringify(value)}`]);
    }
  }
  for (const name of Object.keys(args)) {
    if (!known.includes(name)) {
      failures.push([name, `${declaration.name} takes no argument ${name}; it takes ${known.join(", ")}`]);
    }
  }
  return failures;
}

function fits(type: Type, value: unknown): boolean {
  if ("oneOf" in type) return type.oneOf.some((t) => fits(t, value));
  switch (type.type) {
    case "string":
      return typeof value === "string" && (!("enum" in type) || type.open || type.enum.includes(value));
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value) && value.every((item) => fits(type.items, item));
    case "map":
      return (
        typeof value === "object" &&
        value !== null &&
        !Array.isArray(value) &&
        Object.values(value).every((item) => fits(type.values, item))
      );
    default:
      return typeof value === "object" && !Array.isArray(value);
  }
}

function describe(type: Type): string {
  if ("oneOf" in type) return type.oneOf.map(describe).join(" or ");
  if (type.type === "array") return `a list of ${describe(type.items)}`;
  if (type.type === "map") return `a map of ${describe(type.values)}`;
  if ("enum" in type && !type.open) return `one of ${type.enum.join(", ")}`;
  return type.type === "integer" ? "a whole number" : `a ${type.type}`;
}
