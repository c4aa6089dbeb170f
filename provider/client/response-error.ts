/**
 * Turning a failed attempt (a non-2xx response, or no response) into a typed error whose message says
 * what failed and what to do next. Server text is redacted; HTML or other non-JSON bodies never hide
 * the status.
 */
import { STATUS_CODES } from "node:http";
import type { AnswerErrorKind, ApiError, ApiErrorDetails } from "./errors";
import {
  answerErrorKind,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  LockedError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
} from "./errors";
import { redactSecrets } from "./redact";
import { parseRetryAfter, wasNotSent } from "./retry";
import { ErrorBodySchema } from "./schemas";

/** Where and how long: everything an error reports besides the response itself. */
export interface FailureContext {
  method: string;
  path: string;
  pathTemplate: string;
  attempts: number;
  elapsedMs: number;
  /** The `x-request-id` this client sent. */
  sentRequestId: string;
  /** Whether a retry rule covers this failure for this method (shapes the hint). */
  retryable: boolean;
  /** Whether the retries stopped because the request's deadline would pass before the next one. */
  deadlinePassed?: boolean | undefined;
  apiUrl: string;
  attemptTimeoutMs: number;
  secrets: readonly string[];
}

/** First value of a header. */
export function headerValue(headers: Readonly<Record<string, string | string[] | undefined>>, name: string) {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const MUTATING = new Set(["POST", "PATCH", "DELETE", "PUT"]);

/** What every error says of the request it ends: which, how often tried, for how long. */
function request({ method, path, pathTemplate, attempts, elapsedMs }: FailureContext) {
  return { method, path, pathTemplate, attempts, elapsedMs };
}

function tail(ctx: FailureContext, requestId: string): string {
  const attempts = `${ctx.attempts} attempt${ctx.attempts === 1 ? "" : "s"}`;
  return ` (request id ${requestId}; ${attempts} in ${ctx.elapsedMs} ms)`;
}

/** A wait for a person: "45 s", "12 min", "26 h". */
function formatWait(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 2 * 3600) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}

