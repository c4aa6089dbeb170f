/**
 * One error tree for everything the client throws: `CloudDbError` at the root, `ApiError` for a call
 * to the API that failed (an answer, no answer, or the operations it started), `UsageError` for what
 * fails before any request (the key or URL, an argument).
 *
 * Pulumi deserializes provider code, so several copies of these classes can live in one process and
 * `instanceof` is not reliable. Every error carries the `Symbol.for("pulumi-clouddb.error")` marker and a
 * `kind` string; recognise errors with the `isX(e)` helpers below, never with `instanceof`.
 *
 * Messages name what failed and what to do next. They never contain an API key or an Authorization
 * header: server-supplied text is passed through `redactSecrets` before it reaches a message.
 */

/** Marker present (value `true`) on every error this library throws, across module copies. */
export const ERROR_MARKER: unique symbol = Symbol.for("pulumi-clouddb.error") as never;

/** Every `kind` an `ApiError` can have. */
export type ApiErrorKind =
  | "Unauthorized"
  | "Forbidden"
  | "NotFound"
  | "Conflict"
  | "Locked"
  | "RateLimited"
  | "BadRequest"
  | "ServerError"
  | "Network"
  | "ResponseValidation"
  | "OperationFailed"
  | "OperationTimeout"
  | "PageLimit";

/** Every `kind` a `UsageError` can have. */
export type UsageErrorKind = "InvalidArgument" | "Config";

/** Every `kind` an error of this library can have. */
export type CloudDbErrorKind = ApiErrorKind | UsageErrorKind;

const USAGE_KINDS: ReadonlySet<string> = new Set<UsageErrorKind>(["InvalidArgument", "Config"]);

/** Root of the tree: every error this library throws. Use `isCloudDbError(e)` to recognise it. */
export class CloudDbError extends Error {
  readonly [ERROR_MARKER] = true as const;
  readonly kind: CloudDbErrorKind;

  constructor(kind: CloudDbErrorKind, message: string) {
    super(message);
    this.name = kind === "ServerError" ? "ServerError" : `${kind}Error`;
    this.kind = kind;
  }

  /** Plain JSON for logs (no response bodies, no headers). */
  toJSON(): Record<string, unknown> {
    return { name: this.name, kind: this.kind, message: this.message };
  }
}

/** Nothing was sent: the configuration or an argument cannot be used. Use `isUsageError(e)`. */
export class UsageError extends CloudDbError {
  declare readonly kind: UsageErrorKind;
  constructor(kind: UsageErrorKind, message: string) {
    super(kind, message);
  }
}

/** Facts about the failed call that every `ApiError` records (each optional: a wait has no status). */
export interface ApiErrorDetails {
  status?: number | undefined;
  code?: string | undefined;
  requestId?: string | undefined;
  method?: string | undefined;
  /** The concrete path, e.g. `/projects/p-1/branches/br-2`. */
  path?: string | undefined;
  /** The path template, e.g. `/projects/{project_id}/branches/{branch_id}`. */
  pathTemplate?: string | undefined;
  attempts?: number | undefined;
  elapsedMs?: number | undefined;
  /** A mutating request may have taken effect although no usable response came back (it is never re-sent). */
  mayHaveChanged?: boolean | undefined;
}

/** A call to the API failed: its answer, no answer, or the operations it started. Use `isApiError(e)`. */
export class ApiError extends CloudDbError {
  declare readonly kind: ApiErrorKind;
  /** HTTP status, when a response was received. */
  readonly status: number | undefined;
  /** The API's error `code` (a free string, may be empty). */
  readonly code: string | undefined;
  /** The API's request id (`x-request-id` / body `request_id`), else the id this client sent. */
  readonly requestId: string | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly pathTemplate: string | undefined;
  /** HTTP attempts made for this logical request. */
  readonly attempts: number | undefined;
  /** Milliseconds from the first attempt to the error. */
  readonly elapsedMs: number | undefined;
  /**
   * True when a POST/PATCH/DELETE may have taken effect although no usable response came back (no
   * response, a 5xx, or a 2xx body that could not be read). It was not re-sent; the caller may look
   * the object up.
   */
  readonly mayHaveChanged: boolean;
  /**
   * When a mutating request succeeded and a later step (the operation wait) failed: the parsed body of
   * that request, so the caller can record the object instead of orphaning it. Otherwise undefined.
   * Not enumerable, so logging the error does not dump the body (it may hold database passwords).
   */
  declare response: unknown;

