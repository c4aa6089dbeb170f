/**
 * Cursor pagination as async iterators. A listing stops on the first of: a page without a cursor, an
 * empty page, a short page (fewer items than the limit), a cursor already seen, or `maxItems`; it
 * throws `PageLimitError` past `maxPages`, so a cursor that never ends cannot loop forever.
 *
 * Not got's `paginate`: each page goes through the request loop (throttle, retry, zod), and these
 * stop rules (short page, repeated cursor) are the API's, not a `Link` header's.
 */
import type { z } from "zod";
import { InvalidArgumentError, PageLimitError } from "./errors";
import type { RouteName } from "./path";
import { type ParamsPart, type RequestContext, type RouteQuery, type RouteRequest, send } from "./request";

/** What to ask for next. */
export interface PageRequest {
  cursor: string | undefined;
  limit: number;
}

/** How to walk one listing. */
export interface PaginateOptions<TPage, TItem> {
  /** Names the listing in errors, e.g. `operations of project p-1`. */
  what: string;
  /** Page size sent as `limit`. */
  limit: number;
  /** Hard cap on pages fetched. */
  maxPages: number;
  /** Stop after yielding this many items. */
  maxItems?: number | undefined;
  fetchPage: (request: PageRequest) => Promise<TPage>;
  items: (page: TPage) => readonly TItem[];
  nextCursor: (page: TPage) => string | null | undefined;
  /** Sees every page as it arrives (e.g. to collect `unavailable_project_ids`). */
  onPage?: ((page: TPage) => void) | undefined;
}

/** Pages the API allows at most, per listing, unless the caller says otherwise. */
export const DEFAULT_MAX_PAGES = 1_000;

/** Check a page size against the endpoint's bounds; throws `InvalidArgumentError` otherwise. */
export function checkPageSize(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}, got ${value}.`);
  }
  return value;
}

/** Yield every item of a cursor-paginated listing, one page at a time (memory stays flat). */
export async function* paginate<TPage, TItem>(
  options: PaginateOptions<TPage, TItem>,
): AsyncGenerator<TItem, void> {
  const { limit, maxPages, maxItems } = options;
  if (maxItems !== undefined && maxItems <= 0) return;
  const seen = new Set<string>();
  let cursor: string | undefined;
  let yielded = 0;
  for (let pageNumber = 1; ; pageNumber++) {
    if (pageNumber > maxPages) {
      throw new PageLimitError(
        `Listing ${options.what} stopped after ${maxPages} pages of ${limit}: the cursor keeps advancing past the page cap. Narrow the listing (maxItems), or report this if the cursor is not moving.`,
      );
    }
    const page = await options.fetchPage({ cursor, limit });
    options.onPage?.(page);
    const items = options.items(page);
    for (const item of items) {
      yield item;
      yielded++;
      if (maxItems !== undefined && yielded >= maxItems) return;
    }
    if (items.length === 0 || items.length < limit) return;
    const next = options.nextCursor(page);
    if (next === undefined || next === null || next === "") return;
    if (next === cursor || seen.has(next)) return;
    seen.add(next);
    cursor = next;
  }
}

/**
 * A listing as an async iterable: each `for await` resolves a fresh context (the key, the deadline)
 * and walks the pages `walk` describes with it.
 */
export function pages<C, TPage, TItem>(
  context: () => C,
  walk: (ctx: C) => PaginateOptions<TPage, TItem>,
): AsyncIterable<TItem> {
  return { [Symbol.asyncIterator]: () => paginate(walk(context()))[Symbol.asyncIterator]() };
}

/** A route listed by cursor: its query names a page's `limit` and `cursor`. */
export type PagedRouteName = {
  [R in RouteName]: string extends keyof RouteQuery<R>
    ? never
    : "limit" | "cursor" extends keyof RouteQuery<R>
      ? RouteQuery<R> extends { limit?: number | undefined; cursor?: string | undefined }
        ? R
        : never
      : never;
}[RouteName];

/** A page's request to route `R`: its parameters, and its query but for `limit` and `cursor`. */
export type PageParts<R extends PagedRouteName, S extends z.ZodType> = ParamsPart<R> & {
  query?: (RouteQuery<R> & { limit?: undefined; cursor?: undefined }) | undefined;
  schema: S;
};

/** One page of a listing on route `name`: its request asks for the page's `limit` after its `cursor`, then `query`. */
export function sendPage<R extends PagedRouteName, S extends z.ZodType>(
  request: RequestContext,
  name: R,
  page: PageRequest,
  parts: PageParts<NoInfer<R>, S>,
): Promise<z.output<S>> {
  const query = { limit: page.limit, cursor: page.cursor, ...parts.query };
  return send(request, name, { ...parts, query } as unknown as RouteRequest<R, S>);
}
