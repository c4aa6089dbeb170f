/**
 * The sentence an input failure says when its schema gave none: zod's own phrases (`Too big:
 * expected number to be <=10`, `Invalid URL`) name neither the input nor what to give, so every
 * issue code becomes a sentence starting with the input's path (`webhooks.timeoutSeconds must be 10
 * or less`). A schema's own message still wins; this is what `check` parses with.
 */
import type { z } from "zod";

/** zod's error map for inputs: one sentence per issue code, naming the input by its path. */
export const issueSentence: z.core.$ZodErrorMap = (issue) => {
  const path = propertyPath(issue.path ?? []);
  const input = issue.input;
  switch (issue.code) {
    case "invalid_type":
      if (input === undefined) return `${path} is required: give ${typeName(issue.expected)}`;
      if (issue.expected === "int" && typeof input === "number")
        return `${path} must be a whole number, not ${input}`;
      return `${path} must be ${typeName(issue.expected)}, not ${shown(input)}`;
    case "too_small":
      return `${path} ${bound("least", issue.origin, Number(issue.minimum), issue.inclusive, issue.exact)}${size(input)}`;
    case "too_big":
      return `${path} ${bound("most", issue.origin, Number(issue.maximum), issue.inclusive, issue.exact)}${size(input)}`;
    case "invalid_value": {
      const values = `${issue.values.length === 1 ? "" : "one of "}${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
      return input === undefined
        ? `${path} is required: give ${values}`
        : `${path} must be ${values}, not ${shown(input)}`;
    }
    case "invalid_format":
      return `${path} must be ${FORMATS[issue.format] ?? `a string of the form ${issue.format}`}, not ${shown(input)}`;
    case "not_multiple_of":
      return `${path} must be a multiple of ${String(issue.divisor)}, not ${shown(input)}`;
    case "unrecognized_keys":
      return `${path === "" ? "the inputs" : path} do not take ${issue.keys.join(", ")}: remove ${issue.keys.length === 1 ? "it" : "them"}`;
    case "invalid_key":
      return `${path} has a key that is not one it takes (${shown(input)}): give names of the declared form`;
    case "invalid_element":
      return `${path} holds a value that is not one it takes: ${shown(input)}`;
    case "invalid_union":
      return `${path} is none of the forms it takes: ${shown(input)}; see the input's documentation`;
    default:
      return `${path} is not valid: ${shown(input)}; see the input's documentation`;
  }
};

/** What a string format means to a program's author. */
const FORMATS: Record<string, string> = {
  url: "a URL such as https://app.example.com",
  email: "an email address such as ada@example.com",
  uuid: "a UUID",
  datetime: "an RFC 3339 timestamp such as 2025-01-31T12:00:00Z",
  date: "a date written YYYY-MM-DD",
  ipv4: "an IPv4 address",
  ipv6: "an IPv6 address",
  cidrv4: "an IPv4 CIDR block",
  cidrv6: "an IPv6 CIDR block",
  regex: "a string of the documented form",
};

/** `must be at least 1`, `must not be empty`, `must be 256 characters or fewer`, `must list at least 1`. */
function bound(
  side: "least" | "most",
  origin: string,
  limit: number,
  inclusive: boolean | undefined,
  exact: boolean | undefined,
): string {
  const unit = origin === "string" ? " characters" : origin === "array" || origin === "set" ? " items" : "";
  if (exact === true) return `must be exactly ${limit}${unit}`;
  if (origin === "string" && side === "least" && limit === 1) return "must not be empty";
  if (origin === "array" && side === "least" && limit === 1) return "must list at least one item";
  if (unit !== "") return `must be ${side === "least" ? "at least" : "at most"} ${limit}${unit}`;
  if (inclusive === false) return `must be ${side === "least" ? "more" : "less"} than ${limit}`;
  return `must be ${limit} or ${side === "least" ? "more" : "less"}`;
}

/** `, not 1.5` for a number; `, not 300` characters or items for a string or a list; nothing when empty. */
function size(input: unknown): string {
  if (typeof input === "string" || Array.isArray(input))
    return input.length === 0 ? "" : `, not ${input.length}`;
  return input === undefined ? "" : `, not ${shown(input)}`;
}

/** zod's type names as a program's author says them: `a string`, `a whole number`, `true or false`, `a list`. */
function typeName(expected: string): string {
  switch (expected) {
    case "int":
      return "a whole number";
    case "boolean":
      return "true or false";
    case "array":
      return "a list";
    case "record":
    case "object":
      return "an object";
    default:
      return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
  }
}

/** How a message shows the value given: `"abc"`, `5`, `a list`, `an object` (long strings cut). */
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? "an empty list" : "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return String(value);
}

/** `["endpoints", 1, "type"]` -> `endpoints[1].type`. */
export function propertyPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`))
    .join("");
}
