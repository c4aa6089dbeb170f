import { timingSafeEqual } from "node:crypto";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { authenticate } from "./auth";
import type { EmulatorContext } from "./context";
import { badRequest, HttpError, unauthorized } from "./errors";
import { type FaultResponse, renderFault } from "./faults";
import { hashToken, newUuid } from "./ids";
import { requestValidatorCompiler } from "./openapi/contract";
import { STORAGE_PREFIX } from "./presign";
import { FUNCTIONS_PREFIX } from "./render/functions";
import { splitPath, toTemplate } from "./route-pattern";
import { advisorRoutes } from "./routes/advisors";
import { anonymizedBranchRoutes } from "./routes/anonymized";
import { apiKeyRoutes } from "./routes/api-keys";
import { authJwksRoutes, authRoutes } from "./routes/auth";
import { authProjectRoutes } from "./routes/auth-project";
import { branchRoutes } from "./routes/branches";
import { bucketRoutes } from "./routes/buckets";
import { consumptionRoutes } from "./routes/consumption";
import { controlRoutes } from "./routes/control";
import { credentialRoutes } from "./routes/credentials";
import { customDomainRoutes } from "./routes/custom-domains";
import { dataApiRoutes } from "./routes/data-api";
import { databaseRoutes } from "./routes/databases";
import { endpointRoutes } from "./routes/endpoints";
import { functionRoutes } from "./routes/functions";
import { invocationRoutes, retireFunctions } from "./routes/invocations";
import { operationRoutes } from "./routes/operations";
import { organizationRoutes } from "./routes/organizations";
import { permissionRoutes } from "./routes/permissions";
import { preloadLibraryRoutes } from "./routes/preload-libraries";
import { maybePrincipal, setPrincipal } from "./routes/principal";
import { projectMemberRoutes } from "./routes/project-members";
import { projectRoutes } from "./routes/projects";
import { roleRoutes } from "./routes/roles";
import { schemaRoutes } from "./routes/schemas";
import { snapshotRoutes } from "./routes/snapshots";
import { storageRoutes } from "./routes/storage";
import { transferRoutes } from "./routes/transfers";
import { userRoutes } from "./routes/users";
import { vpcRoutes } from "./routes/vpc";
import { settle } from "./settle";
import type { EmulatorControl } from "./types";

// The fastify app. Request lifecycle for /api/v2:
//   request id (echo X-Request-ID or a new UUID) -> scripted fault? -> 401 auth -> 429 limits
//   -> body parse (400) -> the route's request schemas, from the document (400) -> handler
//   -> error body {request_id, code, message} -> request log.
// The control API lives under /__emulator and is neither faulted, limited nor logged; with a
// control token it needs `Authorization: Bearer <token>`. Presigned objects move under /__storage
// and functions answer under /__functions, neither taking an API key.

/** The API's base path. */
export const API_PREFIX = "/api/v2";
/** The control API's base path. */
export const CONTROL_PREFIX = "/__emulator";

