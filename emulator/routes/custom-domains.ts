import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context";
import { badRequest, HttpError } from "../errors";
import { registerDomain, removeDomain } from "../families/custom-domains";
import { renderAiGateway, renderCustomDomain } from "../render/custom-domains";
import { branchOf } from "./lookup";
import { route } from "./route";

// A branch's custom domains (routes only @neon/sdk describes) and its AI gateway endpoint, the one
// AI gateway route the document has (docs/api-rules.md §25).

/** Registers the custom domain and AI gateway routes. */
export function customDomainRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  route(app, "GET /projects/{project_id}/branches/{branch_id}/custom-domains", async (request) => {
    const { branch } = branchOf(ctx, request);
    let rows = [...(branch.custom_domains ?? [])].sort((a, b) => (a.domain < b.domain ? -1 : 1));
    const { cursor, limit } = request.query;
    if (cursor !== undefined && cursor !== "") {
      const after = Buffer.from(cursor, "base64url").toString();
      rows = rows.filter((d) => d.domain > after);
    }
    if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1))
      throw badRequest(`limit must be a whole number of at least 1, not ${limit}`);
    const page = rows.slice(0, limit ?? rows.length);
    const last = page.at(-1);
    return {
      custom_domains: page.map((d) => renderCustomDomain(store, branch, d)),
      pagination:
        page.length < rows.length && last !== undefined
          ? { next: Buffer.from(last.domain).toString("base64url") }
          : {},
    };
  });

  route(app, "POST /projects/{project_id}/branches/{branch_id}/custom-domains", async (request, reply) => {
    const { branch } = branchOf(ctx, request);
    return reply.code(201).send(renderCustomDomain(store, branch, registerDomain(ctx, branch, request.body)));
  });

  route(
    app,
    "DELETE /projects/{project_id}/branches/{branch_id}/custom-domains/{domain}",
    async (request, reply) => {
      const { branch } = branchOf(ctx, request);
      removeDomain(ctx, branch, request.params.domain);
      return reply.code(204).send();
    },
  );

  // The document gives this route's 404 a body of its own, with a `reason` saying why there is no
  // gateway; here that is always a missing project or branch, as every live branch has one.
  route(app, "GET /projects/{project_id}/branches/{branch_id}/ai_gateway", async (request, reply) => {
    try {
      return renderAiGateway(store, branchOf(ctx, request).branch);
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 404) throw error;
      const reason = /^branch/.test(error.message) ? "branch_not_found" : "project_not_found";
      return reply
        .code(404)
        .send({ request_id: request.id, code: "AI_GATEWAY_NOT_ENABLED", message: error.message, reason });
    }
  });
}
