import type { FastifyInstance } from "fastify";
import { accessProject } from "../auth";
import type { EmulatorContext } from "../context";
import { badRequest, notFound } from "../errors";
import { isoMicros, parseIsoMicros } from "../ids";
import { pathId, pathUuid, queryInt, queryString } from "../validate";
import { principalOf } from "./principal";

// Operations: newest first; the cursor is the last item's created_at with microseconds, and every
// page carries one (an exhausted listing answers an empty page).

/** Registers the operation routes. */
export function operationRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store, engine } = ctx;

  app.get("/projects/:project_id/operations", async (request) => {
    const project = accessProject(store, principalOf(request), pathId(request.params, "project_id"));
    const limit = queryInt(request.query, "limit", 1, 1000, 10);
    const cursor = queryString(request.query, "cursor");
    let beforeUs: number | undefined;
    if (cursor !== undefined) {
      beforeUs = parseIsoMicros(cursor);
      if (beforeUs === undefined)
        throw badRequest(`invalid cursor ${JSON.stringify(cursor)}: expected a timestamp`);
    }
    const page = engine.page(project.id, limit, beforeUs);
    const last = page.at(-1);
    const next = last ? isoMicros(last.created_us) : (cursor ?? isoMicros(ctx.clock.now() * 1000));
    return { operations: page.map((op) => engine.view(op)), pagination: { cursor: next } };
  });

  app.get("/projects/:project_id/operations/:operation_id", async (request) => {
    const project = accessProject(store, principalOf(request), pathId(request.params, "project_id"));
    const opId = pathUuid(request.params, "operation_id");
    const op = store.operations.get(opId);
    if (!op || op.project_id !== project.id)
      throw notFound(`operation ${opId} not found in project ${project.id}`);
    return { operation: engine.view(op) };
  });
}
