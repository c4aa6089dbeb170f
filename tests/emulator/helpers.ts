import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { TLSSocket } from "node:tls";
import { Client, type ClientConfig } from "pg";
import {
  DEMO,
  type EmulatorOptions,
  type RunningEmulator,
  type SeedFile,
  startEmulator,
} from "../../emulator";
import { reachable, unprivilegedUser } from "../../emulator/data-plane/unprivileged";
import { zipFolder } from "../../provider/resources/inputs/zip";

// Shared test plumbing: start an emulator, call it over real HTTP, read the official OpenAPI document.

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by assertions and the schema validator.
export type Json = any;

/** A second organization of a seed, and the id messages and tests name it by. */
export const SECOND_ORG_ID = "org-snowy-meadow-70312458";

/** `seed` with organization `SECOND_ORG_ID` added, its members given as user id -> role (users of the seed). */
export function withSecondOrg(seed: SeedFile, members: Record<string, "admin" | "member">): SeedFile {
  const org = {
    id: SECOND_ORG_ID,
    name: "Second Org",
    members: Object.entries(members).map(([user_id, role]) => ({ user_id, role })),
  };
  return { ...seed, organizations: [...(seed.organizations ?? []), org] };
}

/** A team's own SMTP server, as a branch's Auth email provider takes it. */
export const SMTP_SERVER = {
  type: "standard",
  host: "smtp.example.com",
  port: 587,
  username: "u",
  password: "p",
  sender_email: "a@example.com",
  sender_name: "A",
} as const;

/** One HTTP exchange. */
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: Json;
}

/** Options of one call. */
export interface CallOptions {
  key?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** Calls `method base+path` with a Bearer key and a JSON body; never throws on a status. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const headers: Record<string, string> = { accept: "application/json", ...(options.headers ?? {}) };
  if (options.key !== undefined) headers["authorization"] = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] ??= "application/json";
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  let parsed: Json;
  if (text !== "" && (response.headers.get("content-type") ?? "").includes("json")) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** A small API client bound to one emulator and one key. */
export function api(emulator: RunningEmulator, key?: string) {
  const opts = (body?: unknown): CallOptions => ({
    ...(key === undefined ? {} : { key }),
    ...(body === undefined ? {} : { body }),
  });
  return {
    get: (path: string) => call(emulator.url, "GET", path, opts()),
    post: (path: string, body?: unknown) => call(emulator.url, "POST", path, opts(body)),
    patch: (path: string, body?: unknown) => call(emulator.url, "PATCH", path, opts(body)),
    put: (path: string, body?: unknown) => call(emulator.url, "PUT", path, opts(body)),
    delete: (path: string) => call(emulator.url, "DELETE", path, opts()),
  };
}

/** Waits until `project` has no unfinished operation, polling every 10 ms. */
export async function untilIdle(http: ReturnType<typeof api>, project: string): Promise<void> {
  const done = ["finished", "cancelled", "skipped", "error"];
  for (;;) {
    const ops = (await http.get(`/projects/${project}/operations`)).body.operations as Json[];
    if (ops.every((op) => done.includes(op.status))) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Creates a project named `name`; its id, its default branch's id and its first connection URI. */
export async function newProject(
  http: ReturnType<typeof api>,
  name: string,
): Promise<{ project: string; branch: string; uri: string }> {
  const created = await http.post("/projects", { project: { name } });
  if (created.status !== 201) throw new Error(`POST /projects answered ${created.status}: ${created.text}`);
  return {
    project: created.body.project.id,
    branch: created.body.branch.id,
    uri: created.body.connection_uris[0].connection_uri,
  };
}

/**
 * The arguments for Node.js that run the `clouddb-emulator` bin: its build in `emulator/lib` (what
 * `npx clouddb-emulator` runs) when the run's global set-up built it, else its sources through
 * ts-node (a file run alone, whose `lib` may be stale). Loading the sources through ts-node takes
 * about 3.5 CPU-seconds more a process.
 */
export function emulatorCliArgs(): string[] {
  return process.env.CLOUDDB_TEST_ENGINE_READY === "1"
    ? ["emulator/lib/cli.js"]
    : ["-r", "ts-node/register/transpile-only", "emulator/cli.ts"];
}

/** Starts an emulator with a manual clock and quick operations unless told otherwise. */
export function start(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ clock: "manual", opDurationMs: 100, ...options });
}

/**
 * How this run starts the data plane's Postgres, for the suites' names: ", as root from a folder
 * only root can enter" when the repository is such a folder, ", as root", or nothing.
 */
export function dataPlaneRun(): string {
  const user = unprivilegedUser();
  if (user === undefined) return "";
  return reachable(user, join(__dirname, "..", ".."))
    ? ", as root"
    : ", as root from a folder only root can enter";
}

/** True while process `pid` runs: it exists and, where /proc tells, has not exited unreaped. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return process.platform !== "linux";
  }
}

/**
 * `uri` as an app that verifies the endpoint connects with it: `sslmode=verify-full` against the
 * emulator's CA (`sslrootcert`, read by the `pg` client and libpq alike). Throws without a CA
 * (an emulator started without Postgres).
 */
