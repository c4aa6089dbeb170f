/**
 * A small scriptable HTTP server on 127.0.0.1 port 0 standing in for the API in client tests.
 * Routes are registered per test; `script` queues one-off replies that win over routes; every request
 * is recorded (method, path, query, headers, body) for assertions.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the server saw it (path relative to /api/v2). */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: unknown;
}

/** What to answer. `destroy` drops the connection without a response. */
export interface Reply {
  status?: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
  destroy?: boolean;
  delayMs?: number;
}

export type Handler = (request: RecordedRequest, params: Record<string, string>) => Reply | Promise<Reply>;

interface Route {
  method: string;
  regex: RegExp;
  names: string[];
  handler: Handler;
}

function compile(pattern: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const source = pattern.replace(/:([a-z_]+)/g, (_m, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
  return { regex: new RegExp(`^${source}$`), names };
}

export interface FakeApi {
  /** Base URL ending in /api/v2. */
  url: string;
  requests: RecordedRequest[];
  /** `["POST /projects/p1/branches", ...]` (raw paths, query omitted). */
  log(): string[];
  /** Answer `method pattern` (e.g. `/projects/:project_id/branches`) with `handler` from now on. */
  route(method: string, pattern: string, handler: Handler | Reply): void;
  /** Answer the next matching requests with these replies, in order, before any route. */
  script(method: string, pattern: string, replies: Reply[]): void;
  stop(): Promise<void>;
}

/** Start a fake API server. */
export async function startFakeApi(): Promise<FakeApi> {
  const routes: Route[] = [];
  const scripts: Array<Route & { replies: Reply[] }> = [];
  const requests: RecordedRequest[] = [];

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const rawBody = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = rawBody ? JSON.parse(rawBody) : undefined;
      } catch {
        body = rawBody;
      }
      const path = url.pathname.replace(/^\/api\/v2/, "");
      const recorded: RecordedRequest = {
        method: req.method ?? "GET",
        path,
        query: url.searchParams,
        headers: req.headers,
        rawBody,
        body,
      };
      requests.push(recorded);

      let reply: Reply = {
        status: 404,
        json: { code: "", message: `no fake route for ${req.method} ${path}` },
      };
      const match = (route: Route) => {
        if (route.method !== recorded.method) return undefined;
        const m = route.regex.exec(path);
        if (!m) return undefined;
        return Object.fromEntries(route.names.map((name, i) => [name, decodeURIComponent(m[i + 1] ?? "")]));
      };
      const scripted = scripts.find((s) => s.replies.length > 0 && match(s) !== undefined);
      if (scripted) {
        reply = scripted.replies.shift() as Reply;
      } else {
        for (let i = routes.length - 1; i >= 0; i--) {
          const route = routes[i] as Route;
          const params = match(route);
          if (params !== undefined) {
            reply = await route.handler(recorded, params);
            break;
          }
        }
      }
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      if (reply.destroy) {
        req.socket.destroy();
        return;
      }
      const headers: Record<string, string> = { ...reply.headers };
      let payload = "";
      if (reply.json !== undefined) {
        payload = JSON.stringify(reply.json);
        headers["content-type"] ??= "application/json";
      } else if (reply.text !== undefined) {
        payload = reply.text;
      }
      res.writeHead(reply.status ?? 200, headers);
      res.end(payload);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/api/v2`,
    requests,
    log: () => requests.map((r) => `${r.method} ${r.path}`),
    route(method, pattern, handler) {
      const fn: Handler = typeof handler === "function" ? handler : () => handler;
      routes.push({ method, ...compile(pattern), handler: fn });
    },
    script(method, pattern, replies) {
      scripts.push({ method, ...compile(pattern), handler: () => ({}), replies: [...replies] });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
