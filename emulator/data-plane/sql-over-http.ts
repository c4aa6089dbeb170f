import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { mayWrite } from "./commits";
import type { HttpConnectionPool } from "./http-pool";
import type { ProxyTarget } from "./proxy";
import {
  ISOLATION_LEVELS,
  type OutputOptions,
  runBatch,
  runStatement,
  type Statement,
  type StatementResult,
  type TransactionOptions,
} from "./sql-exec";

// SQL over HTTP, what the serverless driver's `neon()` sends (docs/api-rules.md §15): `POST /sql`
// with the connection string in `Neon-Connection-String` and a body of one statement
// (`{query, params}`) or a batch (`{queries: [...]}`). The login is checked as the endpoints'
// proxies check it (the role's password on the endpoint's branch, or Postgres's check of a role
// made over SQL; the project's network rules), then the statements run on a pooled connection to
// the branch's database, and the answer is the service's: 200 with the results, 400 with
// Postgres's error fields, other statuses for the rest.

/** The request and response body limits, 10 MiB each, as the service's. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** What SQL over HTTP asks the data plane. */
export interface SqlTarget extends Pick<ProxyTarget, "sync" | "admit" | "inUse" | "noteCommit"> {
  /** The endpoint a connection string's host and port name, or undefined when none does. */
  endpointAt(host: string, port: number | undefined): string | undefined;
  /** The connections statements run on. */
  readonly pool: HttpConnectionPool;
}

/** Postgres's error fields, as `pg` names them and the service answers them, in its order. */
const FIELD_NAMES = [
  "code",
  "detail",
  "hint",
  "position",
  "internalPosition",
  "internalQuery",
  "severity",
  "where",
  "table",
  "column",
  "schema",
  "dataType",
  "constraint",
  "file",
  "line",
  "routine",
] as const;
type ErrorFields = Partial<Record<(typeof FIELD_NAMES)[number], string>>;

/** A request SQL over HTTP refuses: its status, message and, for Postgres's errors, its fields. */
class SqlError extends Error {
  readonly status: number;
  readonly fields: ErrorFields;
  constructor(status: number, message: string, fields: ErrorFields = {}) {
    super(message);
    this.status = status;
    this.fields = fields;
  }
}

