import type { FastifyInstance, FastifyRequest } from "fastify";
import { accessProject } from "../auth";
import type { EmulatorContext } from "../context";
import { notFound } from "../errors";
import * as family from "../families/auth";
import type { BranchRecord } from "../records";
import {
  authBaseUrl,
  renderAuthIntegration,
  renderAuthKeys,
  renderDomains,
  renderEmailProvider,
  renderOauthProvider,
} from "../render/auth";
import { authAnswers, originOf } from "./auth";
import { principalOf } from "./principal";
import { route } from "./route";

// The project-level Auth routes (docs/api-rules.md §23), which the document marks deprecated: they
// act on the project's default branch (or the branch a body names), as the service's descriptions
// send them to the branch-level ones of auth.ts.

type ProjectPath = FastifyRequest<{ Params: { project_id: string } }>;

/** Registers the project-level Auth routes: those under `/projects/auth/` and `/projects/{project_id}/auth/`. */
export function authProjectRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  const { changed, noBody } = authAnswers(ctx);

  /** A project's live branch, with the caller's access checked (its default branch unless named). */
  const projectBranch = (request: FastifyRequest, projectId: string, branchId?: string) => {
    const project = accessProject(store, principalOf(request), projectId);
    const id = branchId ?? project.default_branch_id;
    const branch = store.liveBranch(project.id, id);
    if (!branch) throw notFound(`branch ${id} not found in project ${project.id}`);
    return { project, branch };
  };

  /** The path's project's default branch. */
  const defaultBranch = (request: ProjectPath): BranchRecord =>
    projectBranch(request, request.params.project_id).branch;

  /** The Auth of the default branch of the project a body names. */
  const bodyProjectAuth = (request: FastifyRequest, projectId: string) =>
    family.authOf(projectBranch(request, projectId).branch);

  route(app, "POST /projects/auth/create", async (request, reply) => {
    const { project_id, branch_id, auth_provider, database_name } = request.body;
    const { project, branch } = projectBranch(request, project_id, branch_id);
    const auth = family.enableAuth(project, branch, auth_provider, database_name, ctx.clock.now());
    reply.code(201);
    return changed(renderAuthKeys(auth, originOf(request)));
  });

  route(app, "POST /projects/auth/keys", async (request, reply) => {
    const auth = bodyProjectAuth(request, request.body.project_id);
    reply.code(201);
    return renderAuthKeys(auth, originOf(request));
  });

  route(app, "POST /projects/auth/user", async (request, reply) => {
    const auth = bodyProjectAuth(request, request.body.project_id);
    const id = family.addUser(auth, request.body.email, request.body.name, ctx.clock.now());
    reply.code(201);
    return changed({ id });
  });

  route(app, "POST /projects/auth/transfer_ownership", async (request) => {
    const auth = bodyProjectAuth(request, request.body.project_id);
    // The emulator has no provider console to move the project to: the URL names where it would be.
    return { url: `${authBaseUrl(originOf(request), auth)}/transfer` };
  });

  route(app, "GET /projects/{project_id}/auth/integrations", async (request) => {
    const branch = defaultBranch(request);
    return { data: branch.auth ? [renderAuthIntegration(branch, branch.auth, originOf(request))] : [] };
  });

  route(app, "DELETE /projects/{project_id}/auth/integration/{auth_provider}", async (request, reply) => {
    const branch = defaultBranch(request);
    const auth = family.authOf(branch);
    if (auth.auth_provider !== request.params.auth_provider)
      throw notFound(
        `the default branch's Auth uses provider ${auth.auth_provider}, not ${request.params.auth_provider}`,
      );
    family.disableAuth(branch, request.body?.delete_data === true);
    return noBody(reply);
  });

  route(app, "GET /projects/{project_id}/auth/domains", async (request) =>
    renderDomains(family.authOf(defaultBranch(request))),
  );

  route(app, "POST /projects/{project_id}/auth/domains", async (request, reply) => {
    family.addDomain(family.authOf(defaultBranch(request)), request.body.domain);
    return noBody(reply, 201);
  });

  route(app, "DELETE /projects/{project_id}/auth/domains", async (request, reply) => {
    family.removeDomains(
      family.authOf(defaultBranch(request)),
      request.body.domains.map((d) => d.domain),
    );
    return noBody(reply);
  });

  route(app, "GET /projects/{project_id}/auth/email_server", async (request) =>
    renderEmailProvider(family.authOf(defaultBranch(request))),
  );

  route(app, "PATCH /projects/{project_id}/auth/email_server", async (request) => {
    const auth = family.authOf(defaultBranch(request));
    auth.email_provider = { ...request.body };
    return changed(renderEmailProvider(auth));
  });

  route(app, "GET /projects/{project_id}/auth/oauth_providers", async (request) => ({
    providers: family.authOf(defaultBranch(request)).oauth_providers.map(renderOauthProvider),
  }));

  route(app, "POST /projects/{project_id}/auth/oauth_providers", async (request) =>
    changed(
      renderOauthProvider(family.addOauthProvider(family.authOf(defaultBranch(request)), request.body)),
    ),
  );

  route(app, "PATCH /projects/{project_id}/auth/oauth_providers/{oauth_provider_id}", async (request) =>
    changed(
      renderOauthProvider(
        family.updateOauthProvider(
          family.authOf(defaultBranch(request)),
          request.params.oauth_provider_id,
          request.body,
        ),
      ),
    ),
  );

  route(
    app,
    "DELETE /projects/{project_id}/auth/oauth_providers/{oauth_provider_id}",
    async (request, reply) => {
      family.removeOauthProvider(family.authOf(defaultBranch(request)), request.params.oauth_provider_id);
      return noBody(reply);
    },
  );

  route(app, "DELETE /projects/{project_id}/auth/users/{auth_user_id}", async (request, reply) => {
    const auth = family.authOf(defaultBranch(request));
    family.userOf(auth, request.params.auth_user_id);
    delete auth.users[request.params.auth_user_id];
    return noBody(reply, 204);
  });
}
