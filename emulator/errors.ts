/**
 * The one error type handlers throw. The server turns it into the real API's error body,
 * `{request_id, code, message}`, with the `x-request-id` header.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, code = "", headers: Record<string, string> = {}) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

/** The real API's 423 message, word for word. */
export const LOCKED_MESSAGE =
  "project already has running conflicting operations, scheduling of new ones is prohibited";

/** 400: the request itself is malformed (JSON, field types, lengths, enum values, query parameters). */
export const badRequest = (message: string): HttpError => new HttpError(400, message);
/** 401: missing, malformed, unknown or revoked key. */
export const unauthorized = (message: string): HttpError => new HttpError(401, message);
/** 403: the key is valid but its scope does not allow this. */
export const forbidden = (message: string): HttpError => new HttpError(403, message);
/** 404: the object does not exist. */
export const notFound = (message: string): HttpError => new HttpError(404, message);
/** 423: the project has unfinished operations. */
export const locked = (): HttpError => new HttpError(423, LOCKED_MESSAGE);

/** The default body a status gets when a fault is scripted without one. */
export function defaultMessage(status: number): string {
  switch (status) {
    case 423:
      return LOCKED_MESSAGE;
    case 429:
      return "too many requests";
    case 500:
      return "internal server error";
    case 502:
      return "bad gateway";
    case 503:
      return "service unavailable, please retry";
    case 504:
      return "gateway timeout";
    default:
      return `emulated fault (HTTP ${status})`;
  }
}
