// The lifecycle fuzzer's steps through the real Pulumi engine (docs/invariants.md): the fuzzer's
// program declared by the crash fixture, each step a `pulumi` command (killed with SIGKILL once the
// API received its k-th write), the state read back with `pulumi stack export --show-secrets`.
import { execFileSync } from "node:child_process";
import type { RunningEmulator } from "../../../emulator";
import {
  type Driver,
  type Entry,
  type Kind,
  type Knobs,
  PROGRAM,
  type StepOptions,
  type StepResult,
} from "../../fuzz/support/stack";
import { CRASH_FIXTURE, crashFixtureStack, declareResources } from "./crashFixture";
import { runCli } from "./kill";
import type { E2eStack } from "./stack";

/** The program under `knobs` in the crash fixture's form: an output of another resource is `@name.output`. */
export function fixtureProgram(
  knobs: Knobs,
): Array<{ kind: Kind; res: string; args: Record<string, unknown> }> {
  const ref = (name: string) =>
    new Proxy({}, { get: (_target, field) => `@${name}.${String(field)}` }) as Record<string, unknown>;
  return PROGRAM.map((spec) => ({ kind: spec.kind, res: spec.name, args: spec.inputs(ref, knobs) }));
}

/** One stack of the fixture on a private backend, run by the Pulumi CLI. */
export class EngineStack implements Driver {
  readonly state = new Map<string, Entry>();

  private constructor(
    private readonly e2e: E2eStack,
    private readonly emulator: RunningEmulator,
  ) {}

  /** A stack named `<name>-<this process's id>` (see `crashFixtureStack`). */
  static async create(emulator: RunningEmulator, name: string): Promise<EngineStack> {
    const e2e = await crashFixtureStack(emulator, name, { env: { CLOUDDB_POLL_INTERVAL_MS: "5,20" } });
    return new EngineStack(e2e, emulator);
  }

  async dispose(): Promise<void> {
    await this.e2e.dispose();
  }

  private writes(): number {
    return this.emulator.control.requests().filter((r) => r.method !== "GET").length;
  }

  private async declare(knobs: Knobs): Promise<void> {
    await declareResources(this.e2e, fixtureProgram(knobs));
  }

  /** Runs `pulumi <args>`, killed once the API received `killAfterWrite` writes; reads the state back. */
  private async cli(args: string[], options: StepOptions): Promise<StepResult> {
    const start = this.writes();
    const k = options.killAfterWrite;
    const run = await runCli(
      this.e2e,
      args,
      k === undefined ? undefined : { killWhen: () => this.writes() - start >= k },
    );
    this.load();
    const killed = run.code === "killed";
    // What the engine says it created (a refresh following a restore changes an id without a create).
    const created = new Set([...run.output.matchAll(/^\s*\+\s+\S+\s+(\S+)\s+created\b/gm)].map((m) => m[1]));
    const creates = [...this.state.values()]
      .filter((e) => e.doomed !== true && created.has(e.name))
      .map((e) => ({ name: e.name, kind: e.kind, id: e.id }));
    const errors = killed || run.code === 0 ? [] : [errorLines(run.output)];
    return { killed, errors, creates };
  }

  /** The state as the backend holds it, secrets in plain text. */
  private load(): void {
    const text = this.exported();
    const resources =
      (JSON.parse(text) as { deployment?: { resources?: Array<Record<string, unknown>> } }).deployment
        ?.resources ?? [];
    this.state.clear();
    for (const r of resources) {
      const kind = /[:/]clouddb:(\w+)$/.exec(String(r.type))?.[1] as Kind | undefined;
      if (kind === undefined) continue;
      const name = String(r.urn).slice(String(r.urn).lastIndexOf("::") + 2);
      const entry: Entry = {
        name,
        kind,
        id: String(r.id),
        inputs: revealed(r.inputs ?? {}) as Record<string, unknown>,
        outs: revealed(r.outputs ?? {}) as Record<string, unknown>,
        ...(r.delete === true ? { doomed: true } : {}),
      };
      this.state.set(entry.doomed === true ? `${name}~${entry.id}` : name, entry);
    }
  }

  /**
   * `pulumi stack export`, asked again (three times in a second) when it cannot read the state file:
   * once seen after a SIGKILL, with the backend's file written whole a moment later. A state that
   * stays unreadable fails the sequence with the file's size, so it can be looked at.
   */
  private exported(): string {
    const args = ["stack", "export", "--show-secrets", "--stack", this.e2e.stack.name, "--non-interactive"];
    const options = { cwd: CRASH_FIXTURE, env: { ...process.env, ...this.e2e.stack.workspace.envVars } };
    for (let attempt = 1; ; attempt++) {
      try {
        return execFileSync("pulumi", args, { ...options, encoding: "utf8", stdio: "pipe" });
      } catch (err) {
        const said = String((err as { stderr?: unknown }).stderr ?? "");
        if (attempt >= 3 || !/failed to load checkpoint/.test(said)) {
          let size = "no file";
          try {
            size = `${this.e2e.rawState().length} characters`;
          } catch {}
          throw new Error(`pulumi stack export failed (state file: ${size}): ${said.trim()}`);
        }
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      }
    }
  }

  async up(knobs: Knobs, options: StepOptions & { refresh?: boolean } = {}): Promise<StepResult> {
    await this.declare(knobs);
    const refresh = options.refresh === true ? ["--refresh"] : [];
    return this.cli(["up", "--yes", "--skip-preview", ...refresh], options);
  }

  refresh(options: StepOptions = {}): Promise<StepResult> {
    return this.cli(["refresh", "--yes", "--skip-preview"], options);
  }

  destroy(options: StepOptions = {}): Promise<StepResult> {
    return this.cli(["destroy", "--yes", "--skip-preview"], options);
  }

  async cancel(): Promise<void> {
    await runCli(this.e2e, ["cancel", "--yes"]);
  }

  async preview(knobs: Knobs, requests: () => number): Promise<{ changes: string[]; calls: string[] }> {
    await this.declare(knobs);
    const before = requests();
    const run = await runCli(this.e2e, ["preview", "--expect-no-changes", "--diff"]);
    const made = requests() - before;
    return {
      changes: run.code === 0 ? [] : [errorLines(run.output)],
      calls: made > 0 ? [`the engine's preview: ${made}`] : [],
    };
  }
}

/** The key marking a secret in an exported state. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** `value` with every secret of an export made with `--show-secrets` as its plain value. */
function revealed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revealed);
  if (value === null || typeof value !== "object") return value;
  const fields = value as Record<string, unknown>;
  if (SECRET_SIG in fields && typeof fields.plaintext === "string")
    return revealed(JSON.parse(fields.plaintext));
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, revealed(v)]));
}

/** The lines of a CLI run's output that say what failed. */
function errorLines(output: string): string {
  const lines = output.split("\n").filter((l) => /error|fail|[~+-] clouddb|changes/i.test(l));
  return (lines.length > 0 ? lines : output.split("\n").slice(-5))
    .map((l) => l.trim())
    .join(" | ")
    .slice(0, 1500);
}
