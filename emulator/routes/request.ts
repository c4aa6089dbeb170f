import type { FastifyRequest } from "fastify";

// Typed views of a request's parts. The server checks every API request against the official
// document's request schemas before a handler runs (see ../openapi/validate.ts), so a handler may
// read the parts as the document's types.

/** The path parameters, checked against the document's patterns. */
export function paramsOf(request: FastifyRequest): Record<string, string> {
  return request.params as Record<string, string>;
}

/** The query, checked against the document and coerced to its types, with documented defaults applied. */
export function queryOf<T>(request: FastifyRequest): Partial<T> {
  return (request.query ?? {}) as Partial<T>;
}

/** The body, checked against the document's request schema; `{}` when an optional body was left out. */
export function bodyOf<T>(request: FastifyRequest): T {
  return (request.body ?? {}) as T;
}
