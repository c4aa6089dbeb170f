import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ZipError, zipEntries } from "./unzip";

// A function's archive as the runtime takes it (docs/api-rules.md §27): a ZIP file whose root holds
// the entry module, `index.mjs` or else `index.js`, which is imported with the files beside it. A
// deployment whose archive is not that fails its build with the reason; one that is can be unpacked
// into a folder and run.

/** The entry modules the runtime imports from the archive's root, in the order it looks for them. */
export const FUNCTION_ENTRIES = ["index.mjs", "index.js"] as const;

/** Whether an entry's path stays inside the folder it is unpacked into. */
function staysInside(name: string): boolean {
  return !name.startsWith("/") && !name.includes("\\") && !name.split("/").includes("..");
}

/**
 * Why the archive cannot run, or undefined when it can: not a ZIP file, unreadable, an entry that
 * would land outside its folder, or no entry module at its root.
 */
export function archiveProblem(zip: Buffer): string | undefined {
  if (zip.length < 4 || zip.readUInt16LE(0) !== 0x4b50)
    return "the uploaded archive is not a ZIP file: zip the function's source and deploy again";
  let names: string[];
  try {
    const entries = zipEntries(zip);
    // Unpacking each file is the build's check that the bytes are whole.
    for (const entry of entries) entry.bytes();
    names = entries.map((e) => e.name);
  } catch (error) {
    if (!(error instanceof ZipError)) throw error;
    return `the uploaded archive cannot be read as a ZIP file (${error.message}): zip the function's source and deploy again`;
  }
  const outside = names.find((name) => !staysInside(name));
  if (outside !== undefined)
    return `the archive's entry ${JSON.stringify(outside)} points outside the archive: zip the function's folder from inside it`;
  if (!FUNCTION_ENTRIES.some((entry) => names.includes(entry)))
    return `the archive's root has no entry module (expected one of: ${FUNCTION_ENTRIES.join(", ")}): the runtime imports the archive by that name`;
  return undefined;
}

/**
 * Unpacks an archive `archiveProblem` accepts into `folder` and answers the entry module's path.
 * Throws when it cannot: a file that does not unpack, or no entry module.
 */
export function unpackArchive(zip: Buffer, folder: string): string {
  const names = new Set<string>();
  for (const entry of zipEntries(zip)) {
    if (!staysInside(entry.name)) throw new ZipError(`${entry.name} points outside the archive`);
    const path = join(folder, ...entry.name.split("/"));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, entry.bytes());
    names.add(entry.name);
  }
  const entry = FUNCTION_ENTRIES.find((name) => names.has(name));
  if (entry === undefined) throw new ZipError(`the archive's root has no ${FUNCTION_ENTRIES.join(" or ")}`);
  return join(folder, entry);
}
