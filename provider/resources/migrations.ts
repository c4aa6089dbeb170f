import type { Client as PgClient } from "pg";
import { z } from "zod";
import { UsageError } from "../client/errors";
import { ProjectOfBranchInput, requiredId, sqlNameInput, TimeoutsInput } from "./inputs/common";
import {
  editedMigration,
  type MigrationSource,
  migrationFilesIn,
  readMigrations,
} from "./inputs/migrationFolder";
import { declaredInputs, isUnknown } from "./lifecycle/check";
import { defineResource, type Same } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import {
  type AppliedMigration,
  MIGRATIONS,
  type MigrationFile,
  type MigrationsInputs,
  type MigrationsOutputs,
} from "./public/migrations";
import { wasRestoredHere } from "./restores";
import {
  asOwner,
  databaseLabel,
  ident,
  inTransaction,
  literal,
  withOwnerSession,
  withSession,
} from "./sqlSession";

export type { MigrationsInputs, MigrationsOutputs } from "./public/migrations";

// ---------------------------------------------------------------- inputs

/** The table that records the applied migrations when the inputs name none. */
export const DEFAULT_TABLE = "clouddb_migrations";

/** Inputs as the provider sees them. */
export const MigrationsInputsSchema = z.object({
  projectId: ProjectOfBranchInput,
  branchId: requiredId("branchId", "the branch the database is on (br-...)"),
  databaseName: requiredId("databaseName", "the database the migrations run in"),
  ownerName: requiredId("ownerName", "the role that runs the migrations (the database's owner, say)"),
  folder: requiredId("folder", 'the folder of the .sql migration files, e.g. "migrations"'),
  table: sqlNameInput(
    "table",
    `the table that records the applied migrations; omit it for ${DEFAULT_TABLE}`,
  ).optional(),
  timeouts: TimeoutsInput,
});

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof MigrationsInputsSchema>, MigrationsInputs>;

/** The folder's files as `check` derived them into the inputs, else read again; undefined when unreadable. */
function filesOf(news: MigrationsInputs): MigrationFile[] | undefined {
  const derived = (news as { files?: unknown }).files;
  if (derived !== undefined) return migrationFilesIn(derived);
  if (isUnknown(news.folder)) return undefined;
  const read = readMigrations(news.folder);
  return read.problem === undefined ? read.files.map(({ name, sha256 }) => ({ name, sha256 })) : undefined;
}

/** Whether two lists hold the same files, in the same order, with the same bytes. */
const sameFiles = (a: readonly MigrationFile[] | undefined, b: readonly MigrationFile[]) =>
  a !== undefined &&
  a.length === b.length &&
  a.every((file, i) => file.name === b[i]?.name && file.sha256 === b[i]?.sha256);

/** Whether the state's files are the folder's, all of them applied at the last read. */
function upToDate(news: MigrationsInputs, olds: MigrationsOutputs): boolean {
  return sameFiles(filesOf(news), olds.files ?? []) && (olds.pending ?? []).length === 0;
}

// ---------------------------------------------------------------- the table

/** `public."clouddb_migrations"`: the table, qualified and quoted. */
const tableOf = (props: Pick<MigrationsInputs, "table">) => `public.${ident(props.table ?? DEFAULT_TABLE)}`;

/** The table's rows by file name; none when the table does not exist (dropped, or undone by a reset). */
async function appliedRows(db: PgClient, props: MigrationsInputs): Promise<Map<string, AppliedMigration>> {
  const table = tableOf(props);
  const { rows: found } = await db.query<{ present: boolean }>(
    "SELECT to_regclass($1) IS NOT NULL AS present",
    [table],
  );
  if (found[0]?.present !== true) return new Map();
  const { rows } = await db.query<{ name: string; sha256: string; applied_at: Date }>(
    `SELECT name, sha256, applied_at FROM ${table}`,
  );
  return new Map(
    rows.map((r) => [r.name, { name: r.name, sha256: r.sha256, appliedAt: r.applied_at.toISOString() }]),
  );
}

/** The files of `files` the table records, with its row, and those it lacks. */
function progressOf(
  files: readonly MigrationFile[],
  rows: Map<string, AppliedMigration>,
): Pick<MigrationsOutputs, "applied" | "pending"> {
  return {
    applied: files.flatMap((file) => rows.get(file.name) ?? []),
    pending: files.filter((file) => !rows.has(file.name)).map((file) => file.name),
  };
}

/**
 * Runs each file the table lacks, in order, in a transaction of its own that also records it: a
 * failure rolls back that file alone and fails naming it, the files before it staying applied and
 * recorded (the table is what the next step reads). An applied file edited since runs nothing.
 */