function shorten(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** A non-2xx answer, as the rules below read it. */
interface Answer {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  ctx: FailureContext;
  /** The request asked for a change that may have been applied: it was not re-sent. */
  mayHaveChanged: boolean;
}

/** How an answer of one kind is reported. */
interface AnswerRule<K extends AnswerErrorKind> {
  /** The error's class, of that kind. */
  error: { readonly kind: K; new (message: string, details?: ApiErrorDetails): ApiError };
  /** The failure may come after the service applied the change (a mutating request not re-sent may have taken effect). */
  mayHaveApplied?: true;
  /** What to do next, each sentence with its leading space; it follows what failed. */
  next(answer: Answer): string;
}

/** For each kind of answer (`answerErrorKind` of its status), its error and what the message says to do. */
const ANSWER_RULES: { [K in AnswerErrorKind]: AnswerRule<K> } = {
  Unauthorized: {
    error: UnauthorizedError,
    next: () =>
      " The API key is missing, invalid or revoked: set a valid key with `pulumi config set --secret clouddb:apiKey <key>` or CLOUDDB_API_KEY.",
  },
  Forbidden: {
    error: ForbiddenError,
    next: () =>
      " This API key may not do this (a project-scoped key outside its project, an organization action without admin rights, or an endpoint that needs a personal key): use a key with that scope.",
  },
  NotFound: {
    error: NotFoundError,
    next: () =>
      " The object does not exist or this key cannot see it: check the id, or run `pulumi refresh` if it was deleted outside Pulumi.",
  },
  Conflict: {
    error: ConflictError,
    next: () =>
      " It conflicts with existing state (for example a branch with this name already exists): choose another name or adopt the existing object.",
  },
  Locked: {
    error: LockedError,
    next: () =>
      " Conflicting operations were still running on the project after the retries: wait for them to finish and run again.",
  },
  RateLimited: {
    error: RateLimitedError,
    next: ({ headers, ctx }) => {
      const askedMs = parseRetryAfter(headerValue(headers, "retry-after"), Date.now());
      const asked =
        askedMs === undefined
          ? ""
          : ` The service last asked for a pause of ${formatWait(askedMs)} (Retry-After).`;
      const waited = ctx.deadlinePassed
        ? ` It waited ${formatWait(ctx.elapsedMs)} for its turn; the next retry would start after its deadline.`
        : "";
      return (
        `${waited}${asked} The API's rate limit is shared by every client of the account (other stacks, CI jobs, scripts): ` +
        "raise `clouddb:operationTimeoutSeconds` or the resource's `timeouts` to let it wait longer, " +
        "or make the processes share one budget with `clouddb:limiterUrl` (a Redis or Valkey server)."
      );
    },
  },
  BadRequest: {
    error: BadRequestError,
    next: () => " The service refused the request: correct the inputs it names and run again.",
  },
  ServerError: {
    error: ServerError,
    mayHaveApplied: true,
    next: ({ mayHaveChanged }) =>
      mayHaveChanged
        ? " It was not re-sent because the change may have been applied: run `pulumi refresh`, then `pulumi up` again."
        : " The service failed; try again later.",
  },
};

/** Build the typed error for a non-2xx response. */
export function errorFromResponse(
  status: number,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  body: string,
  ctx: FailureContext,
): ApiError {
  let code: string | undefined;
  let serverMessage: string | undefined;
  let bodyRequestId: string | undefined;
  let parsedJson = false;
  try {
    const parsed = ErrorBodySchema.safeParse(JSON.parse(body));
    if (parsed.success) {
      parsedJson = true;
      code = parsed.data.code == null ? undefined : String(parsed.data.code);
      serverMessage = parsed.data.message ?? undefined;
      bodyRequestId = parsed.data.request_id ?? undefined;
    }
  } catch {
    // Not JSON (a gateway page): reported below by content type, never by parse failure.
  }
  const requestId = headerValue(headers, "x-request-id") ?? bodyRequestId ?? ctx.sentRequestId;
  const reason = STATUS_CODES[status] ?? "Unknown Status";
  let detail = "";
  if (serverMessage) detail = `: ${shorten(redactSecrets(serverMessage, ctx.secrets))}`;
  else if (!parsedJson) {
    const type = headerValue(headers, "content-type")?.split(";")[0]?.trim();
    detail = body.trim() === "" ? " (empty body)" : ` (non-JSON${type ? ` ${type}` : ""} body)`;
  }
  const codeText = code ? ` [${shorten(redactSecrets(code, ctx.secrets), 80)}]` : "";
  const head = `${ctx.method} ${ctx.path} failed: ${status} ${reason}${codeText}${detail}.`;
  const rule: AnswerRule<AnswerErrorKind> = ANSWER_RULES[answerErrorKind(status)];
  const mayHaveChanged = rule.mayHaveApplied === true && MUTATING.has(ctx.method) && !ctx.retryable;
  const next = rule.next({ headers, ctx, mayHaveChanged });
  return new rule.error(`${head}${next}${tail(ctx, requestId)}`, {
    status,
    code,
    requestId,
    ...request(ctx),
    mayHaveChanged,
  });
}

/** Build the typed error for an attempt that got no response. */
export function errorFromNetwork(
  networkCode: string,
  networkMessage: string,
  ctx: FailureContext,
): NetworkError {
  const what =
    networkCode === "ETIMEDOUT"
      ? `no response within ${ctx.attemptTimeoutMs} ms`
      : `no response (${networkCode}: ${shorten(redactSecrets(networkMessage, ctx.secrets), 160)})`;
  const notSent = wasNotSent(networkCode);
  const mayHaveChanged = MUTATING.has(ctx.method) && !ctx.retryable && !notSent;
  const next = notSent
    ? `Nothing reached the service. Check that clouddb:apiUrl / CLOUDDB_API_URL (${ctx.apiUrl}) is right and reachable from here.`
    : mayHaveChanged
      ? "It was not re-sent because it may have reached the service: run `pulumi refresh`, then `pulumi up` again."
      : `Check the network and that clouddb:apiUrl / CLOUDDB_API_URL (${ctx.apiUrl}) is reachable.`;
  return new NetworkError(
    `${ctx.method} ${ctx.path} failed: ${what}. ${next}${tail(ctx, ctx.sentRequestId)}`,
    networkCode,
    {
      requestId: ctx.sentRequestId,
      ...request(ctx),
      mayHaveChanged,
    },
  );
}
