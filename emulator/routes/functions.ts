import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context";
import { badRequest } from "../errors";
import {
  createTrigger,
  type DeployParts,
  deleteFunction,
  deleteTrigger,
  deploy,
  functionOf,
  renameFunction,
  type TriggerFields,
  triggerOf,
  updateTrigger,
} from "../families/functions";
import { renderDeployment, renderFunction, renderTrigger } from "../render/functions";
import { branchOf } from "./lookup";
import { originOf } from "./origin";
import { route } from "./route";

// A branch's functions (the document's five routes) and triggers (routes only @neon/sdk
// describes): list, read, rename and delete a function, deploy an archive to it, and manage the
// triggers that name it (docs/api-rules.md §27).

/** The parts of a multipart/form-data deployment body: `zip` (a file), `runtime`, `environment`. */
async function deployParts(body: unknown, contentType: string | undefined): Promise<DeployParts> {
  if (!Buffer.isBuffer(body) || !contentType?.startsWith("multipart/form-data"))
    throw badRequest(
      "a deployment is sent as multipart/form-data with the parts zip, runtime and environment",
    );
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
  } catch (error) {
    throw badRequest(`malformed multipart/form-data body: ${(error as Error).message}`);
  }
  const parts: DeployParts = {};
  const zip = form.get("zip");
  if (zip !== null)
    parts.zip =
      typeof zip === "string" ? Buffer.from(zip) : Buffer.from(new Uint8Array(await zip.arrayBuffer()));
  for (const name of ["runtime", "environment"] as const) {
    const value = form.get(name);
    if (value !== null) parts[name] = typeof value === "string" ? value : await value.text();
  }
  return parts;
}

/** A trigger create or update body's fields, whatever its type. */
function triggerFields(body: {
  function_slug?: string;
  name?: string;
  function_path?: string;
  enabled?: boolean;
  schedule?: { cron: string };
  storage_object_created?: { bucket_name: string; prefix?: string };
}): TriggerFields {
  const fields: TriggerFields = {};
  if (body.function_slug !== undefined) fields.function_slug = body.function_slug;
  if (body.name !== undefined) fields.name = body.name;
  if (body.function_path !== undefined) fields.function_path = body.function_path;
  if (body.enabled !== undefined) fields.enabled = body.enabled;
  if (body.schedule !== undefined) fields.cron = body.schedule.cron;
  if (body.storage_object_created !== undefined) {
    fields.bucket_name = body.storage_object_created.bucket_name;
    fields.prefix = body.storage_object_created.prefix;
  }
  return fields;
}

/** Registers the function and trigger routes. */
export function functionRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const now = () => ctx.clock.now();

  route(app, "GET /projects/{project_id}/branches/{branch_id}/functions", async (request) => {
    const { branch } = branchOf(ctx, request);
    const all = [...(branch.functions ?? [])].sort((a, b) => (a.slug < b.slug ? -1 : 1));
    const { cursor, limit } = request.query;
    const start = cursor === undefined || cursor === "" ? 0 : all.findIndex((f) => f.slug > cursor);
    const rest = start < 0 ? [] : all.slice(start);
    const page = rest.slice(0, limit ?? rest.length);
    const last = page.at(-1);
    return {
      functions: page.map((f) => renderFunction(branch, f, now(), originOf(request))),
      pagination: page.length < rest.length && last !== undefined ? { next: last.slug } : {},
    };
  });

  route(app, "GET /projects/{project_id}/branches/{branch_id}/functions/{slug}", async (request) => {
    const { branch } = branchOf(ctx, request);
    return {
      function: renderFunction(branch, functionOf(branch, request.params.slug), now(), originOf(request)),
    };
  });

  route(app, "PATCH /projects/{project_id}/branches/{branch_id}/functions/{slug}", async (request) => {
    const { branch } = branchOf(ctx, request);
    const fn = functionOf(branch, request.params.slug);
    renameFunction(ctx, fn, request.body.name ?? null);
    return { function: renderFunction(branch, fn, now(), originOf(request)) };
  });

  route(
    app,
    "DELETE /projects/{project_id}/branches/{branch_id}/functions/{slug}",
    async (request, reply) => {
      const { branch } = branchOf(ctx, request);
      deleteFunction(ctx, branch, request.params.slug);
      return reply.code(204).send();
    },
  );

  route(
    app,
    "POST /projects/{project_id}/branches/{branch_id}/functions/{slug}/deployments",
    async (request, reply) => {
      const { branch } = branchOf(ctx, request);
      const parts = await deployParts(request.body, request.headers["content-type"]);
      const { deployment } = deploy(ctx, branch, request.params.slug, parts);
      return reply.code(201).send({ deployment: renderDeployment(deployment, now()) });
    },
  );

  route(app, "GET /projects/{project_id}/branches/{branch_id}/triggers", async (request) => {
    const { branch } = branchOf(ctx, request);
    return { triggers: (branch.triggers ?? []).map((t) => renderTrigger(t, now())) };
  });

  route(app, "POST /projects/{project_id}/branches/{branch_id}/triggers", async (request, reply) => {
    const { branch } = branchOf(ctx, request);
    const body = request.body;
    const fields = triggerFields(body);
    const trigger = createTrigger(ctx, branch, body.type, {
      ...fields,
      function_slug: body.function_slug,
      name: body.name,
    });
    return reply.code(201).send({ trigger: renderTrigger(trigger, now()) });
  });

  route(app, "GET /projects/{project_id}/branches/{branch_id}/triggers/{trigger_id}", async (request) => {
    const { branch } = branchOf(ctx, request);
    return { trigger: renderTrigger(triggerOf(branch, request.params.trigger_id), now()) };
  });

  route(app, "PATCH /projects/{project_id}/branches/{branch_id}/triggers/{trigger_id}", async (request) => {
    const { branch } = branchOf(ctx, request);
    const trigger = triggerOf(branch, request.params.trigger_id);
    updateTrigger(ctx, branch, trigger, request.body.type, triggerFields(request.body));
    return { trigger: renderTrigger(trigger, now()) };
  });

  route(
    app,
    "DELETE /projects/{project_id}/branches/{branch_id}/triggers/{trigger_id}",
    async (request, reply) => {
      const { branch } = branchOf(ctx, request);
      deleteTrigger(ctx, branch, request.params.trigger_id);
      return reply.code(204).send();
    },
  );
}
