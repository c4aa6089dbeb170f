/**
 * Anonymized branches: made from a parent with masking rules, whose anonymization (the rules
 * applied to the branch's own copy of the data) runs in the background and is followed through its
 * status. Only the create starts operations.
 */
import type { ClientContext } from "../context";
import { type MutationOptions, sendMutation } from "../mutation";
import { send } from "../request";
import type { Requests } from "../requests.gen";
import {
  type AnonymizedStatus,
  AnonymizedStatusSchema,
  type BranchCreateResponse,
  BranchCreateResponseSchema,
  type MaskingRule,
  MaskingRulesResponseSchema,
} from "../schemas";
import { readWhileBusy } from "../wait";

const branch = (projectId: string, branchId: string) => ({ project_id: projectId, branch_id: branchId });

/**
 * `POST /projects/{project_id}/branch_anonymized` (201): a branch and its computes, as a branch
 * create answers, with its masking rules set. Queued per project; waits for its operations.
 */
export function createAnonymizedBranch(
  ctx: ClientContext,
  projectId: string,
  body: Requests["POST /projects/{project_id}/branch_anonymized"]["Body"],
  options: MutationOptions = {},
): Promise<BranchCreateResponse> {
  return sendMutation(
    ctx,
    "POST /projects/{project_id}/branch_anonymized",
    { params: { project_id: projectId }, body, schema: BranchCreateResponseSchema },
    options,
  );
}

/** `GET .../masking_rules`: the branch's masking rules. */
export async function getMaskingRules(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<MaskingRule[]> {
  const body = await send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/masking_rules", {
    params: branch(projectId, branchId),
    schema: MaskingRulesResponseSchema,
  });
  return body.masking_rules;
}

/** `PATCH .../masking_rules`: replaces every masking rule of the branch (the data is masked by the next anonymization). */
export async function setMaskingRules(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  rules: Requests["PATCH /projects/{project_id}/branches/{branch_id}/masking_rules"]["Body"]["masking_rules"],
): Promise<MaskingRule[]> {
  const body = await send(ctx.request, "PATCH /projects/{project_id}/branches/{branch_id}/masking_rules", {
    params: branch(projectId, branchId),
    body: { masking_rules: rules },
    schema: MaskingRulesResponseSchema,
  });
  return body.masking_rules;
}

/** `GET .../anonymized_status`: where the branch's anonymization is. */
export function getAnonymizedStatus(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<AnonymizedStatus> {
  return send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/anonymized_status", {
    params: branch(projectId, branchId),
    schema: AnonymizedStatusSchema,
  });
}

/** `POST .../anonymize`: starts applying the masking rules to the branch's data (follow it with `getAnonymizedStatus`). */
export function startAnonymization(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<AnonymizedStatus> {
  return send(ctx.request, "POST /projects/{project_id}/branches/{branch_id}/anonymize", {
    params: branch(projectId, branchId),
    schema: AnonymizedStatusSchema,
  });
}

/** States in which the service is still at work: the branch being made, or its data being masked. */
const UNDER_WAY = new Set(["created", "anonymizing"]);

/**
 * Polls `.../anonymized_status` with the client's poll interval while the service is at work
 * (`created`, `anonymizing`); returns the status it then rests in (`anonymized`, `error`,
 * `initialized`...), or at `deadline` the status as it is.
 */
export async function waitForAnonymization(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  options: { deadline: number },
): Promise<AnonymizedStatus> {
  return readWhileBusy(
    ctx.pollIntervalMs,
    options.deadline,
    () => getAnonymizedStatus(ctx, projectId, branchId),
    (status) => UNDER_WAY.has(status.state),
  );
}
