/**
 * Events the client reports through `ClientOptions.onEvent`, for logs and benchmarks.
 * They carry methods, paths, ids and timings; never a key, a header or a body.
 */

/** One observable step of the client. */
export type ClientEvent =
  | {
      /** An HTTP attempt got a response. */
      type: "response";
      method: string;
      path: string;
      pathTemplate: string;
      status: number;
      attempt: number;
      elapsedMs: number;
      requestId: string;
    }
  | {
      /** A failed attempt will be retried after `delayMs`. */
      type: "retry";
      method: string;
      path: string;
      pathTemplate: string;
      attempt: number;
      delayMs: number;
      rule: string;
      /** Time since the logical request first asked (its throttle waits and earlier attempts). */
      elapsedMs: number;
      status: number | undefined;
      networkCode: string | undefined;
      requestId: string;
    }
  | {
      /** The client-side throttle held a request back. */
      type: "throttled";
      method: string;
      pathTemplate: string;
      waitedMs: number;
    }
  | {
      /** A 429 arrived; the throttle slowed down. */
      type: "rate-limited";
      method: string;
      pathTemplate: string;
      pauseMs: number | undefined;
      /** Which limit was slowed: the route's alone, or the account's too. */
      limit: "route" | "account";
    }
  | {
      /** The shared limiter's server could not be used: requests go on under this process's throttle alone. */
      type: "limiter-unavailable";
      reason: string;
    }
  | {
      /** A mutating call waits behind `ahead` earlier calls on the same project. */
      type: "queued";
      projectId: string;
      ahead: number;
    }
  | {
      /** 423 retries were spent: waiting for the project's unfinished operations before trying again. */
      type: "locked-wait";
      projectId: string;
      pendingOperationIds: string[];
    }
  | {
      /** An awaited operation changed status. `note` explains `skipped` / `failed`. */
      type: "operation";
      projectId: string;
      operationId: string;
      /** The branch and compute the operation works on, when the API names them. */
      branchId: string | undefined;
      endpointId: string | undefined;
      action: string;
      status: string;
      failuresCount: number;
      note: string | undefined;
    };

/** Sink for events; a throwing listener is ignored so logging can never break a request. */
export type EventSink = (event: ClientEvent) => void;

/** Wrap a listener so it never throws into the client. */
export function safeSink(listener: ((event: ClientEvent) => void) | undefined): EventSink {
  if (listener === undefined) return () => {};
  return (event) => {
    try {
      listener(event);
    } catch {
      // A broken logger must not fail the request.
    }
  };
}
