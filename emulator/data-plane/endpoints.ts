import { isIP } from "node:net";
import type { EmulatorContext } from "../context";
import type { HttpConnectionPool } from "./http-pool";
import { EndpointProxy, type ProxyTarget } from "./proxy";

// The endpoints' front doors: one EndpointProxy per compute endpoint of the state (direct and
// pooled loopback ports), opened when a sync first sees the endpoint and closed when it goes. A
// suspend ends the compute's sessions and its SQL over HTTP connections, as the service's does.

/** The proxies of a data plane's endpoints, by endpoint id. */
export class EndpointProxies {
  readonly #ctx: EmulatorContext;
  readonly #target: ProxyTarget;
  readonly #pool: HttpConnectionPool;
  readonly #proxies = new Map<string, EndpointProxy>();
  /** How many of each endpoint's operations the last sync saw. */
  readonly #opsSeen = new Map<string, number>();

  constructor(ctx: EmulatorContext, target: ProxyTarget, pool: HttpConnectionPool) {
    this.#ctx = ctx;
    this.#target = target;
    this.#pool = pool;
  }

  /** Where a client reaches an endpoint: loopback and its direct or pooled port; undefined before the first sync that saw it. */
  address(endpointId: string, pooled: boolean): { host: string; port: number } | undefined {
    const proxy = this.#proxies.get(endpointId);
    if (!proxy) return undefined;
    return { host: "127.0.0.1", port: pooled ? proxy.ports.pooled : proxy.ports.direct };
  }

  /**
   * The endpoint a connection string's host and port name: on loopback, the endpoint whose direct or
   * pooled port it is; a host name names the endpoint its first label is (less `-pooler`), as the
   * service reads it. Undefined when neither says.
   */
  endpointAt(host: string, port: number | undefined): string | undefined {
    if (isIP(host) !== 0 || host === "localhost") {
      for (const [id, proxy] of this.#proxies) {
        if (port !== undefined && (proxy.ports.direct === port || proxy.ports.pooled === port)) return id;
      }
      return undefined;
    }
    const label = host.split(".")[0] ?? "";
    return label.endsWith("-pooler") ? label.slice(0, -"-pooler".length) : label;
  }

  /** The front door of an endpoint, once a sync has seen it. */
  proxyOf(endpointId: string): EndpointProxy | undefined {
    return this.#proxies.get(endpointId);
  }

  /** Opens a proxy per new endpoint, closes those of endpoints gone, and ends the sessions of computes suspended since the last look. */
  async sync(): Promise<void> {
    const { store } = this.#ctx;
    for (const [id, proxy] of this.#proxies) {
      if (store.endpoints.has(id)) continue;
      this.#proxies.delete(id);
      this.#opsSeen.delete(id);
      this.#pool.drop({ endpointId: id });
      await proxy.close();
    }
    for (const endpoint of store.endpoints.values()) {
      let proxy = this.#proxies.get(endpoint.id);
      if (!proxy) {
        proxy = await EndpointProxy.open(endpoint.id, this.#target);
        this.#proxies.set(endpoint.id, proxy);
      }
      const seen = this.#opsSeen.get(endpoint.id);
      const fresh = seen === undefined ? [] : endpoint.op_ids.slice(seen);
      if (fresh.some((id) => store.operations.get(id)?.action === "suspend_compute")) {
        proxy.dropSessions();
        this.#pool.drop({ endpointId: endpoint.id });
      }
      this.#opsSeen.set(endpoint.id, endpoint.op_ids.length);
    }
  }

  /** Closes every proxy (their sessions end). */
  async close(): Promise<void> {
    await Promise.all([...this.#proxies.values()].map((p) => p.close()));
    this.#proxies.clear();
  }
}