interface RequestMeta {
  api: boolean;
  at: number;
  started: number;
  logged: boolean;
  faulted: boolean;
  /** A fault that replaces the real handler's success: the change is made, its answer is lost. */
  after?: FaultResponse;
  /** Wall ms the real handler's success is held before it is sent. */
  hold?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Builds the app (not listening yet); `controlToken` guards the control API when given. */
export function buildServer(
  ctx: EmulatorContext,
  control: EmulatorControl,
  controlToken?: string,
): FastifyInstance {
  const app = Fastify({
    logger: false,
    requestIdHeader: "x-request-id",
    genReqId: () => newUuid(),
    bodyLimit: 5 * 1024 * 1024,
    forceCloseConnections: true,
    exposeHeadRoutes: false,
    routerOptions: { ignoreTrailingSlash: true },
  });
  const meta = new WeakMap<FastifyRequest, RequestMeta>();

  // Every API route carries the document's request schemas (routes/route.ts declares them); one
  // registered without stops the server from starting.
  app.addHook("onRoute", (route) => {
    if (route.url.startsWith(API_PREFIX) && route.schema === undefined) {
      throw new Error(
        `${String(route.method)} ${route.url} is served without the document's request schemas`,
      );
    }
  });

  const record = (request: FastifyRequest, status: number) => {
    const m = meta.get(request);
    if (!m?.api || m.logged) return;
    m.logged = true;
    const url = request.url;
    const query = url.includes("?") ? url.slice(url.indexOf("?") + 1) : "";
    const path = `/${splitPath(url).join("/")}`;
    const template = request.routeOptions.url;
    const route = `${request.method} ${template === undefined ? path : toTemplate(template)}`;
    const keyId = maybePrincipal(request)?.key.id;
    const durationMs = Math.round((performance.now() - m.started) * 100) / 100;
    ctx.log.add({
      method: request.method,
      route,
      path,
      query,
      status,
      at: m.at,
      durationMs,
      requestId: request.id,
      ...(keyId === undefined ? {} : { keyId }),
      ...(m.faulted ? { faulted: true } : {}),
    });
    if (ctx.logRequests) {
      process.stdout.write(
        `${request.method} ${url} ${status}${m.faulted ? " (fault)" : ""} ${durationMs}ms\n`,
      );
    }
  };

  // Bodies: JSON whatever the content type says; an empty body is "no body" (POST branches allows it).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => {
    const text = String(body).trim();
    if (text === "") {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(badRequest(`malformed JSON in request body: ${(error as Error).message}`), undefined);
    }
  });
  // A function deployment's archive comes as multipart/form-data: its route reads the raw bytes.
  app.addContentTypeParser("multipart/form-data", { parseAs: "buffer" }, (_request, body, done) => {
    done(null, body);
  });

  app.addHook("onRequest", async (request, reply) => {
    // With a data plane, the WAL is read as the request starts: what was written before it
    // belongs to a time no later than the handler's (docs/api-rules.md §9).
    void ctx.data?.noteTime();
    reply.header("x-request-id", request.id);
    const api =
      request.url === API_PREFIX ||
      request.url.startsWith(`${API_PREFIX}/`) ||
      request.url.startsWith(`${API_PREFIX}?`);
    meta.set(request, {
      api,
      at: ctx.clock.now(),
      started: performance.now(),
      logged: false,
      faulted: false,
    });
    if (!api) {
      if (controlToken !== undefined && request.url.startsWith(CONTROL_PREFIX)) {
        checkControlToken(request.headers.authorization, controlToken);
      }
      return;
    }
    settle(ctx);
    const fault = ctx.faults.take(request.method, request.url);
    if (fault) {
      if (fault.delayMs) await sleep(fault.delayMs);
      if (fault.afterHandler) {
        (meta.get(request) as RequestMeta).after = fault;
      } else if (fault.holdMs !== undefined) {
        const m = meta.get(request) as RequestMeta;
        m.hold = fault.holdMs;
        m.faulted = true;
      } else if (!fault.passThrough) {
        (meta.get(request) as RequestMeta).faulted = true;
        return sendFault(request, reply, fault, record);
      }
    }
    const template = request.routeOptions.url;
    if (template === undefined) return; // unknown route: the not-found handler answers
    const principal = authenticate(ctx.store, request.headers.authorization, ctx.clock.now(), request.ip);
    setPrincipal(request, principal);
    if (ctx.limiter) {
      const verdict = ctx.limiter.take(principal.account, `${request.method} ${toTemplate(template)}`);
      if (!verdict.ok) {
        throw new HttpError(
          429,
          `rate limit exceeded (${verdict.bucket}); retry after ${verdict.retryAfterSeconds}s`,
          "",
          {
            "retry-after": String(verdict.retryAfterSeconds),
          },
        );
      }
    }
  });

  // `afterHandler` faults: the handler succeeded (the change is made), then its answer is lost.
  app.addHook("onSend", async (request, reply, payload) => {
    const m = meta.get(request);
    if (m?.hold !== undefined) {
      const hold = m.hold;
      delete m.hold;
      if (reply.statusCode < 400) await sleep(hold);
      return payload;
    }
    const fault = m?.after;
    if (m === undefined || fault === undefined || reply.statusCode >= 400) return payload;
    delete m.after;
    m.faulted = true;
    if (fault.reset) {
      record(request, 0);
      request.raw.socket.destroy();
      return payload;
    }
    const answer = renderFault(fault, request.id, 502);
    reply.code(answer.status).headers(answer.headers).type(answer.contentType);
    return answer.payload;
  });

  // With a data plane, Postgres follows every change before its answer leaves: a client that
  // connects right after a branch creation or restore sees the branch's data.
  app.addHook("onSend", async (request, reply, payload) => {
    if (ctx.data === undefined) return payload;
    try {
      await ctx.data.sync();
      return payload;
    } catch (error) {
      reply.code(500).type("application/json");
      const message = `the data plane could not apply the change to Postgres: ${(error as Error).message}`;
      process.stderr.write(`clouddb-emulator: ${message}\n`);
      return JSON.stringify({ request_id: request.id, code: "", message });
    }
  });

  app.addHook("onResponse", async (request, reply) => {
    record(request, reply.statusCode);
    // A request may have deleted a function or its branch, or changed what one runs with.
    retireFunctions(ctx);
  });

  app.setErrorHandler((error: unknown, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .code(error.status)
        .headers(error.headers)
        .send({ request_id: request.id, code: error.code, message: error.message });
    }
    const status = (error as { statusCode?: unknown }).statusCode;
    const message = (error as { message?: unknown }).message;
    if (typeof status === "number" && status >= 400 && status < 500) {
      return reply.code(status).send({ request_id: request.id, code: "", message: String(message) });
    }
    if (error instanceof RangeError || (error instanceof Error && request.url.startsWith(CONTROL_PREFIX))) {
      return reply.code(400).send({ request_id: request.id, code: "", message: error.message });
    }
    process.stderr.write(
      `clouddb-emulator: internal error on ${request.method} ${request.url}: ${String(error)}\n`,
    );
    return reply.code(500).send({ request_id: request.id, code: "", message: "internal server error" });
  });

  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({
      request_id: request.id,
      code: "",
      message: `no route for ${request.method} ${request.url.split("?")[0]}`,
    }),
  );

  app.register(async (api) => apiRoutes(api, ctx), { prefix: API_PREFIX });
  app.register(async (ctl) => controlRoutes(ctl, control), { prefix: CONTROL_PREFIX });
  app.register(async (storage) => storageRoutes(storage, ctx), { prefix: STORAGE_PREFIX });
  app.register(async (functions) => invocationRoutes(functions, ctx), { prefix: FUNCTIONS_PREFIX });
  app.register(async (jwks) => authJwksRoutes(jwks, ctx));
  return app;
}

