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

/**
 * Every kind of `ApiError`, written once, with the answer that means it: its HTTP status, `"4xx"`
 * for any other refused request, `"5xx"` for a failure of the service, `null` when no status does
 * (no answer, an unreadable one, or the operations or listing a call started). Each class below is
 * made from its kind (`apiErrorClass`), each guard from its class (`guardOf`), and the kind of an
 * answer is read from it (`answerErrorKind`).
 */
const API_ERROR_STATUSES = {
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  Locked: 423,
  RateLimited: 429,
  BadRequest: "4xx",
  ServerError: "5xx",
  Network: null,
  ResponseValidation: null,
  OperationFailed: null,
  OperationTimeout: null,
  PageLimit: null,
} as const satisfies Record<string, number | "4xx" | "5xx" | null>;

/** Every `kind` an `ApiError` can have. */
export type ApiErrorKind = keyof typeof API_ERROR_STATUSES;

/** The kinds of `ApiError` an answer's status means. */
export type AnswerErrorKind = {
  [K in ApiErrorKind]: (typeof API_ERROR_STATUSES)[K] extends null ? never : K;
}[ApiErrorKind];

/** The table read backwards: each status (and `"4xx"`, `"5xx"`) with its kind. */
const KIND_OF_STATUS = new Map<number | string, AnswerErrorKind>();
for (const [kind, status] of Object.entries(API_ERROR_STATUSES)) {
  // Every kind with a status is an AnswerErrorKind.
  if (status !== null) KIND_OF_STATUS.set(status, kind as AnswerErrorKind);
}

/**
 * The kind of `ApiError` a non-2xx answer is: the one its status means, else a failure of the service
 * (`"5xx"`) for 500 and above, else a refused request (`"4xx"`, an unexpected 1xx or 3xx too).
 */
export function answerErrorKind(status: number): AnswerErrorKind {
  // The table gives both "4xx" and "5xx" a kind.
  return KIND_OF_STATUS.get(status) ?? KIND_OF_STATUS.get(status >= 500 ? "5xx" : "4xx")!;
}

/** The kinds of a `UsageError`: nothing was sent. */
const USAGE_ERROR_KINDS = ["InvalidArgument", "Config"] as const;

/** Every `kind` a `UsageError` can have. */
export type UsageErrorKind = (typeof USAGE_ERROR_KINDS)[number];

/** Every `kind` an error of this library can have. */
export type CloudDbErrorKind = ApiErrorKind | UsageErrorKind;

const USAGE_KINDS: ReadonlySet<string> = new Set<string>(USAGE_ERROR_KINDS);

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

/** The class of the `ApiError` kind `kind`; each kind's class extends it, named and documented. */
function apiErrorClass<K extends ApiErrorKind>(kind: K) {
  return class extends ApiError {
    /** The kind every error of this class has. */
    static readonly kind: K = kind;
    declare readonly kind: K;
    constructor(message: string, details: ApiErrorDetails = {}) {
      super(kind, message, details);
    }
  };
}

/** 401: the key is missing, invalid or revoked. */
export class UnauthorizedError extends apiErrorClass("Unauthorized") {}

/** 403: the key is valid but not allowed to do this (scope, org role). */
export class ForbiddenError extends apiErrorClass("Forbidden") {}

/** 404: the object does not exist or is not visible to this key. */
export class NotFoundError extends apiErrorClass("NotFound") {}

/** 409: conflicts with existing state, e.g. `BRANCH_ALREADY_EXISTS`. */
export class ConflictError extends apiErrorClass("Conflict") {}

/** 423: conflicting operations are running on the project and the retries were spent. */
export class LockedError extends apiErrorClass("Locked") {}

/** 429: a rate limit was exceeded and the retries were spent. */
export class RateLimitedError extends apiErrorClass("RateLimited") {}

/** Any other non-2xx answer (400, 422, other 4xx, unexpected 1xx/3xx): the request itself was refused. */
export class BadRequestError extends apiErrorClass("BadRequest") {}

/** 5xx from the service or a gateway (including HTML pages such as a 524). */
export class ServerError extends apiErrorClass("ServerError") {}

