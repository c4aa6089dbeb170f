import type {
  FastifyInstance,
  HTTPMethods,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteHandlerMethod,
} from "fastify";
import { type DocumentedRoute, type ContractRequests as Requests, requestSchema } from "../openapi/contract";

// A route is declared by its documented name alone ("POST /projects/{project_id}/branches"): the
// name gives the method and URL, the document's request schemas for fastify's `schema` slot, and
// the route generics that type the handler's params, query and body by those same schemas. A
// route the document lacks is declared the same way when @neon/sdk's types describe it.

/** A documented route's handler, its request parts typed by the schemas they are checked against. */
export type Handler<R extends DocumentedRoute> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  Requests[R]
>;

/** Registers a documented route with its request schemas; throws when the document has no such route. */
export function route<R extends DocumentedRoute>(app: FastifyInstance, name: R, handler: Handler<R>): void {
  const space = name.indexOf(" ");
  app.route<Requests[R]>({
    method: name.slice(0, space) as HTTPMethods,
    url: name.slice(space + 1).replace(/\{(\w+)\}/g, ":$1"),
    schema: requestSchema(name),
    handler,
  });
}
