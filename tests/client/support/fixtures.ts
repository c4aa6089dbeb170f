/**
 * Builders of API-shaped records for client tests (the shapes the API documents), and a fake
 * transport. The suites that time the client's schedules (retry.loop.test.ts, throttle.test.ts,
 * wait.test.ts, queue.test.ts) use it: they run under sinon fake timers, where a virtual minute of
 * 423 doubling, 429 backoff or poll intervals passes in no time, and a real socket to the emulator
 * would not answer while the clock is frozen. Every other client suite uses the emulator.
 */
import type { TransportFailure, TransportRequest, TransportResponse } from "../../../provider/client";
import { TransportFailure as Failure } from "../../../provider/client";

/** A key that must never show up in messages or events. */
export const SECRET_KEY = `napi_${"s3cr3tk3y".repeat(7)}x`;

let seq = 0;
function uuid(): string {
  seq++;
  return `00000000-0000-4000-8000-${String(seq).padStart(12, "0")}`;
}

export function operation(overrides: Record<string, unknown> = {}) {
  return {
    id: uuid(),
    project_id: "hidden-river-50598307",
    branch_id: "br-damp-glitter-adqd4hk5",
    action: "create_branch",
    status: "running",
    failures_count: 0,
    created_at: "2025-01-01T00:00:00.123456Z",
    updated_at: "2025-01-01T00:00:00.123456Z",
    total_duration_ms: 0,
    ...overrides,
  };
}

export function branch(overrides: Record<string, unknown> = {}) {
  return {
    id: "br-damp-glitter-adqd4hk5",
    project_id: "hidden-river-50598307",
    parent_id: "br-main-00000000",
    name: "preview-1",
    default: false,
    current_state: "init",
    created_at: "2025-01-01T00:00:00Z",
    updated_at: "2025-01-01T00:00:00Z",
    creation_source: "console",
    ...overrides,
  };
}

export function project(id: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    name: id,
    platform_id: "aws",
    region_id: "aws-us-east-2",
    provisioner: "k8s-neonvm",
    pg_version: 17,
    cpu_used_sec: 0,
    locked: false,
    created_at: "2025-01-01T00:00:00Z",
    updated_at: "2025-01-01T00:00:00Z",
    proxy_host: "us-east-2.aws.neon.tech",
    branch_logical_size_limit: 0,
    branch_logical_size_limit_bytes: 0,
    owner_id: "u1",
    ...overrides,
  };
}

/** A JSON response for fake transports. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): TransportResponse {
  return {
    status,
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? "" : JSON.stringify(body),
  };
}

/** A fake transport recording `Date.now()` at each attempt. */
export function fakeTransport(
  handler: (request: TransportRequest, index: number) => TransportResponse | Promise<TransportResponse>,
) {
  const calls: Array<{ at: number; request: TransportRequest }> = [];
  const transport = async (request: TransportRequest): Promise<TransportResponse> => {
    calls.push({ at: Date.now(), request });
    return handler(request, calls.length - 1);
  };
  return { transport, calls };
}

/** What a transport throws when the connection is reset. */
export function connectionReset(): TransportFailure {
  return new Failure("ECONNRESET", "socket hang up");
}
