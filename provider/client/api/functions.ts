/**
 * A branch's functions (`/projects/{project_id}/branches/{branch_id}/functions`): read, rename and
 * delete one, and deploy an archive to it, which makes the function on its first deployment
 * (docs/api-rules.md §27). A deployment builds on the service's clock. And the branch's triggers
 * (`.../triggers`, routes only @neon/sdk describes): a schedule or a storage event invoking a
 * function of the branch by slug; a `PATCH` changes one in place but never its type. None starts
 * an operation.
 */
import { z } from "zod";
import type { ClientContext } from "../context";
import { send, sendOrEmpty } from "../request";
import type { Requests } from "../requests.gen";
import {
  type CloudFunction,
  type FunctionDeployment,
  FunctionDeploymentResponseSchema,
  FunctionResponseSchema,
  FunctionsListResponseSchema,
  type Trigger,
  TriggerResponseSchema,
  TriggersListResponseSchema,
} from "../schemas";
import type { Requests as SdkRequests } from "../sdk-routes.gen";
import { readWhileBusy } from "../wait";

const NO_BODY = z.unknown();

const branch = (projectId: string, branchId: string) => ({ project_id: projectId, branch_id: branchId });
const fn = (projectId: string, branchId: string, slug: string) => ({ ...branch(projectId, branchId), slug });

/** What a deployment sends: each part left out inherits the function's latest version. */
export interface FunctionDeployParts {
  /** The archive's bytes (a ZIP); required on the first deployment. */
  zip?: Uint8Array;
  runtime?: string;
  /** Variables by name; write-only: the service returns only the names. */
  environment?: Readonly<Record<string, string>>;
}

/** `GET .../functions/{slug}`; 404 when the branch has no function of that slug. */
export async function getFunction(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  slug: string,
): Promise<CloudFunction> {
  const got = await send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/functions/{slug}", {
    params: fn(projectId, branchId, slug),
    schema: FunctionResponseSchema,
  });
  return got.function;
}

/** Pages of a branch's function listing read at most: a branch holds far fewer functions. */
const FUNCTION_PAGES = 50;

/** `GET .../functions`: every function of the branch, slug order, page by page. */
export async function listFunctions(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<CloudFunction[]> {
  const functions: CloudFunction[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < FUNCTION_PAGES; page++) {
    const body = await send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/functions", {
      params: branch(projectId, branchId),
      query: cursor === undefined ? {} : { cursor },
      schema: FunctionsListResponseSchema,
    });
    functions.push(...body.functions);
    const next = body.pagination?.next ?? undefined;
    if (next === undefined || next === "" || next === cursor || body.functions.length === 0) break;
    cursor = next;
  }
  return functions;
}

/** A deployment's statuses in which the service is still at work on it. */
const BUILDING = new Set(["pending", "building"]);

/**
 * Reads the function with the client's poll interval while deployment `id` is its current one and
 * still pending or building; returns the function once that deployment ended (`completed`,
 * `failed`) or another became current, or at `deadline` as it is.
 */
export async function waitForDeployment(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  slug: string,
  id: number,
  options: { deadline: number },
): Promise<CloudFunction> {
  return readWhileBusy(
    ctx.pollIntervalMs,
    options.deadline,
    () => getFunction(ctx, projectId, branchId, slug),
    (fn) => fn.current_deployment?.id === id && BUILDING.has(fn.current_deployment.status),
  );
}

/** `PATCH .../functions/{slug}`: the display name; `null` falls back to the slug. */
export async function renameFunction(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  slug: string,
  body: Requests["PATCH /projects/{project_id}/branches/{branch_id}/functions/{slug}"]["Body"],
): Promise<CloudFunction> {
  const renamed = await send(
    ctx.request,
    "PATCH /projects/{project_id}/branches/{branch_id}/functions/{slug}",
    {
      params: fn(projectId, branchId, slug),
      body,
      schema: FunctionResponseSchema,
    },
  );
  return renamed.function;
}

/** `DELETE .../functions/{slug}` (204), with its deployments. */
export async function deleteFunction(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  slug: string,
): Promise<void> {
  await sendOrEmpty(ctx.request, "DELETE /projects/{project_id}/branches/{branch_id}/functions/{slug}", {
    params: fn(projectId, branchId, slug),
    schema: NO_BODY,
  });
}

/**
 * `POST .../functions/{slug}/deployments` (201), multipart/form-data: the new deployment, pending.
 * The first deployment of a slug makes the function.
 */
export async function deployFunction(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  slug: string,
  parts: FunctionDeployParts,
): Promise<FunctionDeployment> {
  const form = new FormData();
  if (parts.zip !== undefined)
    form.set("zip", new Blob([new Uint8Array(parts.zip)], { type: "application/zip" }), "function.zip");
  if (parts.runtime !== undefined) form.set("runtime", parts.runtime);
  if (parts.environment !== undefined) form.set("environment", JSON.stringify(parts.environment));
  const made = await send(
    ctx.request,
    "POST /projects/{project_id}/branches/{branch_id}/functions/{slug}/deployments",
    {
      params: fn(projectId, branchId, slug),
      form,
      schema: FunctionDeploymentResponseSchema,
    },
  );
  return made.deployment;
}

const trigger = (projectId: string, branchId: string, triggerId: string) => ({
  ...branch(projectId, branchId),
  trigger_id: triggerId,
});

/** `GET .../triggers`: the branch's triggers. */
export async function listTriggers(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<Trigger[]> {
  const listed = await send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/triggers", {
    params: branch(projectId, branchId),
    schema: TriggersListResponseSchema,
  });
  return listed.triggers;
}

/** `POST .../triggers` (201); 409 when the branch has a trigger of that name, 404 when it lacks the function. */
export async function createTrigger(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: SdkRequests["POST /projects/{project_id}/branches/{branch_id}/triggers"]["Body"],
): Promise<Trigger> {
  const made = await send(ctx.request, "POST /projects/{project_id}/branches/{branch_id}/triggers", {
    params: branch(projectId, branchId),
    body,
    schema: TriggerResponseSchema,
  });
  return made.trigger;
}

/** `GET .../triggers/{trigger_id}`. */
export async function getTrigger(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  triggerId: string,
): Promise<Trigger> {
  const got = await send(
    ctx.request,
    "GET /projects/{project_id}/branches/{branch_id}/triggers/{trigger_id}",
    {
      params: trigger(projectId, branchId, triggerId),
      schema: TriggerResponseSchema,
    },
  );
  return got.trigger;
}

/** `PATCH .../triggers/{trigger_id}`: the given fields in place; the body's type must be the trigger's. */
export async function updateTrigger(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  triggerId: string,
  body: SdkRequests["PATCH /projects/{project_id}/branches/{branch_id}/triggers/{trigger_id}"]["Body"],
): Promise<Trigger> {
  const updated = await send(
    ctx.request,
    "PATCH /projects/{project_id}/branches/{branch_id}/triggers/{trigger_id}",
    {
      params: trigger(projectId, branchId, triggerId),
      body,
      schema: TriggerResponseSchema,
    },
  );
  return updated.trigger;
}

/** `DELETE .../triggers/{trigger_id}` (204). */
export async function deleteTrigger(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  triggerId: string,
): Promise<void> {
  await sendOrEmpty(ctx.request, "DELETE /projects/{project_id}/branches/{branch_id}/triggers/{trigger_id}", {
    params: trigger(projectId, branchId, triggerId),
    schema: NO_BODY,
  });
}
