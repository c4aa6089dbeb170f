import type pg from "pg";

// A database's schema as SQL, read from Postgres's catalog: the text `GET .../schema` answers and
// `compare_schema` diffs. The embedded Postgres ships no pg_dump, so the catalog's own functions
// (pg_get_functiondef, pg_get_constraintdef, pg_get_indexdef, pg_get_viewdef, pg_get_triggerdef,
// format_type, pg_get_expr) write each statement, in pg_dump's layout: one commented block per
// object, in dependency order (schemas, extensions, types, functions, sequences, tables, views,
// constraints, indexes, foreign keys, triggers), each kind sorted by schema and name, so two dumps
// of one schema are the same text. Owners are in the block comments; privileges are left out.
// An empty database (only `public`) dumps as the empty string.

/** One object of the dump: its block comment's fields and its statements. */
interface DumpedObject {
  name: string;
  type: string;
  schema: string;
  owner: string;
  sql: string;
}

/** Objects an extension brings are the extension's: `CREATE EXTENSION` makes them again. */
const NOT_EXTENSION_MEMBER = (catalog: string, oid: string) =>
  `NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = '${catalog}'::regclass AND d.objid = ${oid} AND d.deptype = 'e')`;

const USER_SCHEMA = (column: string) =>
  `${column} NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND ${column} NOT LIKE 'pg\\_temp\\_%' AND ${column} NOT LIKE 'pg\\_toast\\_temp\\_%'`;

