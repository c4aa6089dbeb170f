import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context";
import { badRequest, notFound } from "../errors";
import { isoMicros, parseIsoMicros } from "../ids";
import { projectOf } from "./lookup";
import { route } from "./route";

// Operations: newest first; the cursor is the last item's created_at with microseconds, and every
// page carries one (an exhausted listing answers an empty page).

const DEFAULT_LIMIT = 10;

/** Registers the operation routes. */
export function operationRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store, engine } = ctx;

  route(app, "GET /projects/{project_id}/operations", async (request) => {
    const project = projectOf(ctx, request);
    const query = request.query;
    const cursor = query.cursor === "" ? undefined : query.cursor;
    let beforeUs: number | undefined;
    if (cursor !== undefined) {
      beforeUs = parseIsoMicros(cursor);
      if (beforeUs === undefined)
        throw badRequest(`invalid cursor ${JSON.stringify(cursor)}: expected a timestamp`);
    }
    const page = engine.page(project.id, query.limit ?? DEFAULT_LIMIT, beforeUs);
    const last = page.at(-1);
    const next = last ? isoMicros(last.created_us) : (cursor ?? isoMicros(ctx.clock.now() * 1000));
    return { operations: page.map((op) => engine.view(op)), pagination: { cursor: next } };
  });

  route(app, "GET /projects/{project_id}/operations/{operation_id}", async (request) => {
    const project = projectOf(ctx, request);
    const opId = request.params.operation_id.toLowerCase();
    const op = store.operations.get(opId);
    if (!op || op.project_id !== project.id)
      throw notFound(`operation ${opId} not found in project ${project.id}`);
    return { operation: engine.view(op) };
  });
}
