import type pg from "pg";
import { type Masking, readMasking, ruleName } from "../masking-functions";
import type { MaskingRuleRecord } from "../records";
import { quote } from "./databases";

// Static masking of an anonymized branch's databases, as PostgreSQL Anonymizer does it: one
// UPDATE per rule, of that column of that table in that database of the branch (its own copy).
// The embedded Postgres has no `anon` extension, so the functions rules name are written here in
// SQL and made as temporary functions of the masking session (`pg_temp`): nothing is added to the
// branch's schema. Values are derived from a seed (the branch's id), the row's position and its
// value, so one state masks the same way every time; a fake email or name is never a value the
// column held before the run. A run is all or nothing: every database's changes commit only once
// every rule has run, so a failed rule leaves the data as it was.

/** What a run did: the columns it masked, or why it stopped (naming the rule). */
export interface MaskingResult {
  maskedColumns: number;
  error?: string;
}

/** The words of a text, split at white space. */
const words = (text: string) => text.trim().split(/\s+/);

const FIRST_NAMES = words(`
  Ada Alan Amara Bruno Chen Dalia Emil Farah Goran Hana Ines Jonas Kaito Lena Malik Nadia Omar
  Priya Quinn Rosa Sven Tariq Uma Viktor Wen Ximena Yusuf Zoe
`);
const LAST_NAMES = words(`
  Abara Bergstrom Castillo Dubois Eriksen Fontaine Gallo Haddad Ivanova Jensen Kowalski Lindqvist
  Moreau Nakamura Okafor Petrov Quintero Rossi Santos Takahashi Umarov Varga Weber Xu Yilmaz
  Zielinski
`);
const DOMAINS = ["example.com", "example.net", "example.org"];

const array = (items: string[]) => `ARRAY[${items.map((i) => `'${i}'`).join(", ")}]`;

/**
 * The functions of one masking session. `k` is a row's key (seed, row position, value): md5 of
 * it picks names and characters. `clouddb_mask_source` holds the values a column had before a
 * fake-value rule, which no fake value may equal.
 */
