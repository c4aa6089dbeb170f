// A recording proxy in front of the emulator. The emulator's own faults answer *instead of* the API
// (nothing happens behind them); this proxy lets the API act first and then loses or spoils the answer:
// a 502 page, a reset connection, or a body rewritten on its way back. It also collects every secret
// the API handed out (key tokens, database passwords), so the suite can prove none of them leaks.
import { startForwarding } from "../../support/forward";

/** What happens to the API's answer to a matching request. */
export type ProxyFault =
  | { kind: "bad-gateway-after" }
  | { kind: "reset-after" }
  | { kind: "rewrite"; rewrite: (body: string) => string };

interface Rule {
  method: string;
  path: RegExp;
  fault: ProxyFault;
  remaining: number;
}

const TOKEN = /napi_[a-z0-9]{64}/g;
const BAD_GATEWAY =
  "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>";

/** A running proxy. `url` replaces the emulator's API URL. */
export interface FaultProxy {
  url: string;
  /** Scripts `fault` for the next `count` requests with `method` whose path (below /api/v2) matches. */
  after(method: string, path: RegExp, fault: ProxyFault, count?: number): void;
  /** Faults applied so far. */
  readonly applied: number;
  /** The requests whose answers were lost or spoiled, with their bodies (oldest first). */
  readonly faulted: ReadonlyArray<{ method: string; path: string; body: string }>;
  /** Every key token and database password seen in an API response. */
  readonly secrets: ReadonlySet<string>;
  stop(): Promise<void>;
}

function collectSecrets(text: string, into: Set<string>): void {
  for (const token of text.match(TOKEN) ?? []) into.add(token);
  try {
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value !== null && typeof value === "object") {
        for (const [k, v] of Object.entries(value)) {
          if ((k === "password" || k === "connection_uri") && typeof v === "string" && v.length >= 8)
            into.add(v);
          else walk(v);
        }
      }
    };
    walk(JSON.parse(text));
  } catch {
    // Not JSON: tokens were collected above.
  }
}

/** Starts a proxy to the emulator whose API is at `apiUrl` (…/api/v2). */
export async function startProxy(apiUrl: string): Promise<FaultProxy> {
  const upstream = new URL(apiUrl);
  const prefix = upstream.pathname.replace(/\/$/, "");
  const rules: Rule[] = [];
  const secrets = new Set<string>();
  const faulted: Array<{ method: string; path: string; body: string }> = [];
  let applied = 0;

  const take = (method: string, path: string): ProxyFault | undefined => {
    const i = rules.findIndex((r) => r.method === method && r.path.test(path));
    if (i < 0) return undefined;
    const rule = rules[i]!;
    rule.remaining -= 1;
    if (rule.remaining <= 0) rules.splice(i, 1);
    applied += 1;
    return rule.fault;
  };

  const { server, port } = await startForwarding(upstream, {
    answer(req, res, answer) {
      const text = answer.body.toString("utf8");
      collectSecrets(text, secrets);
      const path = (req.url ?? "").split("?")[0]!.slice(prefix.length);
      const fault = take(req.method ?? "", path);
      if (fault) faulted.push({ method: req.method ?? "", path, body: answer.sent.toString("utf8") });
      if (fault?.kind === "reset-after") {
        req.socket.destroy();
        return;
      }
      if (fault?.kind === "bad-gateway-after") {
        res.writeHead(502, { "content-type": "text/html" }).end(BAD_GATEWAY);
        return;
      }
      const out = fault?.kind === "rewrite" ? fault.rewrite(text) : text;
      res.writeHead(answer.status, answer.headers).end(out);
    },
  });
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    after(method, path, fault, count = 1) {
      rules.push({ method, path, fault, remaining: count });
    },
    get applied() {
      return applied;
    },
    faulted,
    secrets,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
