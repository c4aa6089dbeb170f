import type { MaskingRuleRecord } from "./records";

// The masking a rule asks for, read from its text: `masking_value` (a literal), `NULL`, or a call
// of one of the PostgreSQL Anonymizer functions the emulator implements, its arguments checked.
// Reading the text into this form (and never pasting it into SQL) is what lets the data plane
// run a user's rule as an UPDATE safely (data-plane/masking.ts).

/** An argument of a masking function: a column of the rule's table, an integer, or a text literal. */
export type MaskingArgument =
  | { kind: "column"; name: string }
  | { kind: "integer"; value: number }
  | { kind: "text"; value: string };

/** What a rule sets its column to. */
export type Masking =
  | { kind: "value"; value: string }
  | { kind: "null" }
  | { kind: "call"; name: MaskingFunction; args: MaskingArgument[] };

/** The longest `anon.random_string` the emulator makes: a value per row, so a typo does not fill the disk. */
const MAX_RANDOM_STRING = 10_000;

/** The kinds of argument each implemented function takes, in order. */
const SIGNATURES = {
  fake_email: [],
  fake_first_name: [],
  fake_last_name: [],
  partial: ["column", "integer", "text", "integer"],
  partial_email: ["column"],
  random_string: ["integer"],
  random_int_between: ["integer", "integer"],
  hash: ["column"],
} as const satisfies Record<string, readonly MaskingArgument["kind"][]>;

/** A PostgreSQL Anonymizer function the emulator implements. */
export type MaskingFunction = keyof typeof SIGNATURES;

const ARGUMENT_NAMES: Record<MaskingFunction, string> = {
  fake_email: "",
  fake_first_name: "",
  fake_last_name: "",
  partial: "column, prefix, padding, suffix",
  partial_email: "column",
  random_string: "length",
  random_int_between: "low, high",
  hash: "column",
};

/** The implemented functions as a user writes them, for messages. */
export const IMPLEMENTED = (Object.keys(SIGNATURES) as MaskingFunction[])
  .map((name) => `anon.${name}(${ARGUMENT_NAMES[name]})`)
  .join(", ");

/** How a rule is named in messages: its place in the list and the column it masks. */
export function ruleName(rule: MaskingRuleRecord, index: number): string {
  return `masking rule ${index + 1} (${rule.database_name}.${rule.schema_name}.${rule.table_name}.${rule.column_name})`;
}

/** Why a rule cannot be stored, or undefined: it must give one of a function and a value. */
export function ruleShapeProblem(rule: MaskingRuleRecord): string | undefined {
  const fn = rule.masking_function;
  if (fn !== undefined && rule.masking_value !== undefined) {
    return "gives both masking_function and masking_value: give one";
  }
  if ((fn === undefined || fn.trim() === "") && rule.masking_value === undefined) {
    return "gives neither masking_function nor masking_value";
  }
  return undefined;
}

/** One token of a function call's text. */
type Token =
  | { kind: "word"; text: string }
  | { kind: "integer"; value: number }
  | { kind: "text"; value: string }
  | { kind: "mark"; text: "(" | ")" | "," | "." };

const TOKEN = /\s*(?:("(?:[^"]|"")+")|([A-Za-z_][A-Za-z0-9_$]*)|(-?\d+)|('(?:[^']|'')*')|([(),.]))/y;

function tokens(text: string): Token[] {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (text.slice(at).trim() !== "") {
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(text);
    if (m === null) throw new Error(`cannot read ${JSON.stringify(text.slice(at).trim())}`);
    at = TOKEN.lastIndex;
    const [, quoted, word, integer, literal, mark] = m;
    if (quoted !== undefined) out.push({ kind: "word", text: quoted.slice(1, -1).replaceAll('""', '"') });
    else if (word !== undefined) out.push({ kind: "word", text: word });
    else if (integer !== undefined) out.push({ kind: "integer", value: Number(integer) });
    else if (literal !== undefined)
      out.push({ kind: "text", value: literal.slice(1, -1).replaceAll("''", "'") });
    else out.push({ kind: "mark", text: mark as "(" | ")" | "," | "." });
  }
  return out;
}

/**
 * What a rule sets its column to; throws an Error whose message says what is wrong with the
 * function (unknown, or its arguments), for the status message that names the rule.
 */
export function readMasking(rule: MaskingRuleRecord): Masking {
  if (rule.masking_value !== undefined) return { kind: "value", value: rule.masking_value };
  const text = (rule.masking_function ?? "").trim();
  if (/^null$/i.test(text)) return { kind: "null" };
  const unknown = () =>
    new Error(`unknown masking function ${text} (the emulator implements NULL, ${IMPLEMENTED})`);
  let list: Token[];
  try {
    list = tokens(text);
  } catch {
    throw unknown();
  }
  const [schema, dot, fn, open] = list;
  const last = list.at(-1);
  if (
    schema?.kind !== "word" ||
    schema.text !== "anon" ||
    dot?.kind !== "mark" ||
    dot.text !== "." ||
    fn?.kind !== "word" ||
    !Object.hasOwn(SIGNATURES, fn.text) ||
    open?.kind !== "mark" ||
    open.text !== "(" ||
    last?.kind !== "mark" ||
    last.text !== ")"
  ) {
    throw unknown();
  }
  const name = fn.text as MaskingFunction;
  const inner = list.slice(4, -1);
  const args: Token[] = [];
  for (let i = 0; i < inner.length; i++) {
    const token = inner[i] as Token;
    if (i % 2 === 1) {
      if (token.kind !== "mark" || token.text !== ",") throw unknown();
    } else if (token.kind === "mark") throw unknown();
    else args.push(token);
  }
  if (inner.length > 0 && inner.length % 2 === 0) throw unknown();
  const expected: readonly MaskingArgument["kind"][] = SIGNATURES[name];
  const usage = `anon.${name}(${ARGUMENT_NAMES[name]})`;
  if (args.length !== expected.length) {
    throw new Error(`${usage} takes ${expected.length} argument(s), got ${args.length} in ${text}`);
  }
  const read = args.map((token, i): MaskingArgument => {
    const want = expected[i] as MaskingArgument["kind"];
    if (want === "column" && token.kind === "word") return { kind: "column", name: token.text };
    if (want === "integer" && token.kind === "integer") return { kind: "integer", value: token.value };
    if (want === "text" && token.kind === "text") return { kind: "text", value: token.value };
    const what = want === "column" ? "a column name" : want === "integer" ? "an integer" : "a quoted text";
    throw new Error(`argument ${i + 1} of ${usage} must be ${what} in ${text}`);
  });
  const integers = read.flatMap((a) => (a.kind === "integer" ? [a.value] : []));
  if (integers.some((v) => !Number.isSafeInteger(v) || (name !== "random_int_between" && v < 0))) {
    throw new Error(
      `${usage} needs ${name === "random_int_between" ? "" : "non-negative "}integers in ${text}`,
    );
  }
  if (name === "random_string" && (integers[0] as number) > MAX_RANDOM_STRING) {
    throw new Error(`${usage} makes at most ${MAX_RANDOM_STRING} characters in ${text}`);
  }
  if (name === "random_int_between" && (integers[0] as number) > (integers[1] as number)) {
    throw new Error(`${usage} needs low <= high in ${text}`);
  }
  return { kind: "call", name, args: read };
}
