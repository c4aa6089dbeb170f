// Postgres's text format and JSON, both ways, as SQL over HTTP converts them (docs/api-rules.md
// §15): parameters arrive as JSON values and Postgres takes text; results leave as text (what the
// serverless driver asks for) or, without `Neon-Raw-Text-Output: true`, as JSON values by column
// type. Written by hand because the rules are the service's own, a dozen lines each.

/** A JSON value as parsed from a request body. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A parameter (a JSON value of the request body) as Postgres takes it: text, or NULL. */
export function paramText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return arrayLiteral(value);
  return JSON.stringify(value);
}

/** A JSON array as a Postgres array literal: elements quoted as JSON strings, objects as their JSON text. */
function arrayLiteral(values: unknown[]): string {
  const element = (value: unknown): string => {
    if (value === null || value === undefined) return "NULL";
    if (Array.isArray(value)) return arrayLiteral(value);
    if (typeof value === "object") return JSON.stringify(JSON.stringify(value));
    return JSON.stringify(value);
  };
  return `{${values.map(element).join(",")}}`;
}

/** Type oids whose text becomes a JSON value other than a string. */
const BOOL = 16;
const INT2 = 21;
const INT4 = 23;
const FLOAT4 = 700;
const FLOAT8 = 701;
const JSON_OID = 114;
const JSONB = 3802;

/**
 * A column's text as a JSON value: booleans, 2- and 4-byte integers and finite floats as JSON
 * values, `json` and `jsonb` parsed, an array (its element type in `arrays`) as a list of its
 * elements so converted, anything else (8-byte integers, numerics, dates...) as the text itself.
 */
export function textToJson(text: string, oid: number, arrays: ReadonlyMap<number, number>): Json {
  const element = arrays.get(oid);
  if (element !== undefined) return parseArray(text, (item) => textToJson(item, element, arrays));
  switch (oid) {
    case BOOL:
      return text === "t";
    case INT2:
    case INT4:
      return Number.parseInt(text, 10);
    case FLOAT4:
    case FLOAT8: {
      const value = Number(text);
      // NaN and the infinities stay text: JSON has no number for them.
      return Number.isFinite(value) ? value : text;
    }
    case JSON_OID:
    case JSONB:
      return JSON.parse(text) as Json;
    default:
      return text;
  }
}

/**
 * The elements of an array's text form (`{1,2}`, `{{"a b",NULL},{c,d}}`, with optional bounds
 * `[0:1]={...}`), each converted by `convert`; nested arrays become nested lists.
 */
export function parseArray(text: string, convert: (item: string) => Json): Json[] {
  let at = 0;
  const fail = (): never => {
    throw new Error(`malformed array text: ${text}`);
  };
  const skipSpace = () => {
    while (/\s/.test(text[at] ?? "")) at++;
  };
  const list = (): Json[] => {
    if (text[at] !== "{") fail();
    at++;
    const items: Json[] = [];
    skipSpace();
    if (text[at] === "}") {
      at++;
      return items;
    }
    for (;;) {
      skipSpace();
      items.push(item());
      skipSpace();
      const next = text[at++];
      if (next === "}") return items;
      if (next !== ",") fail();
    }
  };
  const item = (): Json => {
    if (text[at] === "{") return list();
    if (text[at] === '"') {
      at++;
      let value = "";
      for (;;) {
        const c = text[at++];
        if (c === undefined) fail();
        if (c === '"') return convert(value);
        value += c === "\\" ? (text[at++] ?? fail()) : c;
      }
    }
    const start = at;
    while (at < text.length && text[at] !== "," && text[at] !== "}") at++;
    const bare = text.slice(start, at).trim();
    return bare === "NULL" ? null : convert(bare);
  };
  if (text.startsWith("[")) {
    const equals = text.indexOf("=");
    if (equals < 0) fail();
    at = equals + 1;
  }
  skipSpace();
  const result = list();
  skipSpace();
  if (at !== text.length) fail();
  return result;
}