export function verifyFull(uri: string, caPath: string | undefined): string {
  if (caPath === undefined) throw new Error("the emulator serves no TLS: start it with postgres");
  const url = new URL(uri);
  url.searchParams.set("sslmode", "verify-full");
  url.searchParams.set("sslrootcert", caPath);
  return url.href;
}

/** The SQLSTATE `sql` fails with on a fresh connection to `uri` (verified as `verifyFull` does), or "ok". */
export async function sqlOutcome(uri: string, caPath: string | undefined, sql: string): Promise<string> {
  const db = new Client({ connectionString: verifyFull(uri, caPath) });
  db.on("error", () => undefined);
  await db.connect();
  try {
    await db.query(sql);
    return "ok";
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await db.end();
  }
}

/**
 * Runs `statements` in order on a fresh connection to `uri`, the endpoint verified against the CA
 * in `caPath` (`verifyFull`); answers the last one's rows and always ends the connection.
 */
export async function runSql<T = Json>(
  uri: string,
  caPath: string | undefined,
  ...statements: string[]
): Promise<T[]> {
  const db = new Client({ connectionString: verifyFull(uri, caPath) });
  await db.connect();
  try {
    let rows: T[] = [];
    for (const statement of statements) rows = (await db.query(statement)).rows as T[];
    return rows;
  } finally {
    await db.end();
  }
}

/** Makes a branch (`branch` is the request's `branch` object) with a read-write compute once the project is idle; throws unless 201. */
export async function branchWithCompute(
  http: ReturnType<typeof api>,
  project: string,
  branch: Json,
): Promise<{ id: string; uri: string; parentLsn: string }> {
  await untilIdle(http, project);
  const created = await http.post(`/projects/${project}/branches`, {
    branch,
    endpoints: [{ type: "read_write" }],
  });
  if (created.status !== 201) throw new Error(`branch not created: ${created.status} ${created.text}`);
  return {
    id: created.body.branch.id,
    uri: created.body.connection_uris[0].connection_uri,
    parentLsn: created.body.branch.parent_lsn,
  };
}

/** An emulator with the data plane (quick operations, no limits) and a new project of the demo user: its ids and the main branch's URI. */
export async function dataPlaneProject(name: string): Promise<{
  emu: RunningEmulator;
  http: ReturnType<typeof api>;
  project: string;
  main: string;
  mainUri: string;
}> {
  const emu = await startEmulator({ postgres: true, opDurationMs: 20, limits: false });
  const http = api(emu, DEMO.personalKey);
  try {
    const { project, branch, uri } = await newProject(http, name);
    return { emu, http, project, main: branch, mainUri: uri };
  } catch (error) {
    await emu.stop();
    throw error;
  }
}

/** A ZIP archive of `files` (path to text), zipped as the provider zips a function's folder. */
export function zipOf(files: Record<string, string>): Buffer {
  const folder = mkdtempSync(join(tmpdir(), "fn-zip-"));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      writeFileSync(join(folder, path), text);
    }
    return zipFolder(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Posts a deployment of the demo branch's function `slug` as the service takes it: multipart/form-data,
 * a Buffer as the `zip` file part, strings as text parts. Answers the status and JSON body.
 */
export async function deployTo(emu: RunningEmulator, slug: string, parts: Record<string, string | Buffer>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts))
    if (typeof value === "string") form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value)]), "bundle.zip");
  const path = `/projects/${DEMO.projectId}/branches/${DEMO.branchId}/functions/${slug}/deployments`;
  const response = await fetch(`${emu.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${DEMO.personalKey}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Json };
}

/** Connects, runs `SELECT 1`, and answers whether the client's socket is encrypted; always ends. */
export async function selectOne(config: ClientConfig): Promise<{ one: number; encrypted: boolean }> {
  const client = new Client(config);
  client.on("error", () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ one: number }>("SELECT 1 AS one");
    const stream = client.connection.stream;
    return { one: rows[0]?.one ?? 0, encrypted: stream instanceof TLSSocket && stream.encrypted };
  } finally {
    await client.end();
  }
}

/** `uri` with each of `params` set (`sslmode` replaced, others added). */
export function withParams(uri: string, params: Record<string, string>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.href;
}

/** A project with a read-write endpoint: the endpoint's host names and the owner's connection URIs. */
export async function tlsProject(
  emu: RunningEmulator,
): Promise<{ uri: string; pooledUri: string; host: string }> {
  const http = api(emu, DEMO.personalKey);
  const created = await http.post("/projects", { project: { name: "tls" } });
  assert.equal(created.status, 201, created.text);
  const project = created.body.project.id as string;
  const pooled = await http.get(
    `/projects/${project}/connection_uri?database_name=neondb&role_name=neondb_owner&pooled=true`,
  );
  assert.equal(pooled.status, 200, pooled.text);
  return {
    uri: created.body.connection_uris[0].connection_uri as string,
    pooledUri: pooled.body.uri as string,
    host: (created.body.endpoints as Json[])[0].host as string,
  };
}
