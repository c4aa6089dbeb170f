/**
 * The one place path parameters are put into a URL path. Each value is percent-encoded as a single
 * segment, so an id can never add, remove or climb a segment. A route is named as the document
 * names it (`"GET /projects/{project_id}"`): the name gives the method, the template and, through
 * the request types, the names and types of its parameters.
 */
import { InvalidArgumentError } from "./errors";
import type { Requests as DocumentedRequests } from "./requests.gen";
import type { Requests as SdkRequests } from "./sdk-routes.gen";
import type { HttpMethod } from "./transport";

/** Each route the client may send, by its documented name: the document's, and those only `@neon/sdk`'s types describe. */
export type ClientRequests = DocumentedRequests & SdkRequests;

/** A route's documented name: its method, a space, its path template. */
export type RouteName = keyof ClientRequests & `${HttpMethod} /${string}`;

/** The method a route's name starts with. */
export type RouteMethod<R extends RouteName> = R extends `${infer M extends HttpMethod} ${string}`
  ? M
  : never;

/** A route's path parameters by name, typed as the document types them. */
export type RouteParams<R extends RouteName> = ClientRequests[R]["Params"];

/** A concrete request path plus the template it came from (the template names routes in logs and throttles). */
export interface ApiRoute {
  /** e.g. `/projects/p-1/branches/br-2` */
  path: string;
  /** e.g. `/projects/{project_id}/branches/{branch_id}` */
  template: string;
}

/** Values a path parameter may take: a non-empty string, or a non-negative safe integer (key ids). */
export type PathParam = string | number;

function encodeSegment(name: string, value: PathParam): string {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new InvalidArgumentError(`Path parameter ${name} must be a non-negative integer, got ${value}.`);
    }
    return String(value);
  }
  if (typeof value !== "string" || value.length === 0) {
    throw new InvalidArgumentError(`Path parameter ${name} must be a non-empty string.`);
  }
  // URL parsers collapse "." and ".." (also when percent-encoded), so these would change the path.
  if (value === "." || value === "..") {
    throw new InvalidArgumentError(`Path parameter ${name} cannot be "${value}".`);
  }
  return encodeURIComponent(value);
}

/**
 * Fill a template such as `/projects/{project_id}/operations/{operation_id}` from `params`.
 * Throws `InvalidArgumentError` for a missing, empty or dot-segment value.
 */
export function apiRoute(template: string, params: Readonly<Record<string, PathParam>> = {}): ApiRoute {
  const path = template.replace(/\{([a-z_]+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new InvalidArgumentError(`Path parameter ${name} is missing.`);
    return encodeSegment(name, value);
  });
  return { path, template };
}

/**
 * The method of the route named `name`, and its path filled from `params` by `apiRoute`'s rules
 * (the template, the name after its method, still names the route in logs and throttles).
 */
export function namedRoute<R extends RouteName>(
  name: R,
  params?: RouteParams<R>,
): { method: RouteMethod<R>; route: ApiRoute } {
  const space = name.indexOf(" ");
  return {
    method: name.slice(0, space) as RouteMethod<R>,
    // A documented parameter is a string or an integer (`key_id`); `apiRoute` checks each value.
    route: apiRoute(name.slice(space + 1), params as Readonly<Record<string, PathParam>> | undefined),
  };
}
