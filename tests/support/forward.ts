// A loopback HTTP server between a test's client and the API: each request is read whole and sent
// on to the API, and the API's whole answer is handed to the test, which passes it on, changes it or
// drops it (the fault proxy, the fuzzer's kill switch). A request the API does not answer ends the
// client's connection, as a dead network would.
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** The API's answer to one request, read whole; `headers` without the hop-by-hop ones. */
export interface Answer {
  status: number;
  headers: http.OutgoingHttpHeaders;
  body: Buffer;
  /** The request's body as the client sent it. */
  sent: Buffer;
}

/** What a test does with each request. */
export interface Forwarding {
  /** Whether to send the request on (default yes); when not, the hook has answered or ended it. */
  send?(req: http.IncomingMessage, res: http.ServerResponse): boolean;
  /** Passes on, changes or drops the API's answer. */
  answer(req: http.IncomingMessage, res: http.ServerResponse, answer: Answer): void;
}

/** Starts the server in front of the API at `upstream`; resolves once it listens. */
export async function startForwarding(
  upstream: URL,
  forwarding: Forwarding,
): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (forwarding.send?.(req, res) === false) return;
      const sent = Buffer.concat(chunks);
      const forward = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on("data", (c: Buffer) => body.push(c));
          answer.on("end", () => {
            const headers = { ...answer.headers };
            delete headers["content-length"];
            delete headers["transfer-encoding"];
            delete headers.connection;
            forwarding.answer(req, res, {
              status: answer.statusCode ?? 502,
              headers,
              body: Buffer.concat(body),
              sent,
            });
          });
        },
      );
      forward.on("error", () => req.socket.destroy());
      forward.end(sent);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}
