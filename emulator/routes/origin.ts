import type { FastifyRequest } from "fastify";

/**
 * The origin the caller reached this server on (the socket's local address and port): where a URL
 * the API hands out, a presigned object's or a function's, sends the caller back to.
 */
export function originOf(request: FastifyRequest): string {
  const { localAddress, localPort } = request.raw.socket;
  const host = localAddress?.includes(":") ? `[${localAddress}]` : localAddress;
  return `http://${host}:${localPort}`;
}
