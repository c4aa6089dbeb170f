import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createDecipheriv, pbkdf2Sync } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  type DestroyOptions,
  type DestroyResult,
  LocalWorkspace,
  type OutputMap,
  PulumiCommand,
  type Stack,
  type UpdateSummary,
  type UpResult,
} from "@pulumi/pulumi/automation";
import type { RunningEmulator } from "../../../emulator";
import { ensurePulumiCli, quietEnv } from "../../../scripts/pulumi-cli";

export const ROOT = path.resolve(__dirname, "../../..");
/** The passphrase of every stack these suites make. */
export const PASSPHRASE = "e2e-passphrase";
let cliPath: string | undefined;
/** The CLI every workspace of this process runs: found once, where each workspace would run `pulumi version`. */
let pulumiCommand: Promise<PulumiCommand> | undefined;

/** Puts the Pulumi CLI on this process's PATH (building it once when none exists) and builds lib/. */
export function prepareEngine(): void {
  if (cliPath === undefined) {
    cliPath = ensurePulumiCli().path;
    process.env.PATH = cliPath;
    // The run's global set-up (tests/support/global.ts) built it already.
    if (process.env.CLOUDDB_TEST_ENGINE_READY !== "1")
      execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });
  }
}

/**
 * The `file://` backend URL of `dir`, with no metadata sidecars (docs/guide.md, "When a pipeline is
 * cancelled"): the backend writes each file's `.attrs` sidecar in place, not through a rename, so a
 * kill at that moment leaves an empty one and every later command fails with `failed to load
 * checkpoint: EOF`. The suites kill runs on purpose; the state files themselves are written whole.
 */
export function fileBackendUrl(dir: string): string {
  return `file://${dir}?metadata=skip`;
}

export interface E2eStack {
  stack: Stack;
  /** The state file as the backend stores it (secrets encrypted), as text. */
  rawState(): string;
  /** The local `file://` backend folder holding the state. */
  backendDir: string;
  /** Output lines of the last command, for assertions on messages. */
  output: string[];
  /**
   * Removes the stack, its backend and its config file in the program's folder; with `destroy`, first
   * destroys what it holds (`true`, or the options of that destroy), a failure of which is ignored so
   * the rest is still removed.
   */
  dispose(opts?: { destroy?: true | DestroyOptions }): Promise<void>;
}

/**
 * A fresh stack of the project in `workDir` on a private `file://` backend, configured to talk to
 * the emulator at `apiUrl` with `apiKey` (a secret in stack config, as users set it) when given.
 * The suites make theirs with `programStack` (programStack.ts), which builds on this.
 */
export async function createStack(opts: {
  workDir: string;
  apiUrl?: string;
  apiKey?: string;
  config?: Record<string, string>;
  stackName?: string;
  /** Extra environment for the CLI and the provider process (e.g. CLOUDDB_POLL_INTERVAL_MS). */
  env?: Record<string, string>;
  /** A `file://` backend folder to share with other stacks (the caller removes it); default a private one. */
  backendDir?: string;
}): Promise<E2eStack> {
  prepareEngine();
  const backendDir = opts.backendDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-e2e-state-"));
  const pulumiHome = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-e2e-home-"));
  const envVars = {
    ...(quietEnv({}) as Record<string, string>),
    PULUMI_BACKEND_URL: fileBackendUrl(backendDir),
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_HOME: pulumiHome,
    PATH: process.env.PATH ?? "",
    // The program must not pick up a developer's own credentials.
    CLOUDDB_API_KEY: "",
    CLOUDDB_API_URL: "",
    // A TypeScript program is compiled without a type check, as a pipeline with its own `tsc` step
    // runs it: `npm run typecheck` checks the examples and fixtures, with a stricter tsconfig.
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    ...opts.env,
  };
  pulumiCommand ??= PulumiCommand.get();
  // The backend is new, so the stack is too: `createStack` runs `stack init` alone, where
  // `createOrSelectStack` would first try `stack select`.
  const stack = await LocalWorkspace.createStack(
    { stackName: opts.stackName ?? "e2e", workDir: opts.workDir },
    { envVars, pulumiCommand: await pulumiCommand },
  );
  // One `pulumi config set-all` for the whole config: each CLI command costs a process and a key derivation.
  const config: Record<string, { value: string; secret?: boolean }> = {};
  if (opts.apiUrl !== undefined) config["clouddb:apiUrl"] = { value: opts.apiUrl };
  if (opts.apiKey !== undefined) config["clouddb:apiKey"] = { value: opts.apiKey, secret: true };
  for (const [key, value] of Object.entries(opts.config ?? {})) config[key] = { value };
  if (Object.keys(config).length > 0) await stack.setAllConfig(config);
  const output: string[] = [];
  const rawState = () => {
    const file = findFile(path.join(backendDir, ".pulumi", "stacks"), `${stack.name}.json`);
    if (file === undefined) throw new Error(`no state file for stack ${stack.name} under ${backendDir}`);
    return fs.readFileSync(file, "utf8");
  };
  readOutputsFromState(stack, rawState);
  readSummaryFromHistory(stack, backendDir);
  return {
    stack,
    backendDir,
    output,
    rawState,
    async dispose({ destroy } = {}) {
      if (destroy !== undefined)
        await stack.destroy(destroy === true ? undefined : destroy).catch(() => undefined);
      // A backend of the stack's own: deleting its folder removes the stack, with no `stack rm`.
      if (opts.backendDir === undefined) fs.rmSync(backendDir, { recursive: true, force: true });
      fs.rmSync(pulumiHome, { recursive: true, force: true });
      // Setting config writes it next to Pulumi.yaml, in a folder that may be this repository's.
      fs.rmSync(path.join(opts.workDir, `Pulumi.${stack.name}.yaml`), { force: true });
    },
  };
}

