import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { DEMO, REAL_LIMITS, type RunningEmulator, startEmulator } from "../../emulator";
import { type ClientEvent, createClient, resetRegistry } from "../../provider/client";
import { resolveLimiter } from "../../provider/client/config";
import { startValkey, type ValkeyServer } from "../support/valkey";

const WORKER = join(__dirname, "support", "limiter-worker.ts");
const KEY_CREATE = "POST /organizations/{org_id}/api_keys";

interface WorkerReport {
  rateLimited: number;
  unavailable: number;
}

/** Run one pipeline process; resolves with its report. */
function pipeline(env: Record<string, string>): Promise<WorkerReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", WORKER], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString();
    });
    child.once("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim()) as WorkerReport)
        : reject(new Error(`worker exited ${code}: ${err}`)),
    );
  });
}

/** Two pipelines on one account, each creating `each` project-scoped keys at the same moment. */
async function twoPipelines(
  emu: RunningEmulator,
  each: number,
  limiterUrl?: string,
): Promise<WorkerReport[]> {
  const env: Record<string, string> = {
    CLOUDDB_API_URL: emu.url,
    CLOUDDB_API_KEY: DEMO.personalKey,
    ORG_ID: DEMO.orgId,
    PROJECT_ID: DEMO.orgProjectId,
    COUNT: String(each),
    // Both start together, after ts-node has loaded in each.
    START_AT: String(Date.now() + 4_000),
    CLOUDDB_LIMITER_URL: limiterUrl ?? "",
  };
  return Promise.all([pipeline(env), pipeline(env)]);
}

describe("shared limiter on a real Valkey server", function () {
  this.timeout(60_000);
  let valkey: ValkeyServer;
  let emu: RunningEmulator;

  before(async () => {
    valkey = await startValkey();
  });
  after(async () => {
    await valkey?.stop();
  });
  beforeEach(async () => {
    resetRegistry();
    emu = await startEmulator({ seed: "demo" });
  });
  afterEach(async () => {
    await emu.stop();
  });

  it("keeps two pipeline processes on one account at 0 x 429 and near the 10/s key-creation limit", async () => {
    const reports = await twoPipelines(emu, 70, valkey.url);
    assert.deepEqual(
      reports.map((r) => [r.rateLimited, r.unavailable]),
      [
        [0, 0],
        [0, 0],
      ],
    );
    assert.equal(emu.control.requests({ status: 429 }).length, 0);
    const arrivals = emu.control.requests({ route: KEY_CREATE, status: 200 }).map((e) => e.at);
    assert.equal(arrivals.length, 140);
    // The service's bucket starts full, so n keys need (n - capacity) / rate seconds after the first
    // arrives; the limiter must reach at least 0.9 of that rate. Its margin after the first burst is
    // paid once, so the run is long enough for the steady rate to show.
    const rate = REAL_LIMITS.orgKeyCreatePerSecond;
    const spanS = (Math.max(...arrivals) - Math.min(...arrivals)) / 1000;
    const reached = (arrivals.length - rate) / spanS;
    assert.ok(reached >= 0.9 * rate, `${reached.toFixed(2)} keys/s after the first burst`);
  });

  it("without it, the same two pipelines meet the service's 429s (what the limiter prevents)", async () => {
    const reports = await twoPipelines(emu, 30);
    assert.ok(reports.reduce((n, r) => n + r.rateLimited, 0) > 0);
    assert.equal(emu.control.requests({ method: "POST", status: 200 }).length, 60);
  });

  it("goes on under the process's own throttle when the server is unreachable, and says so once", async () => {
    const down = await startValkey();
    const url = down.url;
    await down.stop();
    const events: ClientEvent[] = [];
    const client = createClient({
      apiUrl: emu.url,
      apiKey: DEMO.personalKey,
      limiterUrl: url,
      onEvent: (e) => events.push(e),
    });
    const started = Date.now();
    for (let i = 0; i < 5; i++) await client.listApiKeys();
    const elapsed = Date.now() - started;
    const reports = events.filter((e) => e.type === "limiter-unavailable");
    assert.equal(reports.length, 1);
    // One connection attempt is refused at once; later requests do not wait on the server again.
    assert.ok(elapsed < 2_000, `${elapsed} ms`);
    assert.equal(emu.control.requests({ route: "GET /api_keys" }).length, 5);
  });

  it("does not load redis when no limiter URL is set", async () => {
    const script = `
      process.env.CLOUDDB_LIMITER_URL = "";
      const { createClient } = require(${JSON.stringify(join(__dirname, "..", "..", "provider", "client"))});
      createClient({ apiUrl: ${JSON.stringify(emu.url)}, apiKey: ${JSON.stringify(DEMO.personalKey)} })
        .listApiKeys()
        .then(() => {
          const loaded = Object.keys(require.cache).filter((f) => /node_modules[\\\\/](redis|@redis)[\\\\/]/.test(f));
          process.stdout.write(JSON.stringify(loaded));
        });`;
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      let text = "";
      child.stdout.on("data", (c: Buffer) => {
        text += c.toString();
      });
      child.once("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`exit ${code}`))));
    });
    assert.deepEqual(JSON.parse(out), []);
  });

  it("takes its URL from the environment and refuses one that is not redis:// or rediss://", () => {
    assert.equal(resolveLimiter({}, {}), undefined);
    assert.deepEqual(
      resolveLimiter({}, { CLOUDDB_LIMITER_URL: "redis://h:6379", CLOUDDB_LIMITER_ACCOUNT: "acme" }),
      {
        url: "redis://h:6379",
        account: "acme",
      },
    );
    assert.throws(
      () => resolveLimiter({ limiterUrl: "http://user:hunter2hunter2@h:6379" }),
      (e: Error) =>
        /must start with redis:\/\/ or rediss:\/\//.test(e.message) && !e.message.includes("hunter2"),
    );
  });
});
