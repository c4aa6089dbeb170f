/**
 * The request loop: one logical request = throttle, attempt, classify, and retry per `retry.ts`
 * until success, a non-retryable failure, spent attempts or the deadline (the request's, else the
 * client's). Success bodies are parsed with zod at this boundary.
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { ApiError } from "./errors";
import { ResponseValidationError } from "./errors";
import type { EventSink } from "./events";
import type { ListingCache } from "./listing-cache";
import { type ApiRoute, type ClientRequests, namedRoute, type RouteName, type RouteParams } from "./path";
import { redactSecrets } from "./redact";
import { errorFromNetwork, errorFromResponse, type FailureContext, headerValue } from "./response-error";
import { boundedRetryAfter, computeRetryDelay, type RetryFailure, type RetryPolicy } from "./retry";
import type { SharedLimiter } from "./shared-limiter";
import { sleep } from "./sleep";
import type { Throttle } from "./throttle";
import { type HttpMethod, isTransportFailure, type Transport, type TransportResponse } from "./transport";

/** Everything a request needs from its client. */
export interface RequestContext {
  apiUrl: string;
  transport: Transport;
  /** Undefined when throttling is disabled. */
  throttle: Throttle | undefined;
  /** The account's budget shared with other processes; undefined without a limiter URL. */
  sharedLimiter?: SharedLimiter | undefined;
  policy: RetryPolicy;
  attemptTimeoutMs: number;
  emit: EventSink;
  /** Strings that must never appear in a message (the API key). */
  secrets: readonly string[];
  /** Source of jitter; `Math.random` unless a test pins it. */
  random?: (() => number) | undefined;
  /** The account's cached listings; every mutation invalidates them. */
  listingCache?: ListingCache | undefined;
  /** Epoch ms bound of every request that names none (the resource's, else the client's timeout). */
  deadline?: number | undefined;
}

/** A query parameter's value; a list is sent as one comma-separated value, which the service accepts for every list. */
type QueryValue = string | number | boolean | readonly string[] | undefined;

/** One logical request. */
export interface RequestSpec<S extends z.ZodType> {
  method: HttpMethod;
  route: ApiRoute;
  query?: Readonly<Record<string, QueryValue>> | undefined;
  body?: unknown;
  /** A multipart/form-data body instead of a JSON one. */
  form?: FormData | undefined;
  schema: S;
  /** Stop retrying when the next attempt would start after this epoch-ms time. */
  deadline?: number | undefined;
}

function formatIssues(error: z.ZodError): string[] {
  return error.issues.slice(0, 5).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join(".") : "(body)";
    return `${where}: ${issue.message}`;
  });
}

function cleanQuery(query: RequestSpec<z.ZodType>["query"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(",") : String(value);
  }
  return out;
}

/** Send `spec`; resolves with the parsed body, or `null` for a 204 / empty 2xx when `allowEmpty`. */
export async function sendRequest<S extends z.ZodType>(
  ctx: RequestContext,
  spec: RequestSpec<S>,
  allowEmpty: boolean,
): Promise<z.output<S> | null> {
  if (spec.method === "GET" || ctx.listingCache === undefined) return attemptAndRetry(ctx, spec, allowEmpty);
  // A change, made or maybe made, outdates every cached listing: before it starts and when it ends.
  ctx.listingCache.invalidate();
  try {
    return await attemptAndRetry(ctx, spec, allowEmpty);
  } finally {
    ctx.listingCache.invalidate();
  }
}

