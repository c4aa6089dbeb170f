import type { FastifyRequest } from "fastify";
import type { Principal } from "../auth";

// The authenticated caller of a request, set by the server's auth hook.

const principals = new WeakMap<FastifyRequest, Principal>();

/** Records the caller of a request. */
export function setPrincipal(request: FastifyRequest, principal: Principal): void {
  principals.set(request, principal);
}

/** The caller of an authenticated API request; throws if the auth hook did not run. */
export function principalOf(request: FastifyRequest): Principal {
  const principal = principals.get(request);
  if (!principal) throw new Error("request reached a handler without authentication");
  return principal;
}

/** The caller, if the request was authenticated. */
export function maybePrincipal(request: FastifyRequest): Principal | undefined {
  return principals.get(request);
}
