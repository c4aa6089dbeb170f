import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorContext } from "../context";
import { badRequest } from "../errors";
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
// The project-level routes the document marks deprecated, which act on the project's default
// branch, are in auth-project.ts.

/** The origin the request came to: the base and JWKS URLs point back at this server. */
export const originOf = (request: FastifyRequest) =>
  `${request.protocol}://${request.headers.host ?? "localhost"}`;

/** How an Auth route answers a change: each tells persistence. */
export function authAnswers(ctx: EmulatorContext) {
  return {
    /** Applies a change and tells persistence. */
    changed: <T>(value: T): T => {
      ctx.changed();
      return value;
    },
    /** Answers a change the document gives no body, and tells persistence. */
    noBody: (reply: FastifyReply, status = 200) => {
      ctx.changed();
      return reply.code(status).send();
    },
  };
}

type BranchPath = FastifyRequest<{ Params: { project_id: string; branch_id: string } }>;

/** Registers the Auth routes of a branch, and `GET /auth` (who the caller is). */
export function authRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { changed, noBody } = authAnswers(ctx);

  /** The path's branch and its Auth (404 when Auth is off). */
  const branchAuth = (request: BranchPath): { branch: BranchRecord; auth: BranchAuthRecord } => {
    const { branch } = branchOf(ctx, request);
    return { branch, auth: authOf(branch) };
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
