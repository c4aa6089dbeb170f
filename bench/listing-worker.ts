// Child process of benchmark 4: lists a project's operations with the client's streaming iterator
// (`listOperations`) or the `getOperations` data source, and reports JSON on stdout.
// `node --expose-gc -r ts-node/register/transpile-only bench/listing-worker.ts MODE PROBE URL KEY PROJECT`
// MODE: stream | data-source. PROBE: time (no interference) | memory (forced GC every 500 items, so the
// sampled heap is what the reader retains, not garbage the collector has not reached yet).
import { createClient } from "../provider/client";
import { getOperations } from "../provider/data/operations";

async function main(): Promise<void> {
  const [mode, probe, apiUrl, apiKey, projectId] = process.argv.slice(2) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("run with --expose-gc");
  const memory = probe === "memory";
  gc();
  const baseline = process.memoryUsage().heapUsed;
  let peak = baseline;
  const sample = () => {
    if (!memory) return;
    gc();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  };
  const started = performance.now();
  let items = 0;
  if (mode === "stream") {
    const client = createClient({ apiKey, apiUrl });
    for await (const op of client.listOperations(projectId)) {
      if (op.id.length > 0) items++;
      if (items % 500 === 0) sample();
    }
  } else {
    const result = await getOperations({ projectId }, { apiKey, apiUrl });
    items = result.operations.length;
    sample();
  }
  const ms = performance.now() - started;
  process.stdout.write(
    `${JSON.stringify({ items, ms, liveHeapAboveBaseline: peak - baseline, maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