/** Registers every API route with the checks of its request schemas (mount under the /api/v2 prefix). */
export function apiRoutes(api: FastifyInstance, ctx: EmulatorContext): void {
  api.setValidatorCompiler(requestValidatorCompiler());
  apiKeyRoutes(api, ctx);
  projectRoutes(api, ctx);
  branchRoutes(api, ctx);
  anonymizedBranchRoutes(api, ctx);
  endpointRoutes(api, ctx);
  roleRoutes(api, ctx);
  databaseRoutes(api, ctx);
  snapshotRoutes(api, ctx);
  schemaRoutes(api, ctx);
  operationRoutes(api, ctx);
  permissionRoutes(api, ctx);
  transferRoutes(api, ctx);
  userRoutes(api, ctx);
  organizationRoutes(api, ctx);
  projectMemberRoutes(api, ctx);
  functionRoutes(api, ctx);
  vpcRoutes(api, ctx);
  consumptionRoutes(api, ctx);
  advisorRoutes(api, ctx);
  preloadLibraryRoutes(api, ctx);
  bucketRoutes(api, ctx);
  credentialRoutes(api, ctx);
  customDomainRoutes(api, ctx);
  dataApiRoutes(api, ctx);
  authRoutes(api, ctx);
  authProjectRoutes(api, ctx);
}

function sendFault(
  request: FastifyRequest,
  reply: FastifyReply,
  fault: FaultResponse,
  record: (request: FastifyRequest, status: number) => void,
): FastifyReply {
  if (fault.reset) {
    record(request, 0);
    reply.hijack();
    request.raw.socket.destroy();
    return reply;
  }
  const answer = renderFault(fault, request.id, 500);
  return reply.code(answer.status).headers(answer.headers).type(answer.contentType).send(answer.payload);
}

/** Throws 401 unless the header carries the control token (compared in constant time, as digests). */
function checkControlToken(header: string | undefined, token: string): void {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "")?.[1];
  const ok =
    given !== undefined &&
    timingSafeEqual(Buffer.from(hashToken(given), "hex"), Buffer.from(hashToken(token), "hex"));
  if (!ok) throw unauthorized("the control API needs Authorization: Bearer <control token>");
}
