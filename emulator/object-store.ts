import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// The bytes the families keep out of the state, named by their SHA-256: the buckets' objects and the
// functions' archives. The branch records hold only the name of the bytes, so a branch's copy,
// delete and recovery carry them without copying bytes, and two objects or deployments with the
// same bytes share them. In memory for an emulator without a state file; in a folder beside the
// state file (`<state>.objects/`) with one, so the bytes come back with the state after a restart.

/** Where the objects' bytes are kept, by their SHA-256 (hex). */
export interface ObjectStore {
  /** Keeps the bytes; returns their SHA-256, the name to find them by. */
  put(bytes: Buffer): string;
  /** The bytes kept under `blob`; undefined when there are none. */
  get(blob: string): Buffer | undefined;
  /** Forgets every blob not in `used` (nothing of any branch names it any more). */
  sweep(used: ReadonlySet<string>): void;
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const BLOB_NAME = /^[0-9a-f]{64}$/;

/** Blobs held in memory, lost when the emulator stops. */
export class MemoryObjectStore implements ObjectStore {
  readonly #blobs = new Map<string, Buffer>();

  put(bytes: Buffer): string {
    const blob = sha256(bytes);
    this.#blobs.set(blob, Buffer.from(bytes));
    return blob;
  }

  get(blob: string): Buffer | undefined {
    return this.#blobs.get(blob);
  }

  sweep(used: ReadonlySet<string>): void {
    for (const blob of this.#blobs.keys()) if (!used.has(blob)) this.#blobs.delete(blob);
  }
}

/**
 * Blobs kept as files of a folder, written whole before they are named. The folder is made with the
 * first object, so a state file whose branches have none gets no folder beside it.
 */
export class FolderObjectStore implements ObjectStore {
  readonly folder: string;

  constructor(folder: string) {
    this.folder = folder;
  }

  put(bytes: Buffer): string {
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const blob = sha256(bytes);
    const path = join(this.folder, blob);
    // A crash mid-write leaves a temporary file, never a blob whose bytes do not match its name.
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, bytes, { mode: 0o600 });
    renameSync(partial, path);
    return blob;
  }

  get(blob: string): Buffer | undefined {
    if (!BLOB_NAME.test(blob)) return undefined;
    try {
      return readFileSync(join(this.folder, blob));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }

  sweep(used: ReadonlySet<string>): void {
    if (!existsSync(this.folder)) return;
    for (const name of readdirSync(this.folder)) {
      if (!used.has(name)) rmSync(join(this.folder, name), { force: true });
    }
  }
}

/** The object store for an emulator: a folder beside its state file, or memory without one. */
export function objectStoreFor(stateFile: string | undefined): ObjectStore {
  return stateFile === undefined ? new MemoryObjectStore() : new FolderObjectStore(`${stateFile}.objects`);
}
