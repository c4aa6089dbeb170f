import type { FastifyInstance } from "fastify";
import { badRequest } from "../errors";
import type { FaultResponse } from "../faults";
import type { OperationMatch, ScriptedOutcome } from "../operations";
import type { RequestFilter } from "../request-log";
import type { SeedFile } from "../seed";
import type { EmulatorControl } from "../types";
import {
  bodyObject,
  isObject,
  optionalString,
  pathInt,
  queryInt,
  queryString,
  requiredString,
} from "../validate";

// The control API over HTTP, under /__emulator/ (never under /api/v2), for tests in other
// processes and for pipelines driving a CLI-started emulator. No authentication: it binds to
// loopback by default. Every action is the library's `EmulatorControl` method of the same name.

function param(params: unknown, name: string): string {
  const value = isObject(params) ? params[name] : undefined;
  if (typeof value !== "string" || value === "") throw badRequest(`${name} is required`);
  return value;
}

function num(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) throw badRequest(`${name} must be a number`);
  return value;
}

/** Registers the control routes (mount under the /__emulator prefix). */
export function controlRoutes(app: FastifyInstance, control: EmulatorControl): void {
  app.get("/health", async () => ({ ok: true }));

  app.get("/requests", async (request) => {
    const filter: RequestFilter = {};
    const route = queryString(request.query, "route");
    const method = queryString(request.query, "method");
    if (route !== undefined) filter.route = route;
    if (method !== undefined) filter.method = method;
    const status = queryInt(request.query, "status", 0, 599, -1);
    if (status >= 0) filter.status = status;
    const since = queryInt(request.query, "since", 0, Number.MAX_SAFE_INTEGER, -1);
    if (since >= 0) filter.since = since;
    return { requests: control.requests(filter) };
  });

  app.delete("/requests", async (_request, reply) => {
    control.clearRequests();
    return reply.code(204).send();
  });

  app.post("/faults", async (request, reply) => {
    const body = bodyObject(request.body);
    const route = requiredString(body, "route");
    const response = body["response"] ?? {};
    if (!isObject(response)) throw badRequest("response must be an object");
    const count = body["count"] === undefined ? 1 : num(body["count"], "count");
    control.failNext(route, response as FaultResponse, count);
    return reply.code(204).send();
  });

  app.delete("/faults", async (_request, reply) => {
    control.clearFaults();
    return reply.code(204).send();
  });

  app.post("/operations/script", async (request, reply) => {
    const body = bodyObject(request.body);
    const match = body["match"] ?? {};
    const outcome = body["outcome"];
    if (!isObject(match)) throw badRequest("match must be an object");
    if (!isObject(outcome) || typeof outcome["kind"] !== "string")
      throw badRequest("outcome.kind is required");
    if (!["fail", "cancelled", "error", "skipped", "stuck"].includes(outcome["kind"])) {
      throw badRequest("outcome.kind must be one of fail, cancelled, error, skipped, stuck");
    }
    control.scriptOperations(match as OperationMatch, outcome as unknown as ScriptedOutcome);
    return reply.code(204).send();
  });

  app.delete("/operations/script", async (_request, reply) => {
    control.clearOperationScripts();
    return reply.code(204).send();
  });

  app.post("/projects/:project_id/platform_operations", async (request) => {
    const body = bodyObject(request.body, true);
    const action = optionalString(body, "action", { min: 1 });
    const duration = body["duration_ms"] === undefined ? undefined : num(body["duration_ms"], "duration_ms");
    return {
      operation: control.startPlatformOperation(param(request.params, "project_id"), action, duration),
    };
  });

  app.post("/projects/:project_id/operations/bulk", async (request) => {
    const body = bodyObject(request.body);
    return { added: control.addOperations(param(request.params, "project_id"), num(body["count"], "count")) };
  });

  app.get("/clock", async () => {
    const now = control.now();
    return { now, iso: new Date(now).toISOString() };
  });

  app.post("/clock/advance", async (request) => {
    control.advance(num(bodyObject(request.body)["ms"], "ms"));
    const now = control.now();
    return { now, iso: new Date(now).toISOString() };
  });

  app.post("/projects/:project_id/transfer", async (request, reply) => {
    const body = bodyObject(request.body);
    const orgId = body["org_id"];
    if (orgId !== null && typeof orgId !== "string")
      throw badRequest("org_id must be an organization id or null");
    control.transferProject(param(request.params, "project_id"), orgId, optionalString(body, "user_id"));
    return reply.code(204).send();
  });

  app.post("/organizations/:org_id/members", async (request, reply) => {
    const body = bodyObject(request.body);
    const role = requiredString(body, "role");
    if (role !== "admin" && role !== "member") throw badRequest("role must be admin or member");
    control.addMember(param(request.params, "org_id"), requiredString(body, "user_id"), role);
    return reply.code(204).send();
  });

  app.delete("/organizations/:org_id/members/:user_id", async (request, reply) => {
    control.removeMember(param(request.params, "org_id"), param(request.params, "user_id"));
    return reply.code(204).send();
  });

  app.post("/api_keys", async (request) => {
    const body = bodyObject(request.body);
    const orgId = optionalString(body, "org_id");
    const projectId = optionalString(body, "project_id");
    const name = optionalString(body, "name", { min: 1, max: 64 });
    return control.createApiKey({
      userId: requiredString(body, "user_id"),
      ...(orgId === undefined ? {} : { orgId }),
      ...(projectId === undefined ? {} : { projectId }),
      ...(name === undefined ? {} : { name }),
    });
  });

  app.post("/api_keys/:key_id/revoke", async (request, reply) => {
    control.revokeApiKey(pathInt(request.params, "key_id"));
    return reply.code(204).send();
  });

  app.delete("/projects/:project_id/branches/:branch_id", async (request) => ({
    operations: control.deleteBranch(param(request.params, "project_id"), param(request.params, "branch_id")),
  }));

  app.post("/limits/reset", async (_request, reply) => {
    control.resetLimits();
    return reply.code(204).send();
  });

  app.get("/state", async () => control.snapshot());

  app.post("/state/flush", async (_request, reply) => {
    control.flush();
    return reply.code(204).send();
  });

  app.post("/seed", async (request, reply) => {
    const seed = bodyObject(request.body)["seed"];
    // File paths are a library/CLI feature; over HTTP only named seeds and inline objects.
    if (seed !== "demo" && seed !== "empty" && !isObject(seed)) {
      throw badRequest('seed must be "demo", "empty" or a seed object');
    }
    control.seed(seed as SeedFile);
    return reply.code(204).send();
  });
}
