import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { unpackArchive } from "./function-archive";
import { FUNCTION_WORKER_SOURCE } from "./function-worker";

// The functions the emulator runs (docs/api-rules.md §27): one Worker thread per function, running
// its active deployment, unpacked into a folder of the OS's temporary folder. A Worker starts with
// the first request to its function and is replaced when what it runs changes (a newer deployment
// became active, or its environment did); it ends, with its folder, when its function or branch is
// gone, when it runs past the time limit, and when the emulator stops. Workers never hold the
// emulator's process open. Requests and answers are buffered whole: nothing streams.

/** A request to a function, as its handler gets it: the URL it sees, and the body whole. */
export interface FunctionRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body: Uint8Array | null;
}

/** A function's answer: its status, headers and whole body. */
export interface FunctionResponse {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
}

/** What runs for a function: its deployment's archive with the environment it is given. */
export interface FunctionRun {
  /** The function's name in its URL, `<branchId>-<slug>`: one Worker each. */
  target: string;
  /** Names what the Worker was started with; another version replaces the Worker. */
  version: string;
  /** The deployment's ZIP archive, read when a Worker starts; throws when its bytes are gone. */
  archive(): Buffer;
  env: Record<string, string>;
}

interface Pending {
  resolve(answer: FunctionResponse): void;
  timer: NodeJS.Timeout;
  /** The Worker called the handler: the request's own time limit starts. */
  started(): void;
}

/** Real milliseconds a Worker may take to start and load its module before a request is answered 504. */
const START_LIMIT_MS = 10_000;

/** One function's Worker, the folder its deployment is unpacked in, and the requests it holds. */
interface Running {
  version: string;
  worker: Worker;
  folder: string;
  pending: Map<number, Pending>;
  /** Why it answers nothing any more, once it ended. */
  ended?: string;
}

/** An answer the emulator gives for the function: a JSON error body as the API's. */
export function functionError(status: number, message: string): FunctionResponse {
  return {
    status,
    headers: [["content-type", "application/json; charset=utf-8"]],
    body: new TextEncoder().encode(JSON.stringify({ code: "", message })),
  };
}

/** The 500 the runtime answers for a function that failed, with the error in the body. */
function crashed(error: unknown): FunctionResponse {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return {
    status: 500,
    headers: [["content-type", "text/plain; charset=utf-8"]],
    body: new TextEncoder().encode(`Internal Server Error\n\n${message}`),
  };
}

/** The Workers of one emulator's functions. */
export class FunctionRunner {
  readonly #running = new Map<string, Running>();
  readonly #timeoutMs: number;
  #nextId = 0;
  #stopped = false;

  /** `timeoutMs`: how long (real time) a request may run before it gets 504 and its Worker ends. */
  constructor(timeoutMs: number) {
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
      throw new RangeError(`functionTimeoutMs must be > 0, got ${timeoutMs}`);
    this.#timeoutMs = timeoutMs;
  }

