import assert from "node:assert/strict";
import { readMasking } from "../../emulator/masking-functions";

// A rule's masking function is read into calls the data plane writes as SQL itself: what a user
// types is never pasted into a statement, so anything but the implemented calls is refused.

const masking = (text: string) =>
  readMasking({
    database_name: "neondb",
    schema_name: "public",
    table_name: "users",
    column_name: "email",
    masking_function: text,
  });

describe("masking functions: what a rule's text may call", () => {
  it("reads the implemented calls with their arguments, a quoted column name included", () => {
    assert.deepEqual(masking("  anon.partial(\"Phone\"\"No\", 2, 'it''s', 0) "), {
      kind: "call",
      name: "partial",
      args: [
        { kind: "column", name: 'Phone"No' },
        { kind: "integer", value: 2 },
        { kind: "text", value: "it's" },
        { kind: "integer", value: 0 },
      ],
    });
    assert.deepEqual(masking("anon.random_int_between(-5, 5)").kind, "call");
    assert.deepEqual(masking("null"), { kind: "null" });
  });

  it("takes masking_value as the literal it is, whatever it holds", () => {
    assert.deepEqual(
      readMasking({
        database_name: "d",
        schema_name: "s",
        table_name: "t",
        column_name: "c",
        masking_value: "x'); DROP TABLE t; --",
      }),
      { kind: "value", value: "x'); DROP TABLE t; --" },
    );
  });

  it("refuses anything else, saying what is wrong", () => {
    const refusals: [string, RegExp][] = [
      ["anon.fake_email(); DROP TABLE users", /unknown masking function/],
      [
        "pg_sleep(10)",
        /unknown masking function pg_sleep\(10\) \(the emulator implements NULL, anon\.fake_email\(\)/,
      ],
      ["anon.constructor()", /unknown masking function/],
      ["anon.random_string(3,)", /unknown masking function/],
      [
        "anon.partial(email, 2)",
        /anon\.partial\(column, prefix, padding, suffix\) takes 4 argument\(s\), got 2/,
      ],
      ["anon.random_string('ten')", /argument 1 of anon\.random_string\(length\) must be an integer/],
      ["anon.hash(1)", /argument 1 of anon\.hash\(column\) must be a column name/],
      ["anon.random_int_between(9, 1)", /needs low <= high/],
      ["anon.random_string(100000)", /makes at most 10000 characters/],
      ["anon.partial(email, -1, 'x', 1)", /needs non-negative integers/],
    ];
    for (const [text, message] of refusals) assert.throws(() => masking(text), message, text);
  });
});
