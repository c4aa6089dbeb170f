import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context";
import { badRequest } from "../errors";
import { issueCredential, liveCredential, revokeCredential, rotateCredential } from "../families/credentials";
import { renderCredentialIssued, renderCredentialMeta, renderCredentialSecret } from "../render/credentials";
import { branchOf } from "./lookup";
import { route } from "./route";

// A branch's scoped service credentials: issue, list, revoke, and (routes only @neon/sdk describes)
// reveal the live secrets of one and rotate them (docs/api-rules.md §25).

/** Registers the credential routes. */
export function credentialRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  route(app, "POST /projects/{project_id}/branches/{branch_id}/credentials", async (request, reply) => {
    const { branch } = branchOf(ctx, request);
    const { name, scopes } = request.body;
    if (name !== undefined && name.trim() === "") throw badRequest("name must not be empty when it is given");
    const credential = issueCredential(ctx, branch, { ...(name === undefined ? {} : { name }), scopes });
    return reply.code(201).send(renderCredentialIssued(branch, credential));
  });

  route(app, "GET /projects/{project_id}/branches/{branch_id}/credentials", async (request) => {
    const { branch } = branchOf(ctx, request);
    return { credentials: (branch.credentials ?? []).map((c) => renderCredentialMeta(branch, c)) };
  });

  route(
    app,
    "DELETE /projects/{project_id}/branches/{branch_id}/credentials/{token_id}",
    async (request, reply) => {
      const { branch } = branchOf(ctx, request);
      revokeCredential(ctx, branch, request.params.token_id);
      return reply.code(204).send();
    },
  );

  route(
    app,
    "POST /projects/{project_id}/branches/{branch_id}/credentials/{token_id}/reveal",
    async (request) => {
      const { branch } = branchOf(ctx, request);
      return renderCredentialSecret(liveCredential(branch, request.params.token_id));
    },
  );

  route(
    app,
    "POST /projects/{project_id}/branches/{branch_id}/credentials/{token_id}/rotate",
    async (request) => {
      const { branch } = branchOf(ctx, request);
      return renderCredentialIssued(
        branch,
        rotateCredential(ctx, liveCredential(branch, request.params.token_id)),
      );
    },
  );
}
