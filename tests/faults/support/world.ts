// One row's world: an emulator (behind the recording proxy), the provider pointed at it through the
// environment, a recorded state kept the way the Pulumi engine keeps it, and captured logs and errors.
// The invariant checks every row ends with live here.
// Longer than 400 lines: one `World` class, its steps and the invariant checks read the same recorded
// state and logs, and splitting them would pass that state between files.
import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import {
  DEMO,
  type EmulatorOptions,
  type EmulatorStateView,
  type RunningEmulator,
  startEmulator,
} from "../../../emulator";
import { apiKeyProvider, branchProvider } from "../../../provider";
import {
  type ClientEvent,
  type ClientOptions,
  type CloudDbClient,
  createClient,
  resetRegistry,
} from "../../../provider/client";
import { configureFromStack } from "../../../provider/resources/host/settings";
import { forgetPreflight } from "../../../provider/resources/lifecycle/preflight";
import { type FaultProxy, startProxy } from "./proxy";

type Provider = pulumi.dynamic.ResourceProvider<Record<string, unknown>, Record<string, unknown>>;
const PROVIDERS: Record<ResourceType, Provider> = {
  Branch: branchProvider as unknown as Provider,
  ApiKey: apiKeyProvider as unknown as Provider,
};

/** A resource's `check` failed: the engine creates and updates nothing for it. */
export class CheckFailed extends Error {
  override name = "CheckFailed";
}

/** The resource types of the library. */
export type ResourceType = "Branch" | "ApiKey";

/** A resource of the program: its logical name, type and inputs. */
export interface ResourceSpec {
  name: string;
  type: ResourceType;
  inputs: Record<string, unknown>;
}

/** A resource as the engine records it. */
export interface StateEntry {
  type: ResourceType;
  id: string;
  outs: Record<string, unknown>;
  /** Set when a create failed part-way and the provider asked for the object to be kept. */
  initErrors?: string[];
}

/** Totals over every row, for the summary line. */
export const TOTALS = { rows: 0, faults: 0, objects: 0, reported: 0, lost: 0 };

const ENV = [
  "CLOUDDB_API_KEY",
  "CLOUDDB_API_URL",
  "CLOUDDB_POLL_INTERVAL_MS",
  "CLOUDDB_PROJECT_QUEUE",
] as const;

/** Operations poll fast in the matrix: first after 10 ms, at most every 50 ms. */
export const POLL = "10,50";

const NO_CONFIG: pulumi.dynamic.Config = {
  get: () => undefined,
  require: (key: string) => {
    throw new Error(`missing ${key}`);
  },
};

/** The standard program: two branches (one with a compute), a personal key and a project-scoped key. */
export function standardProgram(prefix = "fm"): ResourceSpec[] {
  return [
    {
      name: "branchA",
      type: "Branch",
      inputs: { projectId: DEMO.projectId, name: `${prefix}-a`, endpoints: [{ type: "read_write" }] },
    },
    { name: "branchB", type: "Branch", inputs: { projectId: DEMO.projectId, name: `${prefix}-b` } },
    { name: "personalKey", type: "ApiKey", inputs: { name: `${prefix}-personal` } },
    {
      name: "projectKey",
      type: "ApiKey",
      inputs: { name: `${prefix}-project`, orgId: DEMO.orgId, projectId: DEMO.orgProjectId },
    },
  ];
}

/** A row's world. Create with `World.start()`, end with `stop()`. */
export class World {
  readonly state = new Map<string, StateEntry>();
  /** Errors of the last `up` / `refresh` / `destroy`, by resource name. */
  errors = new Map<string, Error>();
  /** Every error any step raised (for the secret check). */
  readonly allErrors: unknown[] = [];
  /** Captured stdout/stderr of provider calls and client events. */
  readonly logs: string[] = [];
  /** Objects the API created whose create failed with a message saying it may have been applied (ids). */
  readonly reported = new Set<string>();
  /** Faults injected other than the emulator's scripted responses and the proxy's (scripts, out-of-band changes). */
  faults = 0;
  /** Secrets handed out outside the API's responses (console-made credentials). */
  readonly extraSecrets = new Set<string>();
  credential: string = DEMO.personalKey;
  /** Whether `finish()` already counted this row's objects. */
  private counted = false;
  private baseline!: EmulatorStateView;
  private savedEnv = new Map<string, string | undefined>();

