// The code a function's Worker thread runs (docs/api-rules.md §27), kept as source text: a Worker
// started with `eval: true` runs it the same from the TypeScript sources, the built package and the
// single executable, where no separate script file can be started. It imports the deployment's
// entry module (a file URL in `workerData.entry`), resolves its handler as the runtime does
// (`export default { fetch(req) }` first, then `export default function (req)`), and answers each
// message `{id, method, url, headers, body}` with `{started: id}` once its handler is called, then
// `{id, status, headers, body}`, bodies whole.
// A handler that throws, answers something other than a Response, or a module that does not load
// gives a 500 whose body carries the error, as the platform's local runtime answers.

/** The Worker's program (CommonJS, run with `eval: true`). */
export const FUNCTION_WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");

const NO_HANDLER =
  "No request handler found in the source module. Export one of:\\n" +
  "  export default { fetch(req) { /* ... */ } }\\n" +
  "  export default function (req) { /* ... */ }";

const handler = import(workerData.entry).then((mod) => {
  const main = mod.default;
  if (typeof main === "object" && main !== null && typeof main.fetch === "function")
    return (req) => main.fetch(req);
  if (typeof main === "function") return main;
  throw new Error(NO_HANDLER);
});
// A module that fails to load answers each request with its error instead.
handler.catch(() => {});

function failure(error) {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write("Request handler threw an error:\\n" + message + "\\n");
  return {
    status: 500,
    headers: [["content-type", "text/plain; charset=utf-8"]],
    body: new TextEncoder().encode("Internal Server Error\\n\\n" + message),
  };
}

async function answer(message) {
  const init = { method: message.method, headers: message.headers };
  if (message.body !== null) init.body = message.body;
  const run = await handler;
  // The time limit counts from here: the Worker's start and the module's load are not the request's.
  parentPort.postMessage({ started: message.id });
  const response = await run(new Request(message.url, init));
  if (typeof response !== "object" || response === null || typeof response.arrayBuffer !== "function")
    throw new Error("the handler answered " + String(response) + ", not a Response");
  const body = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: [...response.headers], body };
}

parentPort.on("message", async (message) => {
  let out;
  try {
    out = await answer(message);
  } catch (error) {
    out = failure(error);
  }
  parentPort.postMessage({ id: message.id, ...out }, [out.body.buffer]);
});
`;
