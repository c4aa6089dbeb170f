import { NotFoundError } from "../client/errors";

/** The API's not-found `error` saying `message` instead, the facts of its request (the request id) kept. */
export function notFoundSaying(message: string, error: NotFoundError): NotFoundError {
  return new NotFoundError(message, {
    status: error.status,
    code: error.code,
    requestId: error.requestId,
    method: error.method,
    path: error.path,
    pathTemplate: error.pathTemplate,
    attempts: error.attempts,
    elapsedMs: error.elapsedMs,
  });
}