/** The fields of an error `pg` threw (a Postgres ErrorResponse carries them; a broken connection none). */
function fieldsOf(error: unknown): ErrorFields {
  const fields: ErrorFields = {};
  if (typeof error !== "object" || error === null) return fields;
  const source = error as Record<string, unknown>;
  for (const name of FIELD_NAMES) {
    const value = source[name];
    if (typeof value === "string") fields[name] = value;
  }
  return fields;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A statement of the body: `params` are any JSON values (converted to Postgres text). */
const STATEMENT = z.object({
  query: z.string(),
  params: z.array(z.unknown()).default([]),
  arrayMode: z.boolean().optional(),
});
/** One statement, or a batch; an object with `query` is one statement. */
const PAYLOAD = z.union([STATEMENT, z.object({ queries: z.array(STATEMENT) })]);

/** The login a connection string names. */
interface Login {
  user: string;
  password: string;
  database: string;
  host: string;
  port: number | undefined;
}

/** Reads `Neon-Connection-String` as the service does; throws 400 with the service's words. */
function loginOf(request: IncomingMessage): Login {
  const header = request.headers["neon-connection-string"];
  if (typeof header !== "string") throw new SqlError(400, "invalid header: neon-connection-string");
  let url: URL;
  try {
    url = new URL(header);
  } catch (error) {
    throw new SqlError(400, `invalid connection string: ${messageOf(error)}`);
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new SqlError(400, "incorrect scheme");
  }
  let user: string;
  let password: string;
  let database: string;
  try {
    user = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
    database = decodeURIComponent(url.pathname.slice(1).split("/")[0] ?? "");
  } catch (error) {
    throw new SqlError(400, `invalid connection string: ${messageOf(error)}`);
  }
  if (database === "") throw new SqlError(400, "missing database name");
  if (user === "") throw new SqlError(400, "missing username");
  // The service's password endpoint takes no bearer token (that is its JWT endpoint's).
  if (request.headers.authorization !== undefined || url.password === "") {
    throw new SqlError(400, "missing authentication credentials: required password");
  }
  if (url.hostname === "") throw new SqlError(400, "missing hostname");
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return { user, password, database, host, port: url.port === "" ? undefined : Number(url.port) };
}

/** The transaction a batch asks for in its headers; throws 400 for an unknown isolation level. */
function transactionOf(request: IncomingMessage): TransactionOptions {
  const level = request.headers["neon-batch-isolation-level"];
  if (typeof level === "string" && !ISOLATION_LEVELS.has(level)) {
    throw new SqlError(400, "invalid isolation level");
  }
  return {
    isolationLevel: typeof level === "string" ? level : undefined,
    readOnly: request.headers["neon-batch-read-only"] === "true",
    deferrable: request.headers["neon-batch-deferrable"] === "true",
  };
}

/** The request body, up to the limit (413 beyond it). */
async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    length += buffer.length;
    if (length > MAX_BODY_BYTES)
      throw new SqlError(413, `request is too large (max is ${MAX_BODY_BYTES} bytes)`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** The statements of the body; 400 naming the first problem when it is not one statement or a batch. */
function payloadOf(body: Buffer): Statement | { queries: Statement[] } {
  let json: unknown;
  try {
    json = JSON.parse(body.toString("utf8"));
  } catch (error) {
    throw new SqlError(400, `could not parse the HTTP request body: ${messageOf(error)}`);
  }
  const parsed = PAYLOAD.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? "" : ` at ${issue.path.join(".")}`;
    throw new SqlError(
      400,
      `could not parse the HTTP request body: expected {"query", "params"} or {"queries": [...]}${where}`,
    );
  }
  return parsed.data;
}

/** The headers every answer of `/sql` carries. */
const COMMON_HEADERS = { "content-type": "application/json", "access-control-allow-origin": "*" };

function send(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) {
  response.writeHead(status, { ...COMMON_HEADERS, ...headers, "content-length": Buffer.byteLength(text) });
  response.end(text);
}

/** The preflight answer a browser gets before a cross-origin `POST /sql`. */
export function answerPreflight(response: ServerResponse): void {
  response.writeHead(200, {
    allow: "OPTIONS, POST",
    "access-control-allow-origin": "*",
    "access-control-allow-headers":
      "Authorization, Neon-Connection-String, Neon-Raw-Text-Output, Neon-Array-Mode, Neon-Pool-Opt-In, Neon-Batch-Read-Only, Neon-Batch-Isolation-Level",
    "access-control-max-age": "86400",
  });
  response.end();
}

/** Serves one `POST /sql`. */
export async function serveSql(
  request: IncomingMessage,
  response: ServerResponse,
  target: SqlTarget,
): Promise<void> {
  try {
    const { body, headers } = await run(request, target);
    const text = JSON.stringify(body);
    if (Buffer.byteLength(text) > MAX_BODY_BYTES) {
      throw new SqlError(507, `response is too large (max is ${MAX_BODY_BYTES} bytes)`);
    }
    send(response, 200, text, headers);
  } catch (error) {
    const refused = error instanceof SqlError ? error : new SqlError(400, messageOf(error), fieldsOf(error));
    // Every field, in the service's order: absent ones null, but `code` and `severity` empty.
    const body: Record<string, string | null> = { message: refused.message };
    for (const name of FIELD_NAMES) {
      body[name] = refused.fields[name] ?? (name === "code" || name === "severity" ? "" : null);
    }
    send(response, refused.status, JSON.stringify(body));
  }
}

/** Checks the request and the login, runs the statements; throws a SqlError or Postgres's error. */
async function run(
  request: IncomingMessage,
  target: SqlTarget,
): Promise<{ body: unknown; headers: Record<string, string> }> {
  const login = loginOf(request);
  const transaction = transactionOf(request);
  const output: OutputOptions = {
    raw: request.headers["neon-raw-text-output"] === "true",
    arrayMode: request.headers["neon-array-mode"] === "true",
  };
  const payload = payloadOf(await bodyOf(request));

  await target.sync();
  const endpointId = target.endpointAt(login.host, login.port);
  if (endpointId === undefined) {
    throw new SqlError(
      400,
      `no endpoint of the emulator is at ${login.host}:${login.port ?? 5432}: use a connection string the API returned`,
    );
  }
  const admitted = await target.admit(
    endpointId,
    login.user,
    login.database,
    login.password,
    request.socket.remoteAddress ?? "",
  );
  if ("sqlstate" in admitted) {
    // The service refuses a login over HTTP with 400; only Postgres's own refusals carry a SQLSTATE.
    throw new SqlError(400, admitted.message, admitted.sqlstate === "3D000" ? { code: "3D000" } : {});
  }
  let lease: Awaited<ReturnType<HttpConnectionPool["acquire"]>>;
  try {
    lease = await target.pool.acquire(
      endpointId,
      { role: login.user, password: admitted.password },
      admitted.database,
    );
  } catch (error) {
    // Postgres could not be reached or refused the connection: the service's compute errors are 500.
    const fields = fieldsOf(error);
    throw new SqlError(fields.code === "3D000" ? 400 : 500, messageOf(error), fields);
  }
  const done = target.inUse(admitted.database);
  try {
    if ("queries" in payload) {
      const results = await runBatch(lease.client, payload.queries, output, transaction);
      if (!transaction.readOnly) await committed(target, results);
      // The service echoes the transaction's options on a batch's answer.
      const headers: Record<string, string> = {};
      if (transaction.readOnly) headers["neon-batch-read-only"] = "true";
      if (transaction.deferrable) headers["neon-batch-deferrable"] = "true";
      if (transaction.isolationLevel !== undefined) {
        headers["neon-batch-isolation-level"] = transaction.isolationLevel;
      }
      return { body: { results }, headers };
    }
    const result = await runStatement(lease.client, payload, output);
    await committed(target, [result]);
    return { body: result, headers: {} };
  } finally {
    lease.release();
    done();
  }
}

/**
 * The answer to statements that may have written waits for a reading of the WAL, so the client
 * learns of the commit only once the clock's reading holds it (docs/api-rules.md §9).
 */
async function committed(target: SqlTarget, results: StatementResult[]): Promise<void> {
  if (results.some((r) => mayWrite(r.command, r.fields.length > 0))) await target.noteCommit();
}
