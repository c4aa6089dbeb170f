import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { badRequest } from "../errors";
import type { FaultResponse } from "../faults";
import type { OperationMatch, ScriptedOutcome } from "../operations";
import type { RequestFilter } from "../request-log";
import type { SeedFile } from "../seed";
import type { EmulatorControl } from "../types";

// The control API over HTTP, under /__emulator/ (never under /api/v2), for tests in other
// processes and for pipelines driving a CLI-started emulator. Open on loopback; bound to another
// address it needs the control token given at start. Every action is the library's
// `EmulatorControl` method of the same name. Bodies and queries are checked with zod (400).

const text = z.string().min(1);
const count = z.number().finite();
const queryInt = z.string().regex(/^\d+$/, "must be a non-negative integer").transform(Number).optional();

const schemas = {
  requestsQuery: z.object({
    route: text.optional(),
    method: text.optional(),
    status: queryInt,
    since: queryInt,
  }),
  fault: z.object({
    route: text,
    response: z.record(z.string(), z.unknown()).default({}),
    count: count.optional(),
  }),
  script: z.object({
    match: z.record(z.string(), z.unknown()).default({}),
    outcome: z
      .object({ kind: z.enum(["fail", "cancelled", "error", "skipped", "stuck"]) })
      .catchall(z.unknown()),
  }),
  platform: z.object({ action: text.optional(), duration_ms: count.optional() }).default({}),
  bulk: z.object({ count }),
  advance: z.object({ ms: count }),
  transfer: z.object({ org_id: text.nullable(), user_id: text.optional() }),
  member: z.object({ user_id: text, role: z.enum(["admin", "member"]) }),
  key: z.object({
    user_id: text,
    org_id: text.optional(),
    project_id: text.optional(),
    name: z.string().min(1).max(64).optional(),
  }),
  // File paths are a library/CLI feature; over HTTP only named seeds and inline objects.
  seed: z.object({
    seed: z.union([z.literal("demo"), z.literal("empty"), z.record(z.string(), z.unknown())]),
  }),
};

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value ?? undefined);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.join(".") ?? "";
  throw badRequest(`invalid ${what}: ${path === "" ? "" : `${path}: `}${issue?.message ?? "invalid"}`);
}

const body = <T>(schema: z.ZodType<T>, request: FastifyRequest) =>
  parse(schema, request.body, "request body");
const param = (request: FastifyRequest, name: string) =>
  parse(text, (request.params as Record<string, unknown>)[name], `path parameter ${name}`);

/** Registers the control routes (mount under the /__emulator prefix). */
export function controlRoutes(app: FastifyInstance, control: EmulatorControl): void {
  app.get("/health", async () => ({ ok: true }));

  app.get("/requests", async (request) => {
    const query = parse(schemas.requestsQuery, request.query, "query");
    const filter: RequestFilter = {};
    if (query.route !== undefined) filter.route = query.route;
    if (query.method !== undefined) filter.method = query.method;
    if (query.status !== undefined) filter.status = query.status;
    if (query.since !== undefined) filter.since = query.since;
    return { requests: control.requests(filter) };
  });

  app.delete("/requests", async (_request, reply) => {
    control.clearRequests();
    return reply.code(204).send();
  });

  app.post("/faults", async (request, reply) => {
    const fault = body(schemas.fault, request);
    control.failNext(fault.route, fault.response as FaultResponse, fault.count ?? 1);
    return reply.code(204).send();
  });

  app.delete("/faults", async (_request, reply) => {
    control.clearFaults();
    return reply.code(204).send();
  });

  app.post("/operations/script", async (request, reply) => {
    const script = body(schemas.script, request);
    control.scriptOperations(script.match as OperationMatch, script.outcome as ScriptedOutcome);
    return reply.code(204).send();
  });

  app.delete("/operations/script", async (_request, reply) => {
    control.clearOperationScripts();
    return reply.code(204).send();
  });

  app.post("/projects/:project_id/platform_operations", async (request) => {
    const spec = body(schemas.platform, request);
    return {
      operation: control.startPlatformOperation(param(request, "project_id"), spec.action, spec.duration_ms),
    };
  });

  app.post("/projects/:project_id/operations/bulk", async (request) => ({
    added: control.addOperations(param(request, "project_id"), body(schemas.bulk, request).count),
  }));

  app.get("/clock", async () => {
    const now = control.now();
    return { now, iso: new Date(now).toISOString() };
  });

  app.post("/clock/advance", async (request) => {
    control.advance(body(schemas.advance, request).ms);
    const now = control.now();
    return { now, iso: new Date(now).toISOString() };
  });

  app.post("/projects/:project_id/transfer", async (request, reply) => {
    const spec = body(schemas.transfer, request);
    control.transferProject(param(request, "project_id"), spec.org_id, spec.user_id);
    return reply.code(204).send();
  });

  app.post("/organizations/:org_id/members", async (request, reply) => {
    const spec = body(schemas.member, request);
    control.addMember(param(request, "org_id"), spec.user_id, spec.role);
    return reply.code(204).send();
  });

  app.delete("/organizations/:org_id/members/:user_id", async (request, reply) => {
    control.removeMember(param(request, "org_id"), param(request, "user_id"));
    return reply.code(204).send();
  });

  app.post("/api_keys", async (request) => {
    const spec = body(schemas.key, request);
    return control.createApiKey({
      userId: spec.user_id,
      ...(spec.org_id === undefined ? {} : { orgId: spec.org_id }),
      ...(spec.project_id === undefined ? {} : { projectId: spec.project_id }),
      ...(spec.name === undefined ? {} : { name: spec.name }),
    });
  });

  app.post("/api_keys/:key_id/revoke", async (request, reply) => {
    const keyId = parse(
      z
        .string()
        .regex(/^\d{1,15}$/, "must be an integer")
        .transform(Number),
      (request.params as Record<string, unknown>)["key_id"],
      "path parameter key_id",
    );
    control.revokeApiKey(keyId);
    return reply.code(204).send();
  });

  app.delete("/projects/:project_id/branches/:branch_id", async (request) => ({
    operations: control.deleteBranch(param(request, "project_id"), param(request, "branch_id")),
  }));

  app.post("/limits/reset", async (_request, reply) => {
    control.resetLimits();
    return reply.code(204).send();
  });

  app.get("/state", async () => control.dumpState());

  app.post("/state/flush", async (_request, reply) => {
    control.flush();
    return reply.code(204).send();
  });

  // The CA of the endpoints' certificates, for a client in another process or container to
  // verify them (`sslmode=verify-full`); public, like any CA certificate.
  app.get("/tls/ca.pem", async (_request, reply) =>
    reply.type("application/x-pem-file").send(control.caCertificate()),
  );

  app.post("/seed", async (request, reply) => {
    control.seed(body(schemas.seed, request).seed as SeedFile);
    return reply.code(204).send();
  });
}
