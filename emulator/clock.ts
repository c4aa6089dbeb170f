/**
 * The emulator's clock. Operations advance on it, so tests control time instead of sleeping:
 * a `ManualClock` moves only when `advance(ms)` is called; a `ScaledClock` follows wall time,
 * optionally faster (`timeScale`), and can also be pushed forward.
 */
export interface Clock {
  /** Current emulator time in epoch milliseconds. */
  now(): number;
  /** Moves the clock forward; optional for user-supplied clocks. */
  advance?(ms: number): void;
}

/** A clock that stands still until `advance(ms)` is called; deterministic for tests. */
export class ManualClock implements Clock {
  #now: number;

  constructor(startMs: number = Date.parse("2026-01-01T00:00:00.000Z")) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  /** Moves time forward by `ms`; throws on a negative or non-finite value. */
  advance(ms: number): void {
    assertAdvance(ms);
    this.#now += ms;
  }
}

/**
 * Wall time, running `timeScale` times faster from `startMs` (default: the current wall time).
 * `advance(ms)` adds a fixed offset, e.g. to skip past a long operation from the command line.
 */
export class ScaledClock implements Clock {
  readonly #wallStart: number;
  readonly #start: number;
  readonly #scale: number;
  #offset = 0;

  constructor(options: { timeScale?: number; startMs?: number } = {}) {
    const scale = options.timeScale ?? 1;
    if (!Number.isFinite(scale) || scale <= 0) throw new RangeError(`timeScale must be > 0, got ${scale}`);
    this.#scale = scale;
    this.#wallStart = Date.now();
    this.#start = options.startMs ?? this.#wallStart;
  }

  now(): number {
    return Math.floor(this.#start + (Date.now() - this.#wallStart) * this.#scale + this.#offset);
  }

  /** Moves time forward by `ms` on top of the scaled wall time. */
  advance(ms: number): void {
    assertAdvance(ms);
    this.#offset += ms;
  }
}

function assertAdvance(ms: number): void {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance(ms) needs a finite ms >= 0, got ${ms}`);
}