/** The catalog queries, one per kind of object, in the order the dump prints them. */
const KINDS: readonly string[] = [
  // Schemas (public exists in every database).
  `SELECT n.nspname AS name, 'SCHEMA' AS type, '-' AS schema, pg_get_userbyid(n.nspowner) AS owner,
          format('CREATE SCHEMA %I;', n.nspname) AS sql
     FROM pg_namespace n
    WHERE n.nspname <> 'public' AND ${USER_SCHEMA("n.nspname")} AND ${NOT_EXTENSION_MEMBER("pg_namespace", "n.oid")}
    ORDER BY 1`,
  `SELECT e.extname AS name, 'EXTENSION' AS type, '-' AS schema, pg_get_userbyid(e.extowner) AS owner,
          format('CREATE EXTENSION IF NOT EXISTS %I WITH SCHEMA %I;', e.extname, n.nspname) AS sql
     FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname <> 'plpgsql'
    ORDER BY 1`,
  `SELECT t.typname AS name, 'TYPE' AS type, n.nspname AS schema, pg_get_userbyid(t.typowner) AS owner,
          format(E'CREATE TYPE %I.%I AS ENUM (\\n%s\\n);', n.nspname, t.typname,
                 (SELECT string_agg('    ' || quote_literal(e.enumlabel), E',\\n' ORDER BY e.enumsortorder)
                    FROM pg_enum e WHERE e.enumtypid = t.oid)) AS sql
     FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
    WHERE t.typtype = 'e' AND ${USER_SCHEMA("n.nspname")} AND ${NOT_EXTENSION_MEMBER("pg_type", "t.oid")}
    ORDER BY 3, 1`,
  `SELECT t.typname AS name, 'DOMAIN' AS type, n.nspname AS schema, pg_get_userbyid(t.typowner) AS owner,
          format('CREATE DOMAIN %I.%I AS %s%s%s%s;', n.nspname, t.typname, format_type(t.typbasetype, t.typtypmod),
                 CASE WHEN t.typdefault IS NULL THEN '' ELSE ' DEFAULT ' || t.typdefault END,
                 CASE WHEN t.typnotnull THEN ' NOT NULL' ELSE '' END,
                 coalesce((SELECT string_agg(E'\\n    CONSTRAINT ' || quote_ident(c.conname) || ' ' || pg_get_constraintdef(c.oid), '' ORDER BY c.conname)
                             FROM pg_constraint c WHERE c.contypid = t.oid), '')) AS sql
     FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
    WHERE t.typtype = 'd' AND ${USER_SCHEMA("n.nspname")} AND ${NOT_EXTENSION_MEMBER("pg_type", "t.oid")}
    ORDER BY 3, 1`,
  `SELECT format('%s(%s)', p.proname, pg_get_function_identity_arguments(p.oid)) AS name,
          CASE p.prokind WHEN 'p' THEN 'PROCEDURE' ELSE 'FUNCTION' END AS type,
          n.nspname AS schema, pg_get_userbyid(p.proowner) AS owner,
          rtrim(pg_get_functiondef(p.oid), E'\\n') || ';' AS sql
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE p.prokind IN ('f', 'p') AND ${USER_SCHEMA("n.nspname")} AND ${NOT_EXTENSION_MEMBER("pg_proc", "p.oid")}
    ORDER BY 3, 1`,
  // Sequences, except those of identity columns (the column's definition makes them).
  `SELECT c.relname AS name, 'SEQUENCE' AS type, n.nspname AS schema, pg_get_userbyid(c.relowner) AS owner,
          format(E'CREATE SEQUENCE %I.%I\\n    AS %s\\n    START WITH %s\\n    INCREMENT BY %s\\n    MINVALUE %s\\n    MAXVALUE %s\\n    CACHE %s%s;%s',
                 n.nspname, c.relname, format_type(s.seqtypid, NULL), s.seqstart, s.seqincrement, s.seqmin, s.seqmax, s.seqcache,
                 CASE WHEN s.seqcycle THEN E'\\n    CYCLE' ELSE '' END,
                 coalesce((SELECT format(E'\\n\\nALTER SEQUENCE %I.%I OWNED BY %I.%I.%I;', n.nspname, c.relname, tn.nspname, t.relname, a.attname)
                             FROM pg_depend d
                             JOIN pg_class t ON t.oid = d.refobjid
                             JOIN pg_namespace tn ON tn.oid = t.relnamespace
                             JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
                            WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'a'), '')) AS sql
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_sequence s ON s.seqrelid = c.oid
    WHERE c.relkind = 'S' AND ${USER_SCHEMA("n.nspname")} AND ${NOT_EXTENSION_MEMBER("pg_class", "c.oid")}
      AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'i')
    ORDER BY 3, 1`,
  `SELECT c.relname AS name, 'TABLE' AS type, n.nspname AS schema, pg_get_userbyid(c.relowner) AS owner,
          format(E'CREATE TABLE %I.%I (\\n%s\\n)%s;', n.nspname, c.relname,
                 coalesce((SELECT string_agg(format('    %I %s%s%s%s%s', a.attname, format_type(a.atttypid, a.atttypmod),
                            CASE WHEN a.attcollation <> 0 AND a.attcollation <> ty.typcollation
                                 THEN ' COLLATE ' || a.attcollation::regcollation::text ELSE '' END,
                            CASE WHEN a.attgenerated = 's' THEN ' GENERATED ALWAYS AS (' || pg_get_expr(ad.adbin, ad.adrelid) || ') STORED'
                                 WHEN ad.adbin IS NOT NULL THEN ' DEFAULT ' || pg_get_expr(ad.adbin, ad.adrelid) ELSE '' END,
                            CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END,
                            CASE a.attidentity WHEN 'a' THEN ' GENERATED ALWAYS AS IDENTITY'
                                               WHEN 'd' THEN ' GENERATED BY DEFAULT AS IDENTITY' ELSE '' END),
                            E',\\n' ORDER BY a.attnum)
                             FROM pg_attribute a
                             JOIN pg_type ty ON ty.oid = a.atttypid
                             LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
                            WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), ''),
                 CASE WHEN c.relkind = 'p' THEN ' PARTITION BY ' || pg_get_partkeydef(c.oid) ELSE '' END) AS sql
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p') AND ${USER_SCHEMA("n.nspname")} AND ${NOT_EXTENSION_MEMBER("pg_class", "c.oid")}
    ORDER BY 3, 1`,
  `SELECT c.relname AS name, CASE c.relkind WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'VIEW' END AS type,
          n.nspname AS schema, pg_get_userbyid(c.relowner) AS owner,
          format(E'CREATE %s %I.%I AS\\n%s', CASE c.relkind WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'VIEW' END,
                 n.nspname, c.relname, rtrim(pg_get_viewdef(c.oid, true), ';') || ';') AS sql
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('v', 'm') AND ${USER_SCHEMA("n.nspname")} AND ${NOT_EXTENSION_MEMBER("pg_class", "c.oid")}
    ORDER BY 3, 1`,
  // Constraints other than foreign keys, then indexes no constraint made, then foreign keys.
  `SELECT format('%s %s', t.relname, c.conname) AS name, 'CONSTRAINT' AS type, n.nspname AS schema,
          pg_get_userbyid(t.relowner) AS owner,
          format(E'ALTER TABLE ONLY %I.%I\\n    ADD CONSTRAINT %I %s;', n.nspname, t.relname, c.conname, pg_get_constraintdef(c.oid)) AS sql
     FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE c.contype IN ('p', 'u', 'c', 'x') AND ${USER_SCHEMA("n.nspname")} AND ${NOT_EXTENSION_MEMBER("pg_class", "t.oid")}
    ORDER BY 3, 1`,
  `SELECT i.relname AS name, 'INDEX' AS type, n.nspname AS schema, pg_get_userbyid(i.relowner) AS owner,
          pg_get_indexdef(x.indexrelid) || ';' AS sql
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
     JOIN pg_namespace n ON n.oid = i.relnamespace
    WHERE t.relkind IN ('r', 'p', 'm') AND ${USER_SCHEMA("n.nspname")} AND ${NOT_EXTENSION_MEMBER("pg_class", "t.oid")}
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid AND c.contype IN ('p', 'u', 'x'))
    ORDER BY 3, 1`,
  `SELECT format('%s %s', t.relname, c.conname) AS name, 'FK CONSTRAINT' AS type, n.nspname AS schema,
          pg_get_userbyid(t.relowner) AS owner,
          format(E'ALTER TABLE ONLY %I.%I\\n    ADD CONSTRAINT %I %s;', n.nspname, t.relname, c.conname, pg_get_constraintdef(c.oid)) AS sql
     FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE c.contype = 'f' AND ${USER_SCHEMA("n.nspname")} AND ${NOT_EXTENSION_MEMBER("pg_class", "t.oid")}
    ORDER BY 3, 1`,
  `SELECT format('%s %s', t.relname, g.tgname) AS name, 'TRIGGER' AS type, n.nspname AS schema,
          pg_get_userbyid(t.relowner) AS owner, pg_get_triggerdef(g.oid) || ';' AS sql
     FROM pg_trigger g JOIN pg_class t ON t.oid = g.tgrelid JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE NOT g.tgisinternal AND ${USER_SCHEMA("n.nspname")} AND ${NOT_EXTENSION_MEMBER("pg_class", "t.oid")}
    ORDER BY 3, 1`,
];

/** One object's block, as pg_dump writes it. */
function block(o: DumpedObject): string {
  return `--\n-- Name: ${o.name}; Type: ${o.type}; Schema: ${o.schema}; Owner: ${o.owner}\n--\n\n${o.sql}\n\n\n`;
}

/** The schema of the database `client` is connected to, as SQL; the empty string when it has no objects. */
export async function dumpSchema(client: pg.Client): Promise<string> {
  // One snapshot for every query, so the dump is of one moment.
  await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  try {
    // As pg_dump does: with an empty search path every name the catalog writes is qualified.
    await client.query("SET LOCAL search_path = ''");
    let text = "";
    for (const sql of KINDS) {
      const { rows } = await client.query<DumpedObject>(sql);
      for (const row of rows) text += block(row);
    }
    return text;
  } finally {
    await client.query("COMMIT");
  }
}
