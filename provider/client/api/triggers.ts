/**
 * A branch's triggers (`/projects/{project_id}/branches/{branch_id}/triggers`, routes only @neon/sdk
 * describes): a schedule or a storage event that invokes a function of the branch, named by slug
 * (docs/api-rules.md §27). A `PATCH` changes a trigger in place but never its type. None starts an
 * operation.
 */
import { z } from "zod";
import type { ClientContext } from "../context";
import { apiRoute } from "../path";
import { send, sendOrEmpty } from "../request";
import { type Trigger, TriggerResponseSchema, TriggersListResponseSchema } from "../schemas";
import type { Requests as SdkRequests } from "../sdk-routes.gen";

const NO_BODY = z.unknown();

const triggersRoute = (projectId: string, branchId: string) =>
  apiRoute("/projects/{project_id}/branches/{branch_id}/triggers", {
    project_id: projectId,
    branch_id: branchId,
  });

const triggerRoute = (projectId: string, branchId: string, triggerId: string) =>
  apiRoute("/projects/{project_id}/branches/{branch_id}/triggers/{trigger_id}", {
    project_id: projectId,
    branch_id: branchId,
    trigger_id: triggerId,
  });

/** `GET .../triggers`: the branch's triggers. */
export async function listTriggers(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<Trigger[]> {
  const listed = await send(ctx.request, {
    method: "GET",
    route: triggersRoute(projectId, branchId),
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
  const made = await send(ctx.request, {
    method: "POST",
    route: triggersRoute(projectId, branchId),
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
  const got = await send(ctx.request, {
    method: "GET",
    route: triggerRoute(projectId, branchId, triggerId),
    schema: TriggerResponseSchema,
  });
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
  const updated = await send(ctx.request, {
    method: "PATCH",
    route: triggerRoute(projectId, branchId, triggerId),
    body,
    schema: TriggerResponseSchema,
  });
  return updated.trigger;
}

/** `DELETE .../triggers/{trigger_id}` (204). */
export async function deleteTrigger(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  triggerId: string,
): Promise<void> {
  await sendOrEmpty(ctx.request, {
    method: "DELETE",
    route: triggerRoute(projectId, branchId, triggerId),
    schema: NO_BODY,
  });
}