  constructor(kind: ApiErrorKind, message: string, details: ApiErrorDetails = {}) {
    super(kind, message);
    this.status = details.status;
    this.code = details.code;
    this.requestId = details.requestId;
    this.method = details.method;
    this.path = details.path;
    this.pathTemplate = details.pathTemplate;
    this.attempts = details.attempts;
    this.elapsedMs = details.elapsedMs;
    this.mayHaveChanged = details.mayHaveChanged ?? false;
    Object.defineProperty(this, "response", { value: undefined, writable: true, enumerable: false });
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      status: this.status,
      code: this.code,
      requestId: this.requestId,
      method: this.method,
      path: this.path,
      pathTemplate: this.pathTemplate,
      attempts: this.attempts,
      elapsedMs: this.elapsedMs,
      mayHaveChanged: this.mayHaveChanged,
    };
  }
}

/** 401: the key is missing, invalid or revoked. */
export class UnauthorizedError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super("Unauthorized", message, details);
  }
}

/** 403: the key is valid but not allowed to do this (scope, org role). */
export class ForbiddenError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super("Forbidden", message, details);
  }
}

/** 404: the object does not exist or is not visible to this key. */
export class NotFoundError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super("NotFound", message, details);
  }
}

/** 409: conflicts with existing state, e.g. `BRANCH_ALREADY_EXISTS`. */
export class ConflictError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super("Conflict", message, details);
  }
}

/** 423: conflicting operations are running on the project and the retries were spent. */
export class LockedError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super("Locked", message, details);
  }
}

/** 429: a rate limit was exceeded and the retries were spent. */
export class RateLimitedError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super("RateLimited", message, details);
  }
}

/** Any other non-2xx answer (400, 422, other 4xx, unexpected 1xx/3xx): the request itself was refused. */
export class BadRequestError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super("BadRequest", message, details);
  }
}

/** 5xx from the service or a gateway (including HTML pages such as a 524). */
export class ServerError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super("ServerError", message, details);
  }
}

/** No response: connection refused/reset, DNS failure, or the per-attempt timeout. */
export class NetworkError extends ApiError {
  /** The system error code, e.g. `ECONNRESET`, `ETIMEDOUT`. */
  readonly networkCode: string;
  constructor(message: string, networkCode: string, details: ApiErrorDetails = {}) {
    super("Network", message, details);
    this.networkCode = networkCode;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), networkCode: this.networkCode };
  }
}

/** A 2xx body that is not JSON or does not match the expected schema. */
export class ResponseValidationError extends ApiError {
  /** First schema issues as `field.path: problem`. */
  readonly issues: readonly string[];
  constructor(message: string, issues: readonly string[], details: ApiErrorDetails = {}) {
    super("ResponseValidation", message, details);
    this.issues = issues;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), issues: this.issues };
  }
}

/** An operation as errors report it (a subset of the schema type, to keep this file standalone). */
export interface ReportedOperation {
  id: string;
  action: string;
  status: string;
  failures_count?: number | undefined;
  error?: string | null | undefined;
}

/** An operation the client waited on ended `cancelled` or `error`. */
export class OperationFailedError extends ApiError {
  readonly projectId: string;
  /** The operation that failed, as last seen. */
  readonly operation: ReportedOperation;
  constructor(
    message: string,
    projectId: string,
    operation: ReportedOperation,
    details: ApiErrorDetails = {},
  ) {
    super("OperationFailed", message, details);
    this.projectId = projectId;
    this.operation = operation;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), projectId: this.projectId, operation: this.operation };
  }
}

