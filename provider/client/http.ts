/**
 * got is only the transport: it makes one attempt (prefix URL, Bearer key, JSON, our User-Agent, a
 * timeout). Retries, throttling and parsing are ours because a retry must also slow the account-wide
 * throttle, wait out the project's operations after a 423 and stop at the resource's deadline, which
 * got's per-request retry cannot see, and a body is parsed by its route's zod schema, not got's JSON.
 *
 * So got's retry, redirects and HTTP-error throwing are off: the request loop (`request.ts`) decides
 * about every status. got errors are reduced to a code and a message here, so no got object (which
 * holds the request headers) ever escapes into our errors.
 */
import { assertSupportedNode } from "./node-version";

assertSupportedNode();

import type { Got } from "got";
import type { Transport, TransportRequest, TransportResponse } from "./transport";
import { TransportFailure } from "./transport";
import { userAgent } from "./version";

/** What the got transport needs. */
export interface GotTransportOptions {
  apiUrl: string;
  apiKey: string;
}

let loaded: Got | undefined;

/**
 * got, loaded by the first request rather than with the client: its load takes about 0.13
 * CPU-seconds, which a process that sends no request (a provider answering a preview with no
 * change) does not need.
 */
function got(): Got {
  loaded ??= (require("got") as { default: Got }).default;
  return loaded;
}

/** Loads got now, for a process that knows it will send a request soon and is idle meanwhile. */
export function preloadTransport(): void {
  got();
}

/** Build a transport bound to one API URL and key. */
export function createGotTransport(options: GotTransportOptions): Transport {
  let client: Got | undefined;
  const extended = () =>
    (client ??= got().extend({
      prefixUrl: `${options.apiUrl}/`,
      headers: {
        authorization: `Bearer ${options.apiKey}`,
        accept: "application/json",
        "user-agent": userAgent(),
      },
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      allowAbsoluteUrls: false,
    }));

  return async (request: TransportRequest): Promise<TransportResponse> => {
    const send = extended();
    try {
      const response = await send(request.path.replace(/^\/+/, ""), {
        method: request.method,
        searchParams: { ...request.query },
        headers: { ...request.headers },
        ...(request.json === undefined ? {} : { json: request.json }),
        ...(request.form === undefined ? {} : { body: request.form }),
        timeout: { request: request.timeoutMs },
        responseType: "text",
      });
      return { status: response.statusCode, headers: response.headers, body: response.body };
    } catch (error) {
      const code =
        typeof (error as { code?: unknown }).code === "string"
          ? (error as { code: string }).code
          : "EUNKNOWN";
      const message = error instanceof Error ? error.message : String(error);
      throw new TransportFailure(code, message);
    }
  };
}
