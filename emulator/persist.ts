import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { StateData } from "./state";

// `--state-file`: the state survives restarts. Changes are written shortly after they happen
// (debounced) and on stop, always atomically: write a temporary file, then rename it over the old one.

/** Reads a state file; undefined when it does not exist, throws when it is not valid. */
export function readStateFile(path: string): StateData | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const data = JSON.parse(readFileSync(path, "utf8")) as StateData;
    if (data?.version !== 1) throw new Error(`unsupported version ${String(data?.version)}`);
    return data;
  } catch (error) {
    throw new Error(`cannot load emulator state file ${path}: ${(error as Error).message}`);
  }
}

/** Writes `data` to `path` atomically. */
export function writeStateFile(path: string, data: StateData): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(data));
  renameSync(tmp, path);
}

/** Debounced, atomic writes of the current state. */
export class StatePersister {
  readonly #path: string;
  readonly #dump: () => StateData;
  readonly #delayMs: number;
  #timer: NodeJS.Timeout | undefined;
  #dirty = false;

  constructor(path: string, dump: () => StateData, delayMs = 100) {
    this.#path = path;
    this.#dump = dump;
    this.#delayMs = delayMs;
  }

  /** Notes a change; the file is written within `delayMs`. */
  markDirty(): void {
    this.#dirty = true;
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.flush();
    }, this.#delayMs);
    this.#timer.unref();
  }

  /** Writes now if anything changed (always with `force`, e.g. on stop: keys' last use is not a "change"). */
  flush(force = false): void {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (!this.#dirty && !force) return;
    this.#dirty = false;
    writeStateFile(this.#path, this.#dump());
  }
}
