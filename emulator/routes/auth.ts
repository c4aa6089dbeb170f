import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { accessProject } from "../auth";
import type { EmulatorContext } from "../context";
import { badRequest, notFound } from "../errors";
import {
  addDomain,
  addOauthProvider,
  addUser,
  authOf,
  disableAuth,
  enableAuth,
  findAuthByProviderProject,
  publicJwk,
  removeDomains,
  removeOauthProvider,
  updateOauthProvider,
  userOf,
} from "../families/auth";
import type { BranchAuthRecord, BranchRecord } from "../records";
import {
  AUTH_BASE_PATH,
  authBaseUrl,
  renderAuthIntegration,
  renderAuthKeys,
  renderDomains,
  renderEmailAndPassword,
  renderEmailProvider,
  renderOauthProvider,
  renderPlugins,
  renderWebhooks,
} from "../render/auth";
import { branchOf } from "./lookup";
import { principalOf } from "./principal";
import { route } from "./route";

// Auth on a branch (docs/api-rules.md §23): enabling and disabling it, its settings, its users.
// The project-level routes the document marks deprecated act on the project's default branch,
// as the service's descriptions send them to the branch-level ones.

/** The origin the request came to: the base and JWKS URLs point back at this server. */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.headers.host ?? "localhost"}`;

type BranchPath = FastifyRequest<{ Params: { project_id: string; branch_id: string } }>;
type ProjectPath = FastifyRequest<{ Params: { project_id: string } }>;

/** Registers the Auth routes, and the JWKS each branch's Auth serves outside the API. */
export function authRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  /** The path's branch and its Auth (404 when Auth is off). */
  const branchAuth = (request: BranchPath): { branch: BranchRecord; auth: BranchAuthRecord } => {
    const { branch } = branchOf(ctx, request);
    return { branch, auth: authOf(branch) };
  };

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
    authOf(projectBranch(request, projectId).branch);

  /** Applies a change and tells persistence. */
  const changed = <T>(value: T): T => {
    ctx.changed();
    return value;
  };

  /** Answers a change the document gives no body, and tells persistence. */
  const noBody = (reply: FastifyReply, status = 200) => {
    ctx.changed();
    return reply.code(status).send();
  };

  route(app, "GET /auth", async (request) => {
    const { key } = principalOf(request);
    return key.kind === "personal"
      ? { account_id: key.user_id, auth_method: "api_key_user" as const }
      : { account_id: key.org_id ?? key.user_id, auth_method: "api_key_org" as const };
  });

  route(app, "POST /projects/{project_id}/branches/{branch_id}/auth", async (request, reply) => {
    const { project, branch } = branchOf(ctx, request);
    const auth = enableAuth(
      project,
      branch,
      request.body.auth_provider,
      request.body.database_name,
      ctx.clock.now(),
    );
    reply.code(201);
    return changed(renderAuthKeys(auth, originOf(request)));
  });

  route(app, "GET /projects/{project_id}/branches/{branch_id}/auth", async (request) => {
    const { branch, auth } = branchAuth(request);
    return renderAuthIntegration(branch, auth, originOf(request));
  });

  route(app, "DELETE /projects/{project_id}/branches/{branch_id}/auth", async (request, reply) => {
    const { branch } = branchAuth(request);
    disableAuth(branch, request.body?.delete_data === true);
    return noBody(reply);
  });

  route(app, "PATCH /projects/{project_id}/branches/{branch_id}/auth/config", async (request) => {
    const { auth } = branchAuth(request);
    auth.name = request.body.name;
    return changed({ name: auth.name });
  });

  route(app, "GET /projects/{project_id}/branches/{branch_id}/auth/allow_localhost", async (request) => ({
    allow_localhost: branchAuth(request).auth.allow_localhost,
  }));

  route(app, "PATCH /projects/{project_id}/branches/{branch_id}/auth/allow_localhost", async (request) => {
    const { auth } = branchAuth(request);
    auth.allow_localhost = request.body.allow_localhost;
    return changed({ allow_localhost: auth.allow_localhost });
  });

  route(app, "GET /projects/{project_id}/branches/{branch_id}/auth/domains", async (request) =>
    renderDomains(branchAuth(request).auth),
  );

  route(app, "POST /projects/{project_id}/branches/{branch_id}/auth/domains", async (request, reply) => {
    addDomain(branchAuth(request).auth, request.body.domain);
    return noBody(reply, 201);
  });

  route(app, "DELETE /projects/{project_id}/branches/{branch_id}/auth/domains", async (request, reply) => {
    removeDomains(
      branchAuth(request).auth,
      request.body.domains.map((d) => d.domain),
    );
    return noBody(reply);
  });

  route(app, "GET /projects/{project_id}/branches/{branch_id}/auth/email_and_password", async (request) =>
    renderEmailAndPassword(branchAuth(request).auth),
  );

  route(app, "PATCH /projects/{project_id}/branches/{branch_id}/auth/email_and_password", async (request) => {
    const { auth } = branchAuth(request);
    Object.assign(auth.email_and_password, request.body);
    return changed(renderEmailAndPassword(auth));
  });

  route(app, "GET /projects/{project_id}/branches/{branch_id}/auth/email_provider", async (request) =>
    renderEmailProvider(branchAuth(request).auth),
  );

  route(app, "PATCH /projects/{project_id}/branches/{branch_id}/auth/email_provider", async (request) => {
    const { auth } = branchAuth(request);
    auth.email_provider = { ...request.body };
    return changed(renderEmailProvider(auth));
  });

  route(app, "POST /projects/{project_id}/branches/{branch_id}/auth/email_provider/test", async (request) => {
    const { auth } = branchAuth(request);
    // The emulator sends no mail: a standard server's settings are accepted as they are.
    return auth.email_provider.type === "standard"
      ? { success: true }
      : {
          success: false,
          error_message: "the shared email provider cannot be tested; configure your own SMTP server",
        };
  });

  route(app, "POST /projects/{project_id}/branches/{branch_id}/auth/send_test_email", async (request) => {
    branchAuth(request);
    // No mail leaves the emulator; the settings are checked as the document shapes them.
    if (!(request.body.port > 0 && request.body.port < 65536))
      return { success: false, error_message: `port ${request.body.port} is not a TCP port` };
    return { success: true };
  });

  route(app, "GET /projects/{project_id}/branches/{branch_id}/auth/oauth_providers", async (request) => ({
    providers: branchAuth(request).auth.oauth_providers.map(renderOauthProvider),
  }));

  route(app, "POST /projects/{project_id}/branches/{branch_id}/auth/oauth_providers", async (request) =>
    changed(renderOauthProvider(addOauthProvider(branchAuth(request).auth, request.body))),
  );

  route(
    app,
    "PATCH /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id}",
    async (request) =>
      changed(
        renderOauthProvider(
          updateOauthProvider(branchAuth(request).auth, request.params.oauth_provider_id, request.body),
        ),
      ),
  );

  route(
    app,
    "DELETE /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id}",
    async (request, reply) => {
      removeOauthProvider(branchAuth(request).auth, request.params.oauth_provider_id);
      return noBody(reply);
    },
  );

  route(app, "GET /projects/{project_id}/branches/{branch_id}/auth/plugins", async (request) =>
    renderPlugins(branchAuth(request).auth),
  );

  route(app, "PATCH /projects/{project_id}/branches/{branch_id}/auth/plugins/magic-link", async (request) => {
    const { auth } = branchAuth(request);
    Object.assign(auth.magic_link, request.body);
    return changed({ ...auth.magic_link });
  });

  route(
    app,
    "PATCH /projects/{project_id}/branches/{branch_id}/auth/plugins/organization",
    async (request) => {
      const { auth } = branchAuth(request);
      Object.assign(auth.organization, request.body);
      return changed({ ...auth.organization });
    },
  );

  route(
    app,
    "GET /projects/{project_id}/branches/{branch_id}/auth/plugins/phone-number",
    async (request) => ({
      ...branchAuth(request).auth.phone_number,
    }),
  );

  route(
    app,
    "PATCH /projects/{project_id}/branches/{branch_id}/auth/plugins/phone-number",
    async (request) => {
      const { auth } = branchAuth(request);
      Object.assign(auth.phone_number, request.body);
      return changed({ ...auth.phone_number });
    },
  );

  route(app, "GET /projects/{project_id}/branches/{branch_id}/auth/webhooks", async (request) =>
    renderWebhooks(branchAuth(request).auth),
  );

  route(app, "PUT /projects/{project_id}/branches/{branch_id}/auth/webhooks", async (request) => {
    const { auth } = branchAuth(request);
    const { enabled, webhook_url, enabled_events, timeout_seconds } = request.body;
    if (enabled && webhook_url === undefined)
      throw badRequest("an enabled webhook needs a webhook_url to send the events to");
    // A PUT: what the body leaves out is cleared.
    auth.webhooks = {
      enabled,
      timeout_seconds: timeout_seconds ?? 5,
      ...(webhook_url === undefined ? {} : { webhook_url }),
      ...(enabled_events === undefined ? {} : { enabled_events: [...enabled_events] }),
    };
    return changed(renderWebhooks(auth));
  });

  route(app, "POST /projects/{project_id}/branches/{branch_id}/auth/users", async (request, reply) => {
    const id = addUser(branchAuth(request).auth, request.body.email, request.body.name, ctx.clock.now());
    reply.code(201);
    return changed({ id });
  });

  route(
    app,
    "DELETE /projects/{project_id}/branches/{branch_id}/auth/users/{auth_user_id}",
    async (request, reply) => {
      const { auth } = branchAuth(request);
      userOf(auth, request.params.auth_user_id);
      delete auth.users[request.params.auth_user_id];
      ctx.changed();
      return reply.code(204).send();
    },
  );

  route(
    app,
    "PUT /projects/{project_id}/branches/{branch_id}/auth/users/{auth_user_id}/role",
    async (request) => {
      userOf(branchAuth(request).auth, request.params.auth_user_id).roles = [...request.body.roles];
      return changed({ id: request.params.auth_user_id });
    },
  );

  // The project-level routes: the default branch's Auth.

  route(app, "POST /projects/auth/create", async (request, reply) => {
    const { project_id, branch_id, auth_provider, database_name } = request.body;
    const { project, branch } = projectBranch(request, project_id, branch_id);
    const auth = enableAuth(project, branch, auth_provider, database_name, ctx.clock.now());
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
    const id = addUser(auth, request.body.email, request.body.name, ctx.clock.now());
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
    const auth = authOf(branch);
    if (auth.auth_provider !== request.params.auth_provider)
      throw notFound(
        `the default branch's Auth uses provider ${auth.auth_provider}, not ${request.params.auth_provider}`,
      );
    disableAuth(branch, request.body?.delete_data === true);
    return noBody(reply);
  });

  route(app, "GET /projects/{project_id}/auth/domains", async (request) =>
    renderDomains(authOf(defaultBranch(request))),
  );

  route(app, "POST /projects/{project_id}/auth/domains", async (request, reply) => {
    addDomain(authOf(defaultBranch(request)), request.body.domain);
    return noBody(reply, 201);
  });

  route(app, "DELETE /projects/{project_id}/auth/domains", async (request, reply) => {
    removeDomains(
      authOf(defaultBranch(request)),
      request.body.domains.map((d) => d.domain),
    );
    return noBody(reply);
  });

  route(app, "GET /projects/{project_id}/auth/email_server", async (request) =>
    renderEmailProvider(authOf(defaultBranch(request))),
  );

  route(app, "PATCH /projects/{project_id}/auth/email_server", async (request) => {
    const auth = authOf(defaultBranch(request));
    auth.email_provider = { ...request.body };
    return changed(renderEmailProvider(auth));
  });

  route(app, "GET /projects/{project_id}/auth/oauth_providers", async (request) => ({
    providers: authOf(defaultBranch(request)).oauth_providers.map(renderOauthProvider),
  }));

  route(app, "POST /projects/{project_id}/auth/oauth_providers", async (request) =>
    changed(renderOauthProvider(addOauthProvider(authOf(defaultBranch(request)), request.body))),
  );

  route(app, "PATCH /projects/{project_id}/auth/oauth_providers/{oauth_provider_id}", async (request) =>
    changed(
      renderOauthProvider(
        updateOauthProvider(authOf(defaultBranch(request)), request.params.oauth_provider_id, request.body),
      ),
    ),
  );

  route(
    app,
    "DELETE /projects/{project_id}/auth/oauth_providers/{oauth_provider_id}",
    async (request, reply) => {
      removeOauthProvider(authOf(defaultBranch(request)), request.params.oauth_provider_id);
      return noBody(reply);
    },
  );

  route(app, "DELETE /projects/{project_id}/auth/users/{auth_user_id}", async (request, reply) => {
    const auth = authOf(defaultBranch(request));
    userOf(auth, request.params.auth_user_id);
    delete auth.users[request.params.auth_user_id];
    return noBody(reply, 204);
  });
}

/** Registers the JWKS of every branch's Auth on the server itself: no API key, as an app fetches it. */
export function authJwksRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: { id: string } }>(
    `${AUTH_BASE_PATH}/:id/.well-known/jwks.json`,
    async (request, reply) => {
      const auth = findAuthByProviderProject(ctx.store.branches.values(), request.params.id);
      if (!auth)
        return reply.code(404).send({ message: `no Auth with provider project ${request.params.id}` });
      return { keys: [publicJwk(auth)] };
    },
  );
}