  private constructor(
    readonly emulator: RunningEmulator,
    readonly proxy: FaultProxy,
  ) {}

  /** Starts the emulator (demo seed, 20 ms operations unless `options` say otherwise) and the proxy. */
  static async start(options: EmulatorOptions = {}): Promise<World> {
    resetRegistry();
    forgetPreflight();
    configureFromStack(NO_CONFIG);
    const emulator = await startEmulator({ seed: "demo", opDurationMs: 20, ...options });
    const proxy = await startProxy(emulator.url);
    const world = new World(emulator, proxy);
    for (const k of ENV) world.savedEnv.set(k, process.env[k]);
    delete process.env.CLOUDDB_PROJECT_QUEUE;
    process.env.CLOUDDB_API_URL = proxy.url;
    process.env.CLOUDDB_POLL_INTERVAL_MS = POLL;
    world.useCredential(DEMO.personalKey);
    world.baseline = emulator.control.dumpState();
    return world;
  }

  get control() {
    return this.emulator.control;
  }

  /** Points the provider at another credential (CLOUDDB_API_KEY). */
  useCredential(key: string): void {
    this.credential = key;
    this.extraSecrets.add(key);
    process.env.CLOUDDB_API_KEY = key;
  }

  /** A client on the proxy with the current credential, its events captured as logs. */
  client(options: ClientOptions = {}): CloudDbClient {
    return createClient({
      apiKey: this.credential,
      apiUrl: this.proxy.url,
      pollIntervalMs: { first: 10, max: 50 },
      onEvent: (event: ClientEvent) => this.logs.push(JSON.stringify(event)),
      ...options,
    });
  }

