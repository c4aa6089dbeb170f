/**
 * A folder of SQL migrations as `Migrations` reads it (docs/api-rules.md §29): its `.sql` files, in
 * the code-point order of their names, each with the sha256 of its bytes; and the check that a
 * migration already applied was not edited since. Each problem says what to give instead.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { MigrationFile } from "../public/migrations";

/** A migration file with its SQL, as a step runs it. */
export interface MigrationSource extends MigrationFile {
  sql: string;
}

/** The files of a folder, or why it cannot be used. */
export type FolderRead = { files: MigrationSource[]; problem?: undefined } | { problem: string };

/**
 * Names in code-point order: the UTF-8 bytes compare as the code points do, which JavaScript's own
 * string order (UTF-16 units) does not for characters beyond the first plane.
 */
export function byCodePoint(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * The `.sql` files directly in `folder` (relative to the program's folder, the provider's working
 * directory), in the order they run.
 */
export function readMigrations(folder: string): FolderRead {
  const path = resolve(folder);
  let isFolder: boolean;
  try {
    isFolder = statSync(path).isDirectory();
  } catch (err) {
    return {
      problem:
        `folder ${folder} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): ` +
        `give the path of an existing folder of .sql migration files (a relative path is resolved against ` +
        `the program's folder, ${process.cwd()})`,
    };
  }
  if (!isFolder)
    return {
      problem: `folder ${folder} is a file, not a folder: give the folder that holds the .sql migration files`,
    };
  const names = readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".sql"))
    .map((entry) => entry.name)
    .sort(byCodePoint);
  if (names.length === 0)
    return {
      problem:
        `folder ${folder} holds no .sql file: add the first migration (0001_init.sql, say), or give the folder ` +
        "that holds them",
    };
  return {
    files: names.map((name) => {
      const bytes = readFileSync(join(path, name));
      return { name, sha256: createHash("sha256").update(bytes).digest("hex"), sql: bytes.toString("utf8") };
    }),
  };
}

/**
 * The sentence for the first file of `files` that `applied` records under its name with another
 * sha256; undefined when none was edited.
 */
export function editedMigration(
  applied: readonly MigrationFile[],
  files: readonly MigrationFile[],
): string | undefined {
  const ran = new Map(applied.map((file) => [file.name, file.sha256]));
  const edited = files.find((file) => ran.has(file.name) && ran.get(file.name) !== file.sha256);
  if (edited === undefined) return undefined;
  return (
    `migration ${edited.name} was applied with sha256 ${ran.get(edited.name)} and has changed since: ` +
    "migrations that ran are never edited; add a new file instead"
  );
}

/** `value` as a list of migration files (what a state or the inputs `check` derived record), else empty. */
export function migrationFilesIn(value: unknown): MigrationFile[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (file): file is MigrationFile =>
      typeof file === "object" &&
      file !== null &&
      typeof (file as MigrationFile).name === "string" &&
      typeof (file as MigrationFile).sha256 === "string",
  );
}
