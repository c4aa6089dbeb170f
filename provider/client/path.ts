/**
 * The one place path parameters are put into a URL path. Each value is percent-encoded as a single
 * segment, so an id can never add, remove or climb a segment.
 */
import { InvalidArgumentError } from "./errors";

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