async function attemptAndRetry<S extends z.ZodType>(
  ctx: RequestContext,
  spec: RequestSpec<S>,
  allowEmpty: boolean,
): Promise<z.output<S> | null> {
  const requestId = randomUUID();
  const started = Date.now();
  const { method, route } = spec;
  const query = cleanQuery(spec.query);
  const deadline = spec.deadline ?? ctx.deadline;

  let notBefore = started;
  for (let attempt = 1; ; attempt++) {
    if (ctx.throttle !== undefined) {
      let waitedMs = await ctx.throttle.acquire(method, route.template, { since: started, notBefore });
      if (ctx.sharedLimiter !== undefined) {
        waitedMs += await ctx.sharedLimiter.acquire(method, route.template, ctx.emit);
      }
      if (waitedMs > 0) ctx.emit({ type: "throttled", method, pathTemplate: route.template, waitedMs });
    }

    const attemptStarted = Date.now();
    let response: TransportResponse | undefined;
    let network: { code: string; message: string } | undefined;
    try {
      response = await ctx.transport({
        method,
        path: route.path,
        query,
        headers: { "x-request-id": requestId },
        ...(spec.body === undefined ? {} : { json: spec.body }),
        ...(spec.form === undefined ? {} : { form: spec.form }),
        timeoutMs: ctx.attemptTimeoutMs,
      });
    } catch (error) {
      if (!isTransportFailure(error)) throw error;
      network = { code: error.code, message: error.message };
    }

    if (response !== undefined) {
      const responseId = headerValue(response.headers, "x-request-id") ?? requestId;
      ctx.emit({
        type: "response",
        method,
        path: route.path,
        pathTemplate: route.template,
        status: response.status,
        attempt,
        elapsedMs: Date.now() - attemptStarted,
        requestId: responseId,
      });
      if (response.status >= 200 && response.status < 300) {
        return parseSuccess(ctx, spec, response, allowEmpty, { attempt, started, requestId: responseId });
      }
    }
    const failure: RetryFailure =
      response !== undefined ? { status: response.status } : { network: network?.code ?? "EUNKNOWN" };

    const retryAfter = response === undefined ? undefined : headerValue(response.headers, "retry-after");
    if (response?.status === 429 && ctx.throttle !== undefined) {
      // The pause holds back other requests too: never longer than this request itself would wait.
      const now = Date.now();
      const untilDeadline = deadline === undefined ? undefined : Math.max(0, deadline - now);
      const pauseMs = boundedRetryAfter(retryAfter, ctx.policy, now, untilDeadline);
      const limit = ctx.throttle.penalize(method, route.template, pauseMs);
      ctx.emit({ type: "rate-limited", method, pathTemplate: route.template, pauseMs, limit });
    }

    const decision = computeRetryDelay({
      attempt,
      method,
      error: failure,
      retryAfter,
      policy: ctx.policy,
      random: ctx.random,
      now: Date.now(),
      deadline,
    });
    if (!decision.retry) {
      const failureCtx: FailureContext = {
        method,
        path: route.path,
        pathTemplate: route.template,
        attempts: attempt,
        elapsedMs: Date.now() - started,
        sentRequestId: requestId,
        retryable: decision.rule !== undefined,
        deadlinePassed: decision.reason === "deadline",
        apiUrl: ctx.apiUrl,
        attemptTimeoutMs: ctx.attemptTimeoutMs,
        secrets: ctx.secrets,
      };
      const error: ApiError =
        response === undefined
          ? errorFromNetwork(network?.code ?? "EUNKNOWN", network?.message ?? "", failureCtx)
          : errorFromResponse(response.status, response.headers, response.body, failureCtx);
      throw error;
    }

    ctx.emit({
      type: "retry",
      method,
      path: route.path,
      pathTemplate: route.template,
      attempt,
      delayMs: decision.delayMs,
      rule: decision.rule,
      elapsedMs: Date.now() - started,
      status: response?.status,
      networkCode: network?.code,
      requestId,
    });
    // With a throttle the backoff is waited out inside it, so the retry keeps its place in line.
    notBefore = Date.now() + decision.delayMs;
    if (ctx.throttle === undefined) await sleep(decision.delayMs);
  }
}

