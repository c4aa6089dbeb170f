/**
 * What a preview can tell of a function's code from the files alone (docs/api-rules.md §27): the
 * folder or archive exists, holds files, is a ZIP file, has the entry module the runtime imports at
 * its root, and that module parses. Each problem names the input (`source` or `archive`) and what to
 * give instead, so a code the service could never run fails the preview, not the deployment.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { looksLikeZip, ZipReadError, zipFiles } from "./unzip";
import { zipFolder } from "./zip";

/** The entry modules the runtime imports from the archive's root, in the order it looks for them. */
export const FUNCTION_ENTRIES = ["index.mjs", "index.js"] as const;

/** A problem of the code input, as a check failure. */
export interface CodeProblem {
  property: "source" | "archive";
  reason: string;
}

/** The problem of the code `source` or `archive` names; undefined when it can run as far as files tell. */
export function codeProblem(code: {
  source?: string | undefined;
  archive?: string | undefined;
}): CodeProblem | undefined {
  const property = code.source !== undefined ? "source" : "archive";
  const path = code.source ?? code.archive;
  if (path === undefined) return undefined;
  const fail = (reason: string): CodeProblem => ({ property, reason });
  const where = property === "source" ? `source folder ${path}` : `archive ${path}`;
  let isFolder: boolean;
  try {
    isFolder = statSync(path).isDirectory();
  } catch (err) {
    return fail(
      `the ${where} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): give the ` +
        `path of an existing ${property === "source" ? "folder" : ".zip file"} with the function's code (an ` +
        "absolute path does not depend on the directory Pulumi runs in)",
    );
  }
  if (property === "source" && !isFolder)
    return fail(
      `source ${path} is a file, not a folder: give the folder of the function's code, or a .zip as archive`,
    );
  if (property === "archive" && isFolder)
    return fail(`archive ${path} is a folder: give it as source, or give the path of a .zip file as archive`);
  const zip = property === "source" ? zipFolder(path) : readFileSync(path);
  if (property === "archive" && !looksLikeZip(zip))
    return fail(
      `archive ${path} is not a ZIP file: zip the function's folder from inside it (so index.mjs is at its ` +
        "root), or give the folder as source",
    );
  let files: ReturnType<typeof zipFiles>;
  try {
    files = zipFiles(zip);
  } catch (err) {
    if (!(err instanceof ZipReadError)) throw err;
    return fail(
      `archive ${path} cannot be read as a ZIP file (${err.message}): zip the function's folder again`,
    );
  }
  if (files.length === 0)
    return fail(
      `the ${where} has no files: put the function's code in it, with index.mjs or index.js at its root`,
    );
  const entry = FUNCTION_ENTRIES.map((name) => files.find((f) => f.name === name)).find(
    (f) => f !== undefined,
  );
  if (entry === undefined)
    return fail(
      `the ${where} has no ${FUNCTION_ENTRIES.join(" nor ")} at its root, the module the runtime imports ` +
        `(it has ${files
          .slice(0, 3)
          .map((f) => f.name)
          .join(", ")}${files.length > 3 ? ", …" : ""}): add one` +
        (property === "archive"
          ? ", or zip the folder from inside it so the file is not under a subfolder"
          : ""),
    );
  let bytes: Buffer;
  try {
    bytes = entry.bytes();
  } catch (err) {
    if (!(err instanceof ZipReadError)) throw err;
    return fail(
      `archive ${path} cannot be read as a ZIP file (${err.message}): zip the function's folder again`,
    );
  }
  const syntax = syntaxError(bytes);
  if (syntax === undefined) return undefined;
  return fail(
    `${entry.name} in the ${where} is not a module the runtime can load: ${syntax}. Fix it: deployed as it is, ` +
      "every invocation would answer 500",
  );
}

/**
 * The syntax error of an ES module's source, `line N: SyntaxError: …`; undefined when it parses or
 * when it cannot be told. `node --check` on a temporary `.mjs` copy parses the module the way the
 * runtime imports it without running any of it, and says where the error is: the provider carries
 * no JavaScript parser of its own. The plugin's single executable cannot run Node's `--check`: it
 * skips this check, and a syntax error shows as the invocations' 500.
 */
function syntaxError(source: Buffer): string | undefined {
  if (isSingleExecutable()) return undefined;
  const key = createHash("sha256").update(source).digest("hex");
  if (!JUDGED.has(key)) JUDGED.set(key, nodeCheck(source));
  return JUDGED.get(key);
}

/** What `node --check` said of each module source this process judged, by its sha256: a preview judges the same code for every check. */
const JUDGED = new Map<string, string | undefined>();

function nodeCheck(source: Buffer): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), "clouddb-function-check-"));
  try {
    const file = join(dir, "index.mjs");
    writeFileSync(file, source);
    const { NODE_OPTIONS: _options, ...env } = process.env;
    const run = spawnSync(process.execPath, ["--check", file], { encoding: "utf8", env, timeout: 20_000 });
    if (run.status !== 1 || typeof run.stderr !== "string") return undefined;
    const at = run.stderr.indexOf(`${file}:`);
    const line = at < 0 ? undefined : /^\d+/.exec(run.stderr.slice(at + file.length + 1))?.[0];
    const message = /^SyntaxError: .*$/m.exec(run.stderr)?.[0];
    if (message === undefined) return undefined;
    return line === undefined ? message : `line ${line}: ${message}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether this process is a Node single executable (the plugin binary), whose `execPath` is not Node. */
function isSingleExecutable(): boolean {
  try {
    return (require("node:sea") as { isSea(): boolean }).isSea();
  } catch {
    return false;
  }
}
