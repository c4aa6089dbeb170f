/**
 * `check`: validates inputs against the resource's zod schema before anything is sent. Each issue
 * becomes a Pulumi check failure naming the property (`endpoints[1].type`) and what to change.
 * During preview an input may be a value not known yet: issues at or under such a value are dropped.
 *
 * The engine prints a failure that names a property as "property P value {V} has a problem", looking
 * V up by P among the top-level inputs only: a nested path or a missing input would print `{<nil>}`.
 * Such failures name no property and carry the path in their reason instead. An issue whose schema
 * gives no message of its own says a sentence naming the input and what to give (`issueSentence.ts`).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { issueSentence, propertyPath } from "./issueSentence";

/** The unknown-value sentinel Pulumi passes to `check`/`diff` during preview for values not yet known. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Whether a property value is not known yet (preview of a value computed by another resource). */
export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/**
 * Checks `news` against `schema`. Valid: the inputs the schema declares (extra fields dropped), a
 * number the schema takes as text recorded as that text. Invalid: the inputs as given, with one
 * failure per issue.
 */
export function checkInputs<I>(schema: z.ZodObject<z.ZodRawShape>, news: I): pulumi.dynamic.CheckResult<I> {
  const parsed = schema.safeParse(news, { error: issueSentence });
  const failures = parsed.success
    ? []
    : parsed.error.issues
        .filter((issue) => !underUnknown(news, issue.path))
        .map((issue) => checkFailure(issue, news));
  if (failures.length > 0) return { inputs: news, failures };
  const taken = declaredInputs<Record<string, unknown>>(schema, news);
  // A number the schema takes as its text (a trigger from Pulumi YAML's config) is kept as that text.
  const data = (parsed.success ? parsed.data : {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(taken))
    if (typeof value === "number" && typeof data[key] === "string") taken[key] = data[key];
  return { inputs: taken as I };
}

/** The inputs `schema` declares, taken from `value` (inputs or outputs), without undefined values. */
export function declaredInputs<I>(schema: z.ZodObject<z.ZodRawShape>, value: unknown): I {
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(schema.shape)
      .map((key) => [key, record[key]] as const)
      .filter(([, v]) => v !== undefined),
  ) as I;
}

/** One zod issue as a check failure: a value of the wrong type says which type the input takes. */
function checkFailure(issue: z.core.$ZodIssue, news: unknown): pulumi.dynamic.CheckFailure {
  const path = propertyPath(issue.path);
  const given = valueAt(news, issue.path);
  const reason =
    issue.code === "invalid_type" && given !== undefined && kindOfValue(given) !== kindOfType(issue.expected)
      ? `${path} must be ${article(issue.expected)}, not ${describeValue(given)}`
      : issue.message;
  const topLevel = issue.path.length === 1 && given !== undefined;
  if (topLevel) return { property: path, reason };
  return { property: "", reason: reason.startsWith(path) ? reason : `${path}: ${reason}` };
}

/** The JSON kind of a value: `string`, `number`, `boolean`, `object`, `array`, `null`. */
function kindOfValue(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

/** The JSON kind a zod type name stands for (`int` is a number: 1.5 is a range mistake, not a type one). */
function kindOfType(expected: string): string {
  return expected === "int" ? "number" : expected;
}

/** zod's `string` -> `a string`, `array` -> `a list` (the word a program's author uses). */
function article(type: string): string {
  if (type === "array") return "a list";
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** How a message shows a value of the wrong type: `the number 5`, `a list`, `null`. */
function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `the ${typeof value} ${String(value)}`;
}

/** The value at `path` under `root`, or undefined. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Whether the value at `path`, or one of its parents, is not known yet. */
function underUnknown(root: unknown, path: readonly PropertyKey[]): boolean {
  let value = root;
  for (const key of path) {
    if (isUnknown(value)) return true;
    if (value === null || typeof value !== "object") return false;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return isUnknown(value);
}
