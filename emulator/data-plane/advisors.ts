import type { AdvisorIssue } from "@neon/sdk/raw";
import type pg from "pg";
import { stableUuid } from "../ids";

// The advisor's checks, run on a database's catalog (docs/api-rules.md §19): each is one query
// whose rows are the objects it finds, and what an issue says of them. The schemas Postgres and
// its extensions own are left out, as the service's advisor leaves them out.

const REMEDIATION = "https://neon.com/docs/data-api/database-advisor";

/** Schemas no user object lives in. */
const SYSTEM_SCHEMAS = "('pg_catalog', 'information_schema', 'pg_toast')";

/** The tables (plain and partitioned) of table `c` in schema `n` that `condition` holds for, as `schema`, `name`. */
const tablesWhere = (condition: string): string =>
  `SELECT n.nspname AS schema, c.relname AS name FROM pg_class c
   JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relkind IN ('r', 'p') AND ${condition}
   ORDER BY 1, 2`;

interface Check {
  name: string;
  title: string;
  level: "ERROR" | "WARN" | "INFO";
  facing: "EXTERNAL" | "INTERNAL";
  categories: AdvisorIssue["categories"];
  description: string;
  /** Rows with `schema`, `name` and whatever `detail` reads. */
  sql: string;
  detail: (row: Record<string, string>) => string;
}

/** The checks the emulator runs, in the order their issues are listed. */
export const ADVISOR_CHECKS: readonly Check[] = [
  {
    name: "rls_disabled_in_public",
    title: "RLS Disabled in Public",
    level: "ERROR",
    facing: "EXTERNAL",
    categories: ["SECURITY"],
    description:
      "Detects tables in the public schema without row level security: the Data API exposes every row of them to any authenticated caller.",
    sql: tablesWhere("n.nspname = 'public' AND NOT c.relrowsecurity"),
    detail: (r) => `Table \`${r.schema}.${r.name}\` is public, but RLS has not been enabled.`,
  },
  {
    name: "no_primary_key",
    title: "No Primary Key",
    level: "INFO",
    facing: "INTERNAL",
    categories: ["PERFORMANCE"],
    description:
      "Detects tables without a primary key: rows cannot be identified reliably, which slows updates and logical replication.",
    sql: tablesWhere(
      `n.nspname NOT IN ${SYSTEM_SCHEMAS}
       AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conrelid = c.oid AND k.contype = 'p')`,
    ),
    detail: (r) => `Table \`${r.schema}.${r.name}\` does not have a primary key.`,
  },
  {
    name: "duplicate_index",
    title: "Duplicate Index",
    level: "WARN",
    facing: "INTERNAL",
    categories: ["PERFORMANCE"],
    description:
      "Detects indexes identical to another index of the same table: each write maintains both while queries use one.",
    sql: `SELECT n.nspname AS schema, t.relname AS name,
                 string_agg(i.relname, ', ' ORDER BY i.relname) AS indexes
          FROM pg_index x
          JOIN pg_class i ON i.oid = x.indexrelid
          JOIN pg_class t ON t.oid = x.indrelid
          JOIN pg_namespace n ON n.oid = t.relnamespace
          WHERE n.nspname NOT IN ${SYSTEM_SCHEMAS}
          GROUP BY n.nspname, t.relname, x.indrelid, x.indkey::text, x.indclass::text,
                   coalesce(pg_get_expr(x.indexprs, x.indrelid), ''), coalesce(pg_get_expr(x.indpred, x.indrelid), '')
          HAVING count(*) > 1
          ORDER BY 1, 2, 3`,
    detail: (r) =>
      `Table \`${r.schema}.${r.name}\` has identical indexes {${r.indexes}}. Drop all but one of them.`,
  },
  {
    name: "unindexed_foreign_keys",
    title: "Unindexed Foreign Keys",
    level: "INFO",
    facing: "INTERNAL",
    categories: ["PERFORMANCE"],
    description:
      "Detects foreign keys no index covers: deleting or updating a referenced row then scans the whole referencing table.",
    sql: `SELECT n.nspname AS schema, c.relname AS name, k.conname AS constraint
          FROM pg_constraint k
          JOIN pg_class c ON c.oid = k.conrelid
          JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE k.contype = 'f' AND n.nspname NOT IN ${SYSTEM_SCHEMAS}
            AND NOT EXISTS (
              SELECT 1 FROM pg_index x WHERE x.indrelid = k.conrelid
                AND (x.indkey::int2[])[0:cardinality(k.conkey) - 1] @> k.conkey
                AND (x.indkey::int2[])[0:cardinality(k.conkey) - 1] <@ k.conkey)
          ORDER BY 1, 2, 3`,
    detail: (r) =>
      `Table \`${r.schema}.${r.name}\` has a foreign key \`${r.constraint}\` without a covering index.`,
  },
];

/** The issues every check finds in the database `client` is connected to, named `database` in their metadata. */
export async function advisorIssues(client: pg.Client, database: string): Promise<AdvisorIssue[]> {
  const issues: AdvisorIssue[] = [];
  for (const check of ADVISOR_CHECKS) {
    const { rows } = await client.query<Record<string, string>>(check.sql);
    for (const row of rows) {
      const metadata = { database, ...row, type: "table" };
      issues.push({
        name: check.name,
        title: check.title,
        level: check.level,
        facing: check.facing,
        categories: check.categories,
        description: check.description,
        detail: check.detail(row),
        remediation: REMEDIATION,
        metadata,
        cache_key: `${check.name}_${stableUuid(JSON.stringify(metadata))}`,
      });
    }
  }
  return issues;
}
