/**
 * A branch's functions (`/projects/{project_id}/branches/{branch_id}/functions`): read, rename and
 * delete one, and deploy an archive to it, which makes the function on its first deployment
 * (docs/api-rules.md §27). A deployment builds on the service's clock; none starts an operation.
 */
import { z } from "zod";
import type { ClientContext } from "../context";
import { apiRoute } from "../path";
import { send, sendOrEmpty } from "../request";
import type { Requests } from "../requests.gen";
import {
  type CloudFunction,
  type FunctionDeployment,
  FunctionDeploymentResponseSchema,
  FunctionResponseSchema,
} from "../schemas";

const NO_BODY = z.unknown();

const functionRoute = (projectId: string, branchId: string, slug: string) =>
  apiRoute("/projects/{project_id}/branches/{branch_id}/functions/{slug}", {
    project_id: projectId,
    branch_id: branchId,
    slug,
  });

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
  const got = await send(ctx.request, {
    method: "GET",
    route: functionRoute(projectId, branchId, slug),
    schema: FunctionResponseSchema,
  });
  return got.function;
}

/** `PATCH .../functions/{slug}`: the display name; `null` falls back to the slug. */
export async function renameFunction(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  slug: string,
  body: Requests["PATCH /projects/{project_id}/branches/{branch_id}/functions/{slug}"]["Body"],
): Promise<CloudFunction> {
  const renamed = await send(ctx.request, {
    method: "PATCH",
    route: functionRoute(projectId, branchId, slug),
    body,
    schema: FunctionResponseSchema,
  });
  return renamed.function;
}

/** `DELETE .../functions/{slug}` (204), with its deployments. */
export async function deleteFunction(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  slug: string,
): Promise<void> {
  await sendOrEmpty(ctx.request, {
    method: "DELETE",
    route: functionRoute(projectId, branchId, slug),
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
  const made = await send(ctx.request, {
    method: "POST",
    route: apiRoute("/projects/{project_id}/branches/{branch_id}/functions/{slug}/deployments", {
      project_id: projectId,
      branch_id: branchId,
      slug,
    }),
    form,
    schema: FunctionDeploymentResponseSchema,
  });
  return made.deployment;
}