/**
 * The Automation API reads a stack's outputs after every `up` with two CLI commands, the second
 * deriving the passphrase's key (a million rounds of PBKDF2, about 0.3 CPU-seconds). The outputs are
 * in the state file, so `stack`'s workspace reads them there as the CLI would print them: a secret
 * decrypted with the stack's key (derived once per stack, `StateSecrets`) and marked secret when it is
 * an output of its own, as `stack output` masks it. It asks the CLI when the state cannot be read.
 */
function readOutputsFromState(stack: Stack, rawState: () => string): void {
  const workspace = stack.workspace;
  const fromCli = workspace.stackOutputs.bind(workspace);
  const secrets = new StateSecrets(PASSPHRASE);
  workspace.stackOutputs = async (name: string): Promise<OutputMap> => {
    if (name !== stack.name) return fromCli(name);
    try {
      const state = JSON.parse(rawState()) as StateFile;
      const root = (state.checkpoint.latest?.resources ?? []).find((r) => r.type === "pulumi:pulumi:Stack");
      const salt = state.checkpoint.latest?.secrets_providers?.state?.salt;
      return Object.fromEntries(
        Object.entries(root?.outputs ?? {}).map(([key, value]) => [
          key,
          { value: secrets.reveal(value, salt), secret: isEncryptedSecret(value) },
        ]),
      );
    } catch {
      return fromCli(name);
    }
  };
}

/** A state file as the `file://` backend writes it, what the outputs need of it. */
interface StateFile {
  checkpoint: {
    latest?: {
      resources?: StateResource[];
      secrets_providers?: { type?: string; state?: { salt?: string } };
    };
  };
}

/**
 * The passphrase secrets manager's decryption, as the CLI does it: the key is PBKDF2-SHA256 of the
 * passphrase over the salt the state records (a million rounds), a value is `v1:<nonce>:<sealed>` in
 * AES-256-GCM and decrypts to the value's JSON. Keys are kept by salt.
 */
class StateSecrets {
  private readonly keys = new Map<string, Buffer>();
  constructor(private readonly passphrase: string) {}

  /** `value` with every secret in it replaced by its plaintext. */
  reveal(value: unknown, salt: string | undefined): unknown {
    if (isEncryptedSecret(value)) {
      if (salt === undefined) throw new Error("a secret in a state with no passphrase salt");
      return this.reveal(JSON.parse(this.decrypt((value as { ciphertext: string }).ciphertext, salt)), salt);
    }
    if (Array.isArray(value)) return value.map((v) => this.reveal(v, salt));
    if (value !== null && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.reveal(v, salt)]));
    return value;
  }

  private decrypt(ciphertext: string, salt: string): string {
    const [version, nonce, sealed] = ciphertext.split(":");
    const [saltVersion, saltBytes] = salt.split(":");
    if (
      version !== "v1" ||
      saltVersion !== "v1" ||
      nonce === undefined ||
      sealed === undefined ||
      saltBytes === undefined
    )
      throw new Error("not a v1 passphrase ciphertext");
    let key = this.keys.get(salt);
    if (key === undefined) {
      key = pbkdf2Sync(this.passphrase, Buffer.from(saltBytes, "base64"), 1_000_000, 32, "sha256");
      this.keys.set(salt, key);
    }
    const bytes = Buffer.from(sealed, "base64");
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64"));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString(
      "utf8",
    );
  }
}

/**
 * The Automation API reads the summary of every `up`, `refresh` and `destroy` with `pulumi stack
 * history`, which derives the passphrase's key too. The `file://` backend writes that summary as
 * the stack's newest history file: `stack` reads it there (its times and config values as the
 * Automation API gives them, a secret without its value), and asks the CLI when there is none or
 * when secrets are to be shown.
 */
