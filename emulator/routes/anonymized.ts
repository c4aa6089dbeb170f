import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context";
import {
  anonymizationOf,
  anonymizationState,
  anonymize,
  checkRules,
  checkStartable,
  storedRules,
} from "../families/anonymization";
import { renderAnonymizedStatus, renderMaskingRules } from "../render/anonymization";
import { createdResponse, createFromRequest } from "./branches";
import { branchOf } from "./lookup";
import { principalOf } from "./principal";
import { route } from "./route";

// Anonymized branches (docs/api-rules.md §16): created like any branch (201, operations) with
// masking rules, which a PATCH replaces; an anonymization masks the branch's own data (with the
// data plane) and its status tells how far it is. A branch not made anonymized has no rules and
// no status: 404 for reading them, 400 for changing or running them.

/** Registers the anonymized-branch routes. */
export function anonymizedBranchRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  route(app, "POST /projects/{project_id}/branch_anonymized", async (request, reply) => {
    const body = request.body;
    const rules = body.masking_rules ?? [];
    checkRules(rules, "masking_rules");
    const create = body.branch_create ?? {};
    // The service marks the branch in its annotation: the official CLI's branch list labels a
    // branch whose annotation has `anonymized` "[anon]".
    const annotation = { ...(body.annotation_value ?? {}), anonymized: "true" };
    const created = await createFromRequest(ctx, request, create, annotation);
    created.branch.anonymization = { masking_rules: storedRules(rules) };
    ctx.changed();
    if (body.start_anonymization === true) {
      await anonymize(ctx, created.branch, principalOf(request).key.user_id);
    }
    return reply.code(201).send(createdResponse(ctx, created));
  });

  route(app, "GET /projects/{project_id}/branches/{branch_id}/masking_rules", async (request) => {
    const { branch } = branchOf(ctx, request);
    return renderMaskingRules(anonymizationOf(branch, 404));
  });

  route(app, "PATCH /projects/{project_id}/branches/{branch_id}/masking_rules", async (request) => {
    const { branch } = branchOf(ctx, request);
    const record = anonymizationOf(branch, 400);
    checkRules(request.body.masking_rules, "masking_rules");
    // The list replaces the rules whole; a run under way keeps the rules it started with.
    record.masking_rules = storedRules(request.body.masking_rules);
    ctx.changed();
    return renderMaskingRules(record);
  });

  route(app, "GET /projects/{project_id}/branches/{branch_id}/anonymized_status", async (request) => {
    const { branch } = branchOf(ctx, request);
    anonymizationOf(branch, 404);
    return renderAnonymizedStatus(branch, anonymizationState(ctx, branch, ctx.clock.now()), store);
  });

  route(app, "POST /projects/{project_id}/branches/{branch_id}/anonymize", async (request) => {
    const { branch } = branchOf(ctx, request);
    anonymizationOf(branch, 400);
    checkStartable(ctx, branch);
    await anonymize(ctx, branch, principalOf(request).key.user_id);
    return renderAnonymizedStatus(branch, anonymizationState(ctx, branch, ctx.clock.now()), store);
  });
}