function parseSuccess<S extends z.ZodType>(
  ctx: RequestContext,
  spec: RequestSpec<S>,
  response: TransportResponse,
  allowEmpty: boolean,
  info: { attempt: number; started: number; requestId: string },
): z.output<S> | null {
  // A 2xx to a POST/PATCH/DELETE means the change was made even if its body is unreadable.
  const changed = spec.method !== "GET" && response.status >= 200 && response.status < 300;
  const details = {
    status: response.status,
    requestId: info.requestId,
    method: spec.method,
    path: spec.route.path,
    pathTemplate: spec.route.template,
    attempts: info.attempt,
    elapsedMs: Date.now() - info.started,
    mayHaveChanged: changed,
  };
  const where = `${spec.method} ${spec.route.path}`;
  const next =
    (changed
      ? "It was not re-sent because the change may have been made (the service answered success). "
      : "") +
    `The API may have changed: upgrade pulumi-clouddb, or report this with request id ${info.requestId}.`;
  if (response.body.trim() === "") {
    if (allowEmpty) return null;
    throw new ResponseValidationError(
      `${where} returned ${response.status} with an empty body where JSON was expected. ${next}`,
      ["(body): empty"],
      details,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch {
    const type = headerValue(response.headers, "content-type") ?? "unknown content type";
    throw new ResponseValidationError(
      `${where} returned ${response.status} with a body that is not JSON (${redactSecrets(type, ctx.secrets)}). ${next}`,
      ["(body): not JSON"],
      details,
    );
  }
  const parsed = spec.schema.safeParse(json);
  if (!parsed.success) {
    const issues = formatIssues(parsed.error).map((issue) => redactSecrets(issue, ctx.secrets));
    throw new ResponseValidationError(
      `${where} returned ${response.status} with a body that does not match the expected shape (${issues.join("; ")}). ${next}`,
      issues,
      details,
    );
  }
  return parsed.data as z.output<S>;
}

/** A route's query parameters by name, typed as the document types them. */
export type RouteQuery<R extends RouteName> = ClientRequests[R]["Querystring"];

/** The document writes "none" (no path parameter, no query) as `Record<string, unknown>`: no named key. */
type Unnamed<T> = string extends keyof T ? true : false;
type NoFields = Record<never, never>;

/** `params`: required, typed by the route, when its template names any; else none. */
export type ParamsPart<R extends RouteName> =
  Unnamed<RouteParams<R>> extends true ? { params?: undefined } : { params: RouteParams<R> };

/** `query`: the route's, required when a parameter of it is; none for a route without one. */
type QueryPart<R extends RouteName> =
  Unnamed<RouteQuery<R>> extends true
    ? { query?: undefined }
    : NoFields extends RouteQuery<R>
      ? { query?: RouteQuery<R> | undefined }
      : { query: RouteQuery<R> };

/** `body`: the route's, for a route that has one. */
type BodyPart<R extends RouteName> = ClientRequests[R] extends { Body: infer B }
  ? { body?: B | undefined }
  : { body?: undefined };

/** What a request to route `R` sends besides its name, each part typed by the route. */
export type RouteParts<R extends RouteName, S extends z.ZodType> = ParamsPart<R> &
  QueryPart<R> &
  BodyPart<R> & {
    /** A multipart/form-data body instead of a JSON one. */
    form?: FormData | undefined;
    schema: S;
  };

/** One request to route `R`, by its name; `deadline` as `RequestSpec`'s. */
export type RouteRequest<R extends RouteName, S extends z.ZodType> = RouteParts<R, S> & {
  deadline?: number | undefined;
};

/**
 * The request named `name`: its method and path from the name, the path filled from `params`
 * (throws `InvalidArgumentError` for a value `apiRoute` refuses), and the other parts as given.
 */
export function routeSpec<R extends RouteName, S extends z.ZodType>(
  name: R,
  request: RouteParts<R, S>,
): RequestSpec<S> {
  const { params, ...parts } = request;
  return { ...namedRoute(name, params), ...parts } as RequestSpec<S>;
}

/**
 * Send the request to route `name` (`"GET /projects/{project_id}"`) whose success always has a
 * JSON body. Throws a typed `ApiError` otherwise.
 */
export function send<R extends RouteName, S extends z.ZodType>(
  ctx: RequestContext,
  name: R,
  request: RouteRequest<NoInfer<R>, S>,
): Promise<z.output<S>> {
  return sendRequest(ctx, routeSpec(name, request), false) as Promise<z.output<S>>;
}

/** `send` for a request whose success may be a 204 / empty body (resolves `null` then). */
export function sendOrEmpty<R extends RouteName, S extends z.ZodType>(
  ctx: RequestContext,
  name: R,
  request: RouteRequest<NoInfer<R>, S>,
): Promise<z.output<S> | null> {
  return sendRequest(ctx, routeSpec(name, request), true);
}