async function runPending(db: PgClient, props: MigrationsInputs, files: readonly MigrationSource[]) {
  const table = tableOf(props);
  // Two runs on one database take turns: the second reads the first's rows and runs nothing twice.
  await db.query("SELECT pg_advisory_lock(hashtext($1))", [table]);
  await db.query(
    `CREATE TABLE IF NOT EXISTS ${table} (name text PRIMARY KEY, sha256 text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  const before = await appliedRows(db, props);
  const edited = editedMigration([...before.values()], files);
  if (edited !== undefined) throw new UsageError("InvalidArgument", edited);
  for (const file of files.filter((f) => !before.has(f.name))) {
    const record = `INSERT INTO ${table} (name, sha256) VALUES (${literal(file.name)}, ${literal(file.sha256)})`;
    await inTransaction(db, [file.sql, record], `migration ${file.name} in ${databaseLabel(props)}`).catch(
      (err: Error) => {
        throw new Error(
          `${err.message}. It was rolled back; the migrations before it stay applied and recorded in ${table}: ` +
            `fix ${file.name} and run \`pulumi up\` again`,
        );
      },
    );
  }
  return appliedRows(db, props);
}

// ---------------------------------------------------------------- the kind

/** Applies the folder `inputs` name on a session of the owner, and the state that records it. */
async function migrated(
  client: Parameters<typeof withSession>[0],
  inputs: MigrationsInputs,
): Promise<MigrationsOutputs> {
  const read = readMigrations(inputs.folder);
  if (read.problem !== undefined) throw new UsageError("InvalidArgument", read.problem);
  const rows = await withOwnerSession(client, inputs, (db) => runPending(db, inputs, read.files));
  const files = read.files.map(({ name, sha256 }) => ({ name, sha256 }));
  return {
    ...declaredInputs<MigrationsInputs>(MigrationsInputsSchema, inputs),
    table: inputs.table ?? DEFAULT_TABLE,
    files,
    ...progressOf(files, rows),
  };
}

/** The SQL migrations of a folder, run over SQL in order and recorded in a table of the database. */
export const migrationsDefinition = defineResource<MigrationsInputs, MigrationsOutputs>(MIGRATIONS, {
  inputs: MigrationsInputsSchema,
  id: (outs) => `${outs.projectId}/${outs.branchId}/${outs.databaseName}/${outs.table}`,
  // New or changed files, or files the table lost (deleted outside, undone by a reset), show as a change of `folder`.
  same: {
    folder: (news, olds, all) => news === olds && upToDate(all.news, all.olds),
    table: (news, olds) => (news ?? DEFAULT_TABLE) === (olds ?? DEFAULT_TABLE),
  },
  details: {
    folder: (olds, news) => ({
      ...(news.folder === olds.folder ? {} : { folder: "update" }),
      ...(upToDate(news, olds) ? {} : { files: "update" }),
    }),
  },
  // After this run reset or restored the branch, its table is the source's: run what it lacks.
  stale: (olds) => wasRestoredHere(olds.branchId),
  /**
   * What the preview can tell from the folder: it exists and holds .sql files, and no file the
   * state records as applied was edited since; the files and their sha256 join the inputs as
   * `files`, so a preview's diff of the inputs shows a new or changed file.
   */
  inspect(inputs, olds) {
    if (isUnknown(inputs.folder)) return { failures: [] };
    const read = readMigrations(inputs.folder);
    if (read.problem !== undefined) return { failures: [{ property: "folder", reason: read.problem }] };
    const edited = editedMigration(migrationFilesIn((olds as { files?: unknown }).files), read.files);
    if (edited !== undefined) return { failures: [{ property: "folder", reason: edited }] };
    return { failures: [], derived: { files: read.files.map(({ name, sha256 }) => ({ name, sha256 })) } };
  },
  /** Refresh's inputs record as `files` what the table holds, so the next check compares with it. */
  inputsOf: (outs) => ({
    ...declaredInputs<MigrationsInputs>(MigrationsInputsSchema, outs),
    files: (outs.applied ?? []).map(({ name, sha256 }) => ({ name, sha256 })),
  }),
  /** Names the files the next step runs: those the state does not record as applied. */
  review(olds, news) {
    const ran = new Set((olds.applied ?? []).map((file) => file.name));
    const next = (filesOf(news) ?? []).filter((file) => !ran.has(file.name)).map((file) => file.name);
    return next.length === 0 ? undefined : `runs ${next.join(", ")}`;
  },
  noteAtCreate: (inputs) =>
    isUnknown(inputs.databaseName)
      ? undefined
      : `migrations are never undone: destroying or replacing this resource leaves what they made, and the table ` +
        `${inputs.table ?? DEFAULT_TABLE} that records them, in database ${inputs.databaseName}`,

  /** Makes the table when missing and runs every file it lacks; a killed run's files are found there. */
  create: ({ client }, inputs) => migrated(client, inputs),

  /** The table's record of the state's files; gone with the branch, database or owner. */
  async read({ client }, _id, props) {
    if (props === undefined) return undefined;
    const rows = await withSession(client, asOwner(props), (db) => appliedRows(db, props));
    if (rows === undefined) return undefined;
    return { ...props, ...progressOf(props.files ?? [], rows) };
  },

  /** Runs the folder's files the table lacks: new files, and those a reset or a delete outside undid. */
  update: ({ client }, _id, _outs, _olds, news) => migrated(client, news),

  /** Undoes nothing: what the migrations made and the table that records them stay in the database. */
  async remove() {},
});

export const { configure, check, diff, create, read, update, remove } = providerMethods(migrationsDefinition);