function readSummaryFromHistory(stack: Stack, backendDir: string): void {
  const fromCli = stack.info.bind(stack);
  const named = new RegExp(`^${stack.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}-(\\d+)\\.history\\.json$`);
  stack.info = async (showSecrets?: boolean): Promise<UpdateSummary | undefined> => {
    const dir = path.join(backendDir, ".pulumi", "history");
    const newest = fs.existsSync(dir)
      ? fs
          .readdirSync(dir, { recursive: true, encoding: "utf8" })
          .map((file) => ({ file, stamp: named.exec(path.basename(file))?.[1] }))
          .filter((f): f is { file: string; stamp: string } => f.stamp !== undefined)
          .sort((a, b) => (BigInt(a.stamp) < BigInt(b.stamp) ? -1 : 1))
          .pop()
      : undefined;
    if (newest === undefined || showSecrets === true) return fromCli(showSecrets);
    const info = JSON.parse(fs.readFileSync(path.join(dir, newest.file), "utf8")) as Omit<
      UpdateSummary,
      "startTime" | "endTime" | "config"
    > & { startTime: number; endTime?: number; config?: Record<string, unknown> };
    const at = (seconds: number) => new Date(seconds * 1000);
    return {
      ...info,
      startTime: at(info.startTime),
      ...(info.endTime !== undefined ? { endTime: at(info.endTime) } : {}),
      config: Object.fromEntries(
        Object.entries(info.config ?? {}).map(([key, value]) => [
          key,
          typeof value !== "object" || value === null
            ? { value: String(value), secret: false }
            : "secure" in value
              ? { secret: true }
              : { value: JSON.stringify(value), secret: false, object: true },
        ]),
      ),
    } as UpdateSummary;
  };
}

/** A resource as a state file records it. */
export interface StateResource {
  urn?: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The resources of a state file's latest checkpoint (`E2eStack.rawState()`). */
export function stateResources(rawState: string): StateResource[] {
  return (JSON.parse(rawState) as StateFile).checkpoint.latest?.resources ?? [];
}

/** Collects a command's output lines (shown only when a test fails, through the returned array). */
export function collect(into: string[]): { onOutput: (line: string) => void } {
  into.length = 0;
  return { onOutput: (line: string) => into.push(line) };
}

function findFile(dir: string, name: string): string | undefined {
  if (!fs.existsSync(dir)) return undefined;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isFile() && entry.name === name) return full;
    if (entry.isDirectory()) {
      const found = findFile(full, name);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Pulumi's marker of a secret value in the state. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** Whether a value of a raw state file is a secret stored encrypted (a ciphertext, no plaintext). */
export function isEncryptedSecret(value: unknown): boolean {
  const v = value as Record<string, unknown> | undefined;
  return v?.[SECRET_SIG] !== undefined && typeof v.ciphertext === "string" && v.plaintext === undefined;
}

/**
 * What in `text` must never be written: an API key token (shown by its first characters only), or
 * a connection string with its password.
 */
export function leaks(text: string): string[] {
  const found = [...text.matchAll(/napi_[a-z0-9]{8}/g)].map((m) => `${m[0]}…`);
  if (/postgres(ql)?:\/\/[^:@"\s/]+:[^@"\s]+@/.test(text)) found.push("a connection string with a password");
  return found;
}

/** `leaks` in every file under `dir` (a backend's state, its history and backups), each named by its path. */
export function leaksUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => path.join(dir, name))
    .filter((file) => fs.statSync(file).isFile())
    .flatMap((file) =>
      leaks(fs.readFileSync(file, "utf8")).map((leak) => `${path.relative(dir, file)}: ${leak}`),
    );
}

/** The `key` output of every ApiKey in a raw state file, and whether each is stored as an encrypted secret. */
export function apiKeySecretsIn(rawState: string): { urn: string; encrypted: boolean }[] {
  const state = JSON.parse(rawState) as {
    checkpoint: {
      latest?: { resources?: { urn: string; type: string; outputs?: Record<string, unknown> }[] };
    };
  };
  return (state.checkpoint.latest?.resources ?? [])
    .filter((r) => r.type === "pulumi-nodejs:dynamic/clouddb:ApiKey")
    .map((r) => ({ urn: r.urn, encrypted: isEncryptedSecret(r.outputs?.key) }));
}

const MUTATING = new Set(["POST", "PATCH", "PUT", "DELETE"]);

/** The requests in `emulator`'s log that change something (every method but GET). */
export function mutatingRequests(emulator: RunningEmulator) {
  return emulator.control.requests().filter((r) => MUTATING.has(r.method));
}

/** The resource changes an `up` or `destroy` reported, by kind (`create`, `update`, ...). */
export function changesOf(
  result: UpResult | DestroyResult,
): NonNullable<UpResult["summary"]["resourceChanges"]> {
  return result.summary.resourceChanges ?? {};
}

/**
 * Asserts that a preview and a refresh of the stack find its `same` resources (the stack's own
 * included) unchanged and send the emulator nothing that changes anything. Throws an assertion
 * error with the engine's output otherwise.
 */
export async function assertNothingToChange(
  emulator: RunningEmulator,
  e2e: E2eStack,
  same: number,
): Promise<void> {
  emulator.control.clearRequests();
  const preview = await e2e.stack.preview(collect(e2e.output));
  assert.deepEqual(preview.changeSummary, { same }, e2e.output.join("\n"));
  const refresh = await e2e.stack.refresh(collect(e2e.output));
  assert.deepEqual(refresh.summary.resourceChanges, { same }, e2e.output.join("\n"));
  assert.deepEqual(mutatingRequests(emulator), [], "a preview or a refresh changed something");
}