/** The deadline passed while operations were still unfinished. */
export class OperationTimeoutError extends ApiError {
  readonly projectId: string;
  /** Ids of the operations still unfinished at the deadline. */
  readonly pendingOperationIds: readonly string[];
  /** Last seen state of those operations. */
  readonly pendingOperations: readonly ReportedOperation[];
  constructor(
    message: string,
    projectId: string,
    pendingOperations: readonly ReportedOperation[],
    details: ApiErrorDetails = {},
  ) {
    super("OperationTimeout", message, details);
    this.projectId = projectId;
    this.pendingOperations = pendingOperations;
    this.pendingOperationIds = pendingOperations.map((op) => op.id);
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), projectId: this.projectId, pendingOperationIds: this.pendingOperationIds };
  }
}

/** A listing passed its hard page cap (a cursor that never ends, or a far larger listing than expected). */
export class PageLimitError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super("PageLimit", message, details);
  }
}

/** A caller-supplied argument is unusable (e.g. an id that would change the request path). */
export class InvalidArgumentError extends UsageError {
  constructor(message: string) {
    super("InvalidArgument", message);
  }
}

/** The API key or URL is missing or malformed. */
export class ConfigError extends UsageError {
  constructor(message: string) {
    super("Config", message);
  }
}

/** Whether `e` is an `ApiError` for a mutating request that may have taken effect without a usable response. */
export function mayHaveChanged(e: unknown): boolean {
  return isApiError(e) && e.mayHaveChanged;
}

/** True for any error thrown by this library (any copy of it). */
export function isCloudDbError(e: unknown): e is CloudDbError {
  return typeof e === "object" && e !== null && (e as Record<PropertyKey, unknown>)[ERROR_MARKER] === true;
}

/** True for an error about a call to the API (any copy of this library). */
export function isApiError(e: unknown): e is ApiError {
  return isCloudDbError(e) && !USAGE_KINDS.has(e.kind);
}

/** True for an error raised before any request: the configuration or an argument. */
export function isUsageError(e: unknown): e is UsageError {
  return isCloudDbError(e) && USAGE_KINDS.has(e.kind);
}

function kindGuard<T extends CloudDbError>(kind: CloudDbErrorKind): (e: unknown) => e is T {
  return (e: unknown): e is T => isCloudDbError(e) && e.kind === kind;
}

/** True for a 401 (missing, invalid or revoked key). */
export const isUnauthorized = kindGuard<UnauthorizedError>("Unauthorized");
/** True for a 403 (key lacks the scope or role). */
export const isForbidden = kindGuard<ForbiddenError>("Forbidden");
/** True for a 404 (the object is gone or invisible). */
export const isNotFound = kindGuard<NotFoundError>("NotFound");
/** True for a 409 (e.g. a branch name already used). */
export const isConflict = kindGuard<ConflictError>("Conflict");
/** True for a 423 after the retries were spent. */
export const isLocked = kindGuard<LockedError>("Locked");
/** True for a 429 after the retries were spent. */
export const isRateLimited = kindGuard<RateLimitedError>("RateLimited");
/** True for other refused requests (400, 422, other 4xx). */
export const isBadRequest = kindGuard<BadRequestError>("BadRequest");
/** True for a 5xx. */
export const isServerError = kindGuard<ServerError>("ServerError");
/** True when no response was received (reset, refused, timeout). */
export const isNetworkError = kindGuard<NetworkError>("Network");
/** True when a 2xx body did not match its schema or was not JSON. */
export const isResponseValidationError = kindGuard<ResponseValidationError>("ResponseValidation");
/** True when an awaited operation ended `cancelled` or `error`. */
export const isOperationFailed = kindGuard<OperationFailedError>("OperationFailed");
/** True when the deadline passed with operations unfinished. */
export const isOperationTimeout = kindGuard<OperationTimeoutError>("OperationTimeout");
/** True when a listing hit its page cap. */
export const isPageLimit = kindGuard<PageLimitError>("PageLimit");
/** True for an unusable argument. */
export const isInvalidArgument = kindGuard<InvalidArgumentError>("InvalidArgument");
/** True for a missing or malformed API key or URL. */
export const isConfigError = kindGuard<ConfigError>("Config");
