// Route patterns shared by the request log filter and the fault matcher:
// "*", "METHOD /path" or "* /path", where a path segment `{name}`, `:name` or `*` matches any one
// segment and other segments match literally. So "POST /projects/{project_id}/branches" matches
// every project, and "POST /projects/hidden-river-50598307/branches" only that one.

/** A compiled route pattern. */
export interface RoutePattern {
  readonly source: string;
  matches(method: string, path: string): boolean;
}

/** Compiles a pattern; throws on one that is neither "*" nor "METHOD /path". */
export function compileRoutePattern(source: string): RoutePattern {
  const trimmed = source.trim();
  if (trimmed === "*") return { source, matches: () => true };
  const match = /^([A-Za-z*]+)\s+(\S+)$/.exec(trimmed);
  if (!match) throw new Error(`route pattern must be "*" or "METHOD /path", got ${JSON.stringify(source)}`);
  const method = (match[1] as string).toUpperCase();
  const segments = splitPath(match[2] as string);
  const wildcard = (s: string) => s === "*" || /^\{[^}]+\}$/.test(s) || s.startsWith(":");
  return {
    source,
    matches(reqMethod, reqPath) {
      if (method !== "*" && method !== reqMethod.toUpperCase()) return false;
      const actual = splitPath(reqPath);
      if (actual.length !== segments.length) return false;
      return segments.every((s, i) => wildcard(s) || s === actual[i]);
    },
  };
}

/** The API-relative path segments, without a query string, an `/api/v2` prefix or empty segments. */
export function splitPath(path: string): string[] {
  const noQuery = path.split("?")[0] ?? "";
  const relative = noQuery.startsWith("/api/v2") ? noQuery.slice("/api/v2".length) : noQuery;
  return relative.split("/").filter((s) => s.length > 0);
}

/** Fastify's `/api/v2/projects/:project_id` as the OpenAPI template `/projects/{project_id}`. */
export function toTemplate(fastifyUrl: string): string {
  const relative = fastifyUrl.startsWith("/api/v2") ? fastifyUrl.slice("/api/v2".length) : fastifyUrl;
  return relative.replace(/:([A-Za-z0-9_]+)/g, "{$1}") || "/";
}
