/**
 * The listing cache, for the reads of one engine run. A refresh reads every resource at once;
 * without it, N keys of one owner cost N listings of N keys, and a branch costs a GET of itself and
 * one of its computes. Here a listing asked for while an identical one is in flight, or answered
 * less than `ttlMs` ago, is that same answer: a refresh costs about one listing per owner and per
 * project.
 *
 * Any mutation through this process (a request other than GET, whatever its outcome) starts a new
 * generation: listings of an older generation, finished or in flight, are never handed out again,
 * so a read never sees a state older than a change this process made.
 */
export const DEFAULT_LISTING_TTL_MS = 5_000;

interface Entry {
  generation: number;
  at: number;
  value: Promise<unknown>;
}

export class ListingCache {
  readonly #entries = new Map<string, Entry>();
  #generation = 0;

  constructor(
    readonly ttlMs: number = DEFAULT_LISTING_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The listing named `key`: a cached recent or in-flight answer, else `load()`'s. A failure is not kept. */
  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.#entries.get(key);
    if (hit !== undefined && hit.generation === this.#generation && this.now() - hit.at < this.ttlMs) {
      return hit.value as Promise<T>;
    }
    const entry: Entry = { generation: this.#generation, at: this.now(), value: load() };
    this.#entries.set(key, entry);
    entry.value.catch(() => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    });
    return entry.value as Promise<T>;
  }

  /** Called for every mutating request, when it starts and when it ends. */
  invalidate(): void {
    this.#generation += 1;
    this.#entries.clear();
  }
}