  /** Sends the request to the function's Worker (started or replaced as `run` says) and answers its response. */
  invoke(run: FunctionRun, request: FunctionRequest): Promise<FunctionResponse> {
    if (this.#stopped) return Promise.resolve(functionError(503, "the emulator is stopping"));
    let running = this.#running.get(run.target);
    if (running !== undefined && running.version !== run.version) {
      void this.#end(run.target, running, "a newer deployment or environment took over");
      running = undefined;
    }
    try {
      running ??= this.#start(run);
    } catch (error) {
      return Promise.resolve(crashed(error));
    }
    return this.#send(run.target, running, request);
  }

  /**
   * Posts the request to the Worker; past the time limit it is answered 504 and the Worker ends. The
   * limit counts from the call of the handler (the Worker says when): until then the Worker's start
   * and its module's load have a bound of their own, so a slow machine's cold start is not a timeout.
   */
  #send(target: string, running: Running, request: FunctionRequest): Promise<FunctionResponse> {
    const id = this.#nextId++;
    return new Promise<FunctionResponse>((resolve) => {
      const limit = (ms: number, what: string) => {
        const timer = setTimeout(() => {
          running.pending.delete(id);
          resolve(functionError(504, `the function did not ${what} within ${ms} ms`));
          void this.#end(target, running, `another request to the function ran past ${ms} ms`);
        }, ms);
        timer.unref();
        return timer;
      };
      const pending: Pending = {
        resolve,
        timer: limit(Math.max(this.#timeoutMs, START_LIMIT_MS), "start"),
        started: () => {
          clearTimeout(pending.timer);
          pending.timer = limit(this.#timeoutMs, "answer");
        },
      };
      running.pending.set(id, pending);
      const body = request.body === null ? null : new Uint8Array(request.body);
      running.worker.postMessage({ id, ...request, body }, body === null ? [] : [body.buffer]);
    });
  }

  /** Ends the Worker of every function whose current version (by `versionOf`) is not the one it runs. */
  keepOnly(versionOf: (target: string) => string | undefined): void {
    for (const [target, running] of this.#running)
      if (versionOf(target) !== running.version)
        void this.#end(target, running, "the function, its deployment or its branch changed");
  }

  /** Ends every Worker and refuses further requests; safe to call twice. */
  async stop(): Promise<void> {
    this.#stopped = true;
    const ending = [...this.#running].map(([target, running]) =>
      this.#end(target, running, "the emulator is stopping"),
    );
    await Promise.all(ending);
  }

  #start(run: FunctionRun): Running {
    const folder = mkdtempSync(join(tmpdir(), "clouddb-function-"));
    let entry: string;
    try {
      entry = unpackArchive(run.archive(), folder);
    } catch (error) {
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
    const worker = new Worker(FUNCTION_WORKER_SOURCE, {
      eval: true,
      workerData: { entry: pathToFileURL(entry).href },
      env: run.env,
      // The emulator's own flags (a TypeScript loader, an inspector) are not the function's.
      execArgv: [],
    });
    worker.unref();
    const running: Running = { version: run.version, worker, folder, pending: new Map() };
    worker.on("message", (answer: (FunctionResponse & { id: number }) | { started: number }) => {
      if ("started" in answer) {
        running.pending.get(answer.started)?.started();
        return;
      }
      const waiting = running.pending.get(answer.id);
      if (waiting === undefined) return;
      running.pending.delete(answer.id);
      clearTimeout(waiting.timer);
      waiting.resolve({ status: answer.status, headers: answer.headers, body: answer.body });
    });
    // An error the handler's own code leaves uncaught ends the thread: what it held gets the error.
    worker.on("error", (error) => {
      this.#settle(running, crashed(error));
      void this.#end(run.target, running, String(error));
    });
    // A Worker that ends on its own (its code called process.exit) is started again by the next request.
    worker.on("exit", () => {
      if (running.ended !== undefined) return;
      running.ended = "its worker exited";
      this.#settle(running, functionError(502, "the function's worker exited before it answered"));
      this.#forget(run.target, running);
      rmSync(running.folder, { recursive: true, force: true });
    });
    this.#running.set(run.target, running);
    return running;
  }

  /** Answers every request the Worker still holds with `answer`. */
  #settle(running: Running, answer: FunctionResponse): void {
    for (const { resolve, timer } of running.pending.values()) {
      clearTimeout(timer);
      resolve(answer);
    }
    running.pending.clear();
  }

  /** Ends the Worker: what it holds gets 503 saying why, and its folder goes. */
  async #end(target: string, running: Running, why: string): Promise<void> {
    if (running.ended !== undefined) return;
    running.ended = why;
    this.#settle(running, functionError(503, `the function's worker was stopped: ${why}`));
    this.#forget(target, running);
    await running.worker.terminate();
    rmSync(running.folder, { recursive: true, force: true });
  }

  #forget(target: string, running: Running): void {
    if (this.#running.get(target) === running) this.#running.delete(target);
  }
}