  /** Runs `fn` with stdout/stderr copied into `logs`. */
  async captured<T>(fn: () => Promise<T>): Promise<T> {
    const out = process.stdout.write.bind(process.stdout);
    const err = process.stderr.write.bind(process.stderr);
    const tee =
      (write: typeof out) =>
      (chunk: unknown, ...rest: unknown[]): boolean => {
        this.logs.push(typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8"));
        return (write as (c: unknown, ...r: unknown[]) => boolean)(chunk, ...rest);
      };
    process.stdout.write = tee(out) as typeof process.stdout.write;
    process.stderr.write = tee(err) as typeof process.stderr.write;
    try {
      return await fn();
    } finally {
      process.stdout.write = out;
      process.stderr.write = err;
    }
  }

  private fail(name: string, err: unknown): void {
    this.allErrors.push(err);
    this.errors.set(name, err instanceof Error ? err : new Error(String(err)));
  }

  /**
   * `pulumi up`: every resource in parallel, like the engine: create when not in the state (a partial
   * failure is recorded with its id and properties), update when diff says so or the last create failed part-way.
   */
  async up(program: ResourceSpec[]): Promise<Map<string, Error>> {
    this.errors = new Map();
    await this.captured(() =>
      Promise.all(
        program.map(async (spec) => {
          const provider = PROVIDERS[spec.type];
          const entry = this.state.get(spec.name);
          try {
            const checked = await provider.check!(entry?.outs ?? {}, spec.inputs);
            // The engine stops a resource whose check fails, showing each reason.
            if ((checked.failures ?? []).length > 0) {
              throw new CheckFailed((checked.failures ?? []).map((f) => f.reason).join("; "));
            }
            const inputs = checked.inputs ?? spec.inputs;
            if (entry === undefined) {
              try {
                const made = await provider.create(inputs);
                this.state.set(spec.name, { type: spec.type, id: made.id, outs: made.outs ?? {} });
              } catch (err) {
                const partial = err as { id?: unknown; properties?: unknown; reasons?: unknown };
                if (typeof partial.id === "string" && partial.id !== "" && partial.properties) {
                  this.state.set(spec.name, {
                    type: spec.type,
                    id: partial.id,
                    outs: partial.properties as Record<string, unknown>,
                    initErrors: (partial.reasons as string[] | undefined) ?? [],
                  });
                }
                throw err;
              }
              return;
            }
            const diff = await provider.diff!(entry.id, entry.outs, inputs);
            assert.deepEqual(diff.replaces ?? [], [], `the matrix never replaces (${spec.name})`);
            if (diff.changes || entry.initErrors !== undefined) {
              const updated = await provider.update!(entry.id, entry.outs, inputs);
              this.state.set(spec.name, { type: spec.type, id: entry.id, outs: updated.outs ?? {} });
            }
          } catch (err) {
            this.fail(spec.name, err);
          }
        }),
      ),
    );
    return this.errors;
  }

  /** `pulumi refresh`: read every resource; an empty id drops it from the state. */
  async refresh(): Promise<Map<string, Error>> {
    this.errors = new Map();
    await this.captured(() =>
      Promise.all(
        [...this.state].map(async ([name, entry]) => {
          try {
            const read = await PROVIDERS[entry.type].read!(entry.id, entry.outs);
            if (!read.id) this.state.delete(name);
            else this.state.set(name, { ...entry, id: read.id, outs: read.props ?? entry.outs });
          } catch (err) {
            this.fail(name, err);
          }
        }),
      ),
    );
    return this.errors;
  }

  /** `pulumi destroy`: delete every resource in the state in parallel; failures stay in the state. */
  async destroy(): Promise<Map<string, Error>> {
    this.errors = new Map();
    await this.captured(() =>
      Promise.all(
        [...this.state].map(async ([name, entry]) => {
          try {
            await PROVIDERS[entry.type].delete!(entry.id, entry.outs);
            this.state.delete(name);
          } catch (err) {
            this.fail(name, err);
          }
        }),
      ),
    );
    return this.errors;
  }

  /** Branches and keys the API created during the row (ids not in the seed), as they are now. */
  created(): { branches: EmulatorStateView["branches"]; keys: EmulatorStateView["apiKeys"] } {
    const snap = this.control.dumpState();
    const oldBranches = new Set(this.baseline.branches.map((b) => b.id));
    const oldKeys = new Set(this.baseline.apiKeys.map((k) => k.id));
    return {
      branches: snap.branches.filter((b) => !oldBranches.has(b.id)),
      keys: snap.apiKeys.filter((k) => !oldKeys.has(k.id)),
    };
  }

  /** Ids in the recorded state. */
  stateIds(): Set<string> {
    return new Set([...this.state.values()].map((e) => e.id));
  }

  /**
   * Marks as reported the object named `name` that `err` (a failed create) may have made: asserts the
   * message says the request was not re-sent because it may have been applied, and names the request.
   */
  expectReported(err: Error | undefined, kind: "branch" | "key", name: string, route: RegExp): void {
    assert.ok(err, `the create of ${name} failed`);
    assert.match(err.message, /not re-sent because (the change|it) may have/, err.message);
    assert.match(err.message, route, err.message);
    const { branches, keys } = this.created();
    const made =
      kind === "branch"
        ? branches.filter((b) => b.name === name).map((b) => b.id)
        : keys.filter((k) => k.name === name).map((k) => String(k.id));
    for (const id of made) this.reported.add(id);
  }

  /** Objects the API created that are in neither the state nor deleted, and were not reported: lost. */
  lost(): string[] {
    const inState = this.stateIds();
    const { branches, keys } = this.created();
    return [
      ...branches
        .filter((b) => b.deleted_at_ms === undefined && !inState.has(b.id) && !this.reported.has(b.id))
        .map((b) => `branch ${b.id} (${b.name})`),
      ...keys
        .filter((k) => !k.revoked && !inState.has(String(k.id)) && !this.reported.has(String(k.id)))
        .map((k) => `key ${k.id} (${k.name})`),
    ];
  }

  /** Every secret of the row: credentials, and every token and password the API returned. */
  secrets(): string[] {
    const all = new Set<string>([...this.extraSecrets, ...this.proxy.secrets]);
    for (const entry of this.state.values()) {
      if (entry.type === "ApiKey" && typeof entry.outs.key === "string") all.add(entry.outs.key);
    }
    return [...all].filter((s) => s.length >= 8);
  }

  /** The recorded state as text, without the `key` output of ApiKeys (the one place a token belongs). */
  stateTextWithoutKeyOutputs(): string {
    return JSON.stringify(
      [...this.state].map(([name, e]) => {
        const { key: _key, ...rest } = e.outs;
        return {
          name,
          type: e.type,
          id: e.id,
          outs: e.type === "ApiKey" ? rest : e.outs,
          initErrors: e.initErrors,
        };
      }),
    );
  }

  /** Asserts no secret is in the state (outside ApiKey `key`), the logs or any error. */
  assertNoSecretLeaks(): void {
    const places: Array<[string, string]> = [
      ["the recorded state", this.stateTextWithoutKeyOutputs()],
      ["the logs", this.logs.join("\n")],
      ...this.allErrors.map((e, i): [string, string] => [`error ${i + 1}`, errorText(e)]),
    ];
    for (const entry of this.state.values()) {
      if (entry.type === "ApiKey") {
        assert.match(String(entry.outs.key), /^napi_[a-z0-9]{64}$/, "an ApiKey's key output is its token");
      }
    }
    for (const secret of this.secrets()) {
      for (const [where, text] of places) {
        assert.ok(!text.includes(secret), `a secret (${secret.slice(0, 9)}…) appears in ${where}`);
      }
    }
  }

  /** Faults injected so far: the emulator's scripted responses, the proxy's, and the row's own. */
  faultCount(): number {
    return this.control.requests().filter((r) => r.faulted).length + this.proxy.applied + this.faults;
  }

  /**
   * The end of every row: nothing lost after the row's `up`s, then `destroy` leaves every key the API
   * created revoked and every branch deleted (objects only reported are cleaned up as a user would, in
   * the console, and counted), and no secret leaked anywhere. Adds the row to the totals.
   */
  async finish(): Promise<void> {
    const lostAfterUp = this.count();
    assert.deepEqual(
      lostAfterUp,
      [],
      "objects the API created are neither in the state, deleted nor reported",
    );
    this.useCredential(DEMO.personalKey);
    const destroyErrors = await this.destroy();
    assert.deepEqual(
      [...destroyErrors].map(([n, e]) => `${n}: ${e.message}`),
      [],
      "destroy",
    );
    assert.equal(this.state.size, 0, "destroy empties the state");
    // Reported orphans: the user acts on the report in the console.
    TOTALS.reported += this.reported.size;
    for (const id of this.reported) {
      const branch = this.created().branches.find((b) => b.id === id);
      if (branch && branch.deleted_at_ms === undefined) this.control.deleteBranch(branch.project_id, id);
      const key = this.created().keys.find((k) => String(k.id) === id);
      if (key && !key.revoked) this.control.revokeApiKey(key.id);
    }
    const after = this.created();
    assert.deepEqual(
      after.keys.filter((k) => !k.revoked).map((k) => `${k.id} (${k.name})`),
      [],
      "keys left unrevoked after destroy",
    );
    assert.deepEqual(
      after.branches.filter((b) => b.deleted_at_ms === undefined).map((b) => `${b.id} (${b.name})`),
      [],
      "branches left after destroy",
    );
    this.assertNoSecretLeaks();
  }

  /** Counts the row's objects and lost ones into the totals (once); returns the lost ones. */
  private count(): string[] {
    const lost = this.lost();
    if (!this.counted) {
      const objects = this.created();
      TOTALS.objects += objects.branches.length + objects.keys.length;
      TOTALS.lost += lost.length;
      this.counted = true;
    }
    return lost;
  }

  /** Stops the proxy and the emulator and restores the environment. */
  async stop(): Promise<void> {
    if (!this.counted) this.count();
    TOTALS.rows += 1;
    TOTALS.faults += this.faultCount();
    for (const [k, v] of this.savedEnv) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetRegistry();
    await this.proxy.stop();
    await this.emulator.stop();
  }
}

/** Everything an error could show: message, stack, JSON form, reasons, cause. */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const parts = [err.message, err.stack ?? ""];
  try {
    parts.push(JSON.stringify(err));
  } catch {
    // Circular: message and stack are enough.
  }
  const extra = err as { reasons?: unknown; cause?: unknown };
  if (extra.reasons !== undefined) parts.push(JSON.stringify(extra.reasons));
  if (extra.cause !== undefined) parts.push(errorText(extra.cause));
  return parts.join("\n");
}