const SESSION_SQL = `
SET LOCAL lock_timeout = '10s';
CREATE TEMP TABLE clouddb_mask_source (v text PRIMARY KEY) ON COMMIT DROP;
CREATE FUNCTION pg_temp.clouddb_number(k text) RETURNS bigint LANGUAGE sql IMMUTABLE
  AS $$ SELECT ('x' || substr(md5(k), 1, 15))::bit(60)::bigint $$;
CREATE FUNCTION pg_temp.clouddb_pick(k text, items text[]) RETURNS text LANGUAGE sql IMMUTABLE
  AS $$ SELECT items[1 + pg_temp.clouddb_number(k) % array_length(items, 1)] $$;
CREATE FUNCTION pg_temp.clouddb_fake_first_name(k text) RETURNS text LANGUAGE sql IMMUTABLE
  AS $$ SELECT pg_temp.clouddb_pick(k || ':first', ${array(FIRST_NAMES)}) $$;
CREATE FUNCTION pg_temp.clouddb_fake_last_name(k text) RETURNS text LANGUAGE sql IMMUTABLE
  AS $$ SELECT pg_temp.clouddb_pick(k || ':last', ${array(LAST_NAMES)}) $$;
CREATE FUNCTION pg_temp.clouddb_fake_email(k text) RETURNS text LANGUAGE sql IMMUTABLE
  AS $$ SELECT lower(pg_temp.clouddb_fake_first_name(k)) || '.' || lower(pg_temp.clouddb_fake_last_name(k)) ||
    '.' || substr(md5(k || ':email'), 1, 8) || '@' || pg_temp.clouddb_pick(k || ':domain', ${array(DOMAINS)}) $$;
CREATE FUNCTION pg_temp.clouddb_fake(kind text, k text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  candidate text;
  salt int := 0;
BEGIN
  LOOP
    candidate := CASE kind
      WHEN 'email' THEN pg_temp.clouddb_fake_email(k || ':' || salt)
      WHEN 'first_name' THEN pg_temp.clouddb_fake_first_name(k || ':' || salt)
      ELSE pg_temp.clouddb_fake_last_name(k || ':' || salt) END;
    -- A column may hold most of the names: past 64 tries a name gets a suffix, so one is found.
    IF salt >= 64 THEN candidate := candidate || '-' || substr(md5(k || ':' || salt), 1, 6); END IF;
    EXIT WHEN NOT EXISTS (SELECT 1 FROM pg_temp.clouddb_mask_source WHERE v = candidate);
    salt := salt + 1;
  END LOOP;
  RETURN candidate;
END $$;
CREATE FUNCTION pg_temp.clouddb_partial(ov text, prefix int, padding text, suffix int) RETURNS text
  LANGUAGE sql IMMUTABLE
  AS $$ SELECT substring(ov FROM 1 FOR prefix) || padding ||
    substring(ov FROM (length(ov) - suffix + 1) FOR suffix) $$;
CREATE FUNCTION pg_temp.clouddb_partial_email(ov text) RETURNS text LANGUAGE sql IMMUTABLE
  AS $$ SELECT substring(regexp_replace(ov, '@.*', '') FROM 1 FOR 2) || '******' || '@' ||
    substring(regexp_replace(ov, '.*@', '') FROM 1 FOR 2) || '******' || '.' ||
    regexp_replace(ov, '.*\\.', '') $$;
CREATE FUNCTION pg_temp.clouddb_random_string(k text, n int) RETURNS text LANGUAGE sql IMMUTABLE
  AS $$ SELECT coalesce(string_agg(substr('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
    1 + (pg_temp.clouddb_number(k || ':' || i) % 36)::int, 1), '' ORDER BY i), '')
    FROM generate_series(1, n) AS i $$;
CREATE FUNCTION pg_temp.clouddb_random_int(k text, low bigint, high bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE
  AS $$ SELECT low + pg_temp.clouddb_number(k || ':int') % (high - low + 1) $$;
CREATE FUNCTION pg_temp.clouddb_hash(salt text, v text) RETURNS text LANGUAGE sql IMMUTABLE STRICT
  AS $$ SELECT encode(sha256(convert_to(salt || v, 'UTF8')), 'hex') $$;
`;

/** The SQL value a rule sets its column (`column`, as SQL) to, its parameters added to `values`. */
function maskedValue(masking: Masking, column: string, seed: string, values: unknown[]): string {
  const param = (value: unknown, type: string) => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  if (masking.kind === "null") return "NULL";
  if (masking.kind === "value") return param(masking.value, "text");
  const key = () => `(${param(seed, "text")} || ':' || ctid::text || ':' || coalesce(${column}::text, ''))`;
  const arg = (i: number) => {
    const a = masking.args[i];
    if (a === undefined) throw new Error(`missing argument ${i + 1}`);
    if (a.kind === "column") return `${quote(a.name)}::text`;
    return a.kind === "integer" ? param(a.value, "bigint") : param(a.value, "text");
  };
  switch (masking.name) {
    case "fake_email":
    case "fake_first_name":
    case "fake_last_name":
      return `pg_temp.clouddb_fake(${param(masking.name.slice("fake_".length), "text")}, ${key()})`;
    case "partial":
      return `pg_temp.clouddb_partial(${arg(0)}, ${arg(1)}::int, ${arg(2)}, ${arg(3)}::int)`;
    case "partial_email":
      return `pg_temp.clouddb_partial_email(${arg(0)})`;
    case "random_string":
      return `pg_temp.clouddb_random_string(${key()}, ${arg(0)}::int)`;
    case "random_int_between":
      return `pg_temp.clouddb_random_int(${key()}, ${arg(0)}, ${arg(1)})`;
    case "hash":
      return `pg_temp.clouddb_hash(${param(seed, "text")}, ${arg(0)})`;
  }
}

