import type pg from "pg";
import { type Json, paramText, textToJson } from "./pg-text";

// Running SQL over HTTP's statements on a Postgres connection, and their results as the service
// writes them (docs/api-rules.md §15): per statement `{rowAsArray, fields, rows, command, rowCount}`,
// a batch in one transaction with the requested options, rolled back when a statement fails.

/** One statement of a request body. */
export interface Statement {
  query: string;
  params: unknown[];
  /** Rows as lists instead of objects; when absent, the request's `Neon-Array-Mode`. */
  arrayMode?: boolean | undefined;
}

/** How a request wants its results and its batch's transaction. */
export interface OutputOptions {
  /** Values as Postgres's text (`Neon-Raw-Text-Output: true`), else converted to JSON by type. */
  raw: boolean;
  /** `Neon-Array-Mode: true`: rows as lists unless a statement says otherwise. */
  arrayMode: boolean;
}

/** A batch's transaction, from the `Neon-Batch-*` headers. */
export interface TransactionOptions {
  isolationLevel?: string | undefined;
  readOnly: boolean;
  deferrable: boolean;
}

/** The isolation levels the `Neon-Batch-Isolation-Level` header names, as SQL. */
export const ISOLATION_LEVELS: ReadonlyMap<string, string> = new Map([
  ["ReadUncommitted", "READ UNCOMMITTED"],
  ["ReadCommitted", "READ COMMITTED"],
  ["RepeatableRead", "REPEATABLE READ"],
  ["Serializable", "SERIALIZABLE"],
]);

/** A result column, as `pg` and the service describe it. */
interface Field {
  name: string;
  dataTypeID: number;
  tableID: number;
  columnID: number;
  dataTypeSize: number;
  dataTypeModifier: number;
  format: "text";
}

/** One statement's result. */
export interface StatementResult {
  rowAsArray: boolean;
  fields: Field[];
  rows: Json[];
  command: string;
  rowCount: number | null;
}

/** Every value as Postgres sent it, text or NULL: conversion is the caller's. */
const AS_TEXT: pg.CustomTypesConfig = {
  getTypeParser: (() => (value: string) => value) as pg.CustomTypesConfig["getTypeParser"],
};

/**
 * Runs one statement with the extended protocol, as the service does (so one statement per query,
 * parameters as `$1`...); throws Postgres's error.
 */
export async function runStatement(
  client: pg.Client,
  statement: Statement,
  output: OutputOptions,
): Promise<StatementResult> {
  const config: pg.QueryArrayConfig & { queryMode: "extended" } = {
    text: statement.query,
    values: statement.params.map(paramText),
    rowMode: "array",
    types: AS_TEXT,
    queryMode: "extended",
  };
  const result = await client.query<(string | null)[]>(config);
  const fields: Field[] = result.fields.map((f) => ({
    name: f.name,
    dataTypeID: f.dataTypeID,
    tableID: f.tableID,
    columnID: f.columnID,
    dataTypeSize: f.dataTypeSize,
    dataTypeModifier: f.dataTypeModifier,
    format: "text",
  }));
  const arrays = output.raw ? new Map<number, number>() : await arrayElements(client, fields);
  const asArray = statement.arrayMode ?? output.arrayMode;
  const rows = result.rows.map((row) => {
    const values = row.map((text, i): Json => {
      if (text === null || output.raw) return text;
      return textToJson(text, fields[i]?.dataTypeID ?? 0, arrays);
    });
    return asArray ? values : Object.fromEntries(fields.map((f, i) => [f.name, values[i] ?? null]));
  });
  return {
    rowAsArray: asArray,
    fields,
    rows,
    command: result.command ?? "",
    rowCount: result.rowCount ?? null,
  };
}

/** The element type of each array type among the columns' types, from Postgres's catalog. */
async function arrayElements(client: pg.Client, fields: Field[]): Promise<Map<number, number>> {
  const oids = [...new Set(fields.map((f) => f.dataTypeID))];
  if (oids.length === 0) return new Map();
  const { rows } = await client.query<{ oid: string; elem: string }>(
    "SELECT oid::int8 AS oid, typelem::int8 AS elem FROM pg_type WHERE typcategory = 'A' AND oid = ANY($1::oid[])",
    [oids],
  );
  return new Map(rows.map((r) => [Number(r.oid), Number(r.elem)]));
}

/** Runs `statements` in one transaction; rolls it back and throws the first statement's error. */
export async function runBatch(
  client: pg.Client,
  statements: Statement[],
  output: OutputOptions,
  transaction: TransactionOptions,
): Promise<StatementResult[]> {
  const modes: string[] = [];
  const level =
    transaction.isolationLevel === undefined ? undefined : ISOLATION_LEVELS.get(transaction.isolationLevel);
  if (level !== undefined) modes.push(`ISOLATION LEVEL ${level}`);
  if (transaction.readOnly) modes.push("READ ONLY");
  if (transaction.deferrable) modes.push("DEFERRABLE");
  await client.query(`BEGIN${modes.length > 0 ? ` ${modes.join(", ")}` : ""}`);
  const results: StatementResult[] = [];
  try {
    for (const statement of statements) results.push(await runStatement(client, statement, output));
  } catch (error) {
    // A connection the rollback cannot end its transaction on is not pooled again.
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
  await client.query("COMMIT");
  return results;
}
