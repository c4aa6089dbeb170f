// SQL on the emulator's real Postgres, as an app would run it with a connection string the
// provider output.
import { Client } from "pg";

/** Runs `statements` in order on a fresh connection to `uri`; returns the last one's rows. Throws Postgres's error. */
export async function query<T>(uri: string, ...statements: string[]): Promise<T[]> {
  const db = new Client({ connectionString: uri });
  await db.connect();
  try {
    let rows: T[] = [];
    for (const statement of statements) rows = (await db.query(statement)).rows as T[];
    return rows;
  } finally {
    await db.end();
  }
}