/** The column's type as SQL (`character varying(80)`), or why the rule's table or column is missing. */
async function columnType(client: pg.Client, rule: MaskingRuleRecord): Promise<string> {
  const where = `${rule.schema_name}.${rule.table_name}`;
  const { rows: tables } = await client.query(
    "SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace " +
      "WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r', 'p')",
    [rule.schema_name, rule.table_name],
  );
  if (tables.length === 0) throw new Error(`table ${where} does not exist in database ${rule.database_name}`);
  const { rows } = await client.query<{ type: string }>(
    "SELECT format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a " +
      "JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace " +
      "WHERE n.nspname = $1 AND c.relname = $2 AND a.attname = $3 AND a.attnum > 0 AND NOT a.attisdropped",
    [rule.schema_name, rule.table_name, rule.column_name],
  );
  const type = rows[0]?.type;
  if (type === undefined) throw new Error(`column ${rule.column_name} does not exist in table ${where}`);
  return type;
}

/** Applies one rule in a masking session: the column's values noted for a fake one to avoid, then the UPDATE. */
async function applyRule(
  client: pg.Client,
  rule: MaskingRuleRecord,
  masking: Masking,
  seed: string,
): Promise<void> {
  const type = await columnType(client, rule);
  const table = `${quote(rule.schema_name)}.${quote(rule.table_name)}`;
  const column = quote(rule.column_name);
  if (masking.kind === "call" && masking.name.startsWith("fake_")) {
    await client.query("TRUNCATE pg_temp.clouddb_mask_source");
    await client.query(
      `INSERT INTO pg_temp.clouddb_mask_source SELECT DISTINCT ${column}::text FROM ${table} WHERE ${column} IS NOT NULL`,
    );
  }
  const values: unknown[] = [];
  const value = maskedValue(masking, column, seed, values);
  await client.query(`UPDATE ${table} SET ${column} = CAST(${value} AS ${type})`, values);
}

/**
 * Masks a branch's databases (`databases`: physical name by database name) by `rules`, in their
 * order, with values derived from `seed`. Never rejects for a rule: a function it does not
 * implement, a database, table or column that is missing, or a statement Postgres refuses ends
 * the run with an error naming the rule, and no database is changed.
 */
export async function maskDatabases(
  connect: (physical: string) => Promise<pg.Client>,
  databases: Map<string, string>,
  rules: MaskingRuleRecord[],
  seed: string,
): Promise<MaskingResult> {
  const steps: { rule: MaskingRuleRecord; index: number; masking: Masking; physical: string }[] = [];
  // Every rule is read before any row changes, so a typo fails the run at once.
  for (const [index, rule] of rules.entries()) {
    const physical = databases.get(rule.database_name);
    try {
      const masking = readMasking(rule);
      if (physical === undefined) throw new Error(`the branch has no database ${rule.database_name}`);
      steps.push({ rule, index, masking, physical });
    } catch (error) {
      return { maskedColumns: 0, error: `${ruleName(rule, index)}: ${(error as Error).message}` };
    }
  }
  const sessions = new Map<string, pg.Client>();
  try {
    for (const { physical } of steps) {
      if (sessions.has(physical)) continue;
      const client = await connect(physical);
      sessions.set(physical, client);
      await client.query("BEGIN");
      await client.query(SESSION_SQL);
    }
    for (const step of steps) {
      try {
        await applyRule(sessions.get(step.physical) as pg.Client, step.rule, step.masking, seed);
      } catch (error) {
        for (const client of sessions.values()) await client.query("ROLLBACK").catch(() => undefined);
        return { maskedColumns: 0, error: `${ruleName(step.rule, step.index)}: ${(error as Error).message}` };
      }
    }
    for (const client of sessions.values()) await client.query("COMMIT");
    const columns = new Set(
      steps.map(({ rule: r }) =>
        JSON.stringify([r.database_name, r.schema_name, r.table_name, r.column_name]),
      ),
    );
    return { maskedColumns: columns.size };
  } finally {
    for (const client of sessions.values()) await client.end().catch(() => undefined);
  }
}