/** No response: connection refused/reset, DNS failure, or the per-attempt timeout. */
export class NetworkError extends apiErrorClass("Network") {
  /** The system error code, e.g. `ECONNRESET`, `ETIMEDOUT`. */
  readonly networkCode: string;
  constructor(message: string, networkCode: string, details: ApiErrorDetails = {}) {
    super(message, details);
    this.networkCode = networkCode;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), networkCode: this.networkCode };
  }
}

/** A 2xx body that is not JSON or does not match the expected schema. */
export class ResponseValidationError extends apiErrorClass("ResponseValidation") {
  /** First schema issues as `field.path: problem`. */
  readonly issues: readonly string[];
  constructor(message: string, issues: readonly string[], details: ApiErrorDetails = {}) {
    super(message, details);
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
export class OperationFailedError extends apiErrorClass("OperationFailed") {
  readonly projectId: string;
  /** The operation that failed, as last seen. */
  readonly operation: ReportedOperation;
  constructor(
    message: string,
    projectId: string,
    operation: ReportedOperation,
    details: ApiErrorDetails = {},
  ) {
    super(message, details);
    this.projectId = projectId;
    this.operation = operation;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), projectId: this.projectId, operation: this.operation };
  }
}

/** The deadline passed while operations were still unfinished. */
export class OperationTimeoutError extends apiErrorClass("OperationTimeout") {
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
    super(message, details);
    this.projectId = projectId;
    this.pendingOperations = pendingOperations;
    this.pendingOperationIds = pendingOperations.map((op) => op.id);
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), projectId: this.projectId, pendingOperationIds: this.pendingOperationIds };
  }
}

/** A listing passed its hard page cap (a cursor that never ends, or a far larger listing than expected). */
export class PageLimitError extends apiErrorClass("PageLimit") {}

/** The class of the `UsageError` kind `kind`; each kind's class extends it, named and documented. */
function usageErrorClass<K extends UsageErrorKind>(kind: K) {
  return class extends UsageError {
    /** The kind every error of this class has. */
    static readonly kind: K = kind;
    declare readonly kind: K;
    constructor(message: string) {
      super(kind, message);
    }
  };
}

/** A caller-supplied argument is unusable (e.g. an id that would change the request path). */
export class InvalidArgumentError extends usageErrorClass("InvalidArgument") {}

/** The API key or URL is missing or malformed. */
export class ConfigError extends usageErrorClass("Config") {}

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

/** The guard of an error class made by `apiErrorClass` or `usageErrorClass`: its kind, by marker. */
function guardOf<T extends CloudDbError>(errorClass: {
  readonly kind: CloudDbErrorKind;
  readonly prototype: T;
}): (e: unknown) => e is T {
  const { kind } = errorClass;
  return (e: unknown): e is T => isCloudDbError(e) && e.kind === kind;
}

/** True for a 401 (missing, invalid or revoked key). */
export const isUnauthorized = guardOf(UnauthorizedError);
/** True for a 403 (key lacks the scope or role). */
export const isForbidden = guardOf(ForbiddenError);
/** True for a 404 (the object is gone or invisible). */
export const isNotFound = guardOf(NotFoundError);
/** True for a 409 (e.g. a branch name already used). */
export const isConflict = guardOf(ConflictError);
/** True for a 423 after the retries were spent. */
export const isLocked = guardOf(LockedError);
/** True for a 429 after the retries were spent. */
export const isRateLimited = guardOf(RateLimitedError);
/** True for other refused requests (400, 422, other 4xx). */
export const isBadRequest = guardOf(BadRequestError);
/** True for a 5xx. */
export const isServerError = guardOf(ServerError);
/** True when no response was received (reset, refused, timeout). */
export const isNetworkError = guardOf(NetworkError);
/** True when a 2xx body did not match its schema or was not JSON. */
export const isResponseValidationError = guardOf(ResponseValidationError);
/** True when an awaited operation ended `cancelled` or `error`. */
export const isOperationFailed = guardOf(OperationFailedError);
/** True when the deadline passed with operations unfinished. */
export const isOperationTimeout = guardOf(OperationTimeoutError);
/** True when a listing hit its page cap. */
export const isPageLimit = guardOf(PageLimitError);
/** True for an unusable argument. */
export const isInvalidArgument = guardOf(InvalidArgumentError);
/** True for a missing or malformed API key or URL. */
export const isConfigError = guardOf(ConfigError);
