import { createHash, randomBytes, randomInt, randomUUID } from "node:crypto";

// Real-looking identifiers and timestamp formats, as the real API prints them.

const ADJECTIVES = [
  "aged",
  "autumn",
  "billowing",
  "bitter",
  "black",
  "blue",
  "bold",
  "broad",
  "cold",
  "cool",
  "crimson",
  "damp",
  "dark",
  "dawn",
  "delicate",
  "divine",
  "dry",
  "empty",
  "falling",
  "fancy",
  "flat",
  "floral",
  "fragrant",
  "frosty",
  "gentle",
  "green",
  "hidden",
  "holy",
  "icy",
  "jolly",
  "late",
  "lingering",
  "little",
  "lively",
  "long",
  "lucky",
  "misty",
  "morning",
  "muddy",
  "mute",
  "noisy",
  "odd",
  "old",
  "orange",
  "patient",
  "plain",
  "polished",
  "proud",
  "purple",
  "quiet",
  "rapid",
  "raspy",
  "red",
  "restless",
  "rough",
  "round",
  "royal",
  "shiny",
  "shy",
  "silent",
  "small",
  "snowy",
  "soft",
  "solitary",
  "sparkling",
  "spring",
  "square",
  "steep",
  "still",
  "summer",
  "super",
  "sweet",
  "tight",
  "tiny",
  "twilight",
  "wandering",
  "weathered",
  "white",
  "wild",
  "winter",
  "wispy",
  "withered",
  "yellow",
  "young",
];
const NOUNS = [
  "art",
  "band",
  "bar",
  "base",
  "bird",
  "block",
  "boat",
  "bonus",
  "bread",
  "breeze",
  "brook",
  "bush",
  "butterfly",
  "cake",
  "cell",
  "cherry",
  "cloud",
  "credit",
  "darkness",
  "dawn",
  "dew",
  "disk",
  "dream",
  "dust",
  "feather",
  "field",
  "fire",
  "firefly",
  "flower",
  "fog",
  "forest",
  "frog",
  "frost",
  "glade",
  "glitter",
  "grass",
  "hall",
  "hat",
  "haze",
  "heart",
  "hill",
  "king",
  "lab",
  "lake",
  "leaf",
  "limit",
  "math",
  "meadow",
  "mode",
  "moon",
  "morning",
  "mountain",
  "mouse",
  "mud",
  "night",
  "paper",
  "pine",
  "poetry",
  "pond",
  "queen",
  "rain",
  "recipe",
  "resonance",
  "rice",
  "river",
  "salad",
  "scene",
  "sea",
  "shadow",
  "shape",
  "silence",
  "sky",
  "smoke",
  "snow",
  "snowflake",
  "sound",
  "star",
  "sun",
  "sunset",
  "surf",
  "term",
  "thunder",
  "tooth",
  "tree",
  "truth",
  "union",
  "unit",
  "violet",
  "voice",
  "water",
  "waterfall",
  "wave",
  "wildflower",
  "wind",
  "wood",
];
const ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";

/** Where the ids an emulator hands out come from: `seed` and the draws so far, or none (random). */
export interface IdSeed {
  seed: number;
  drawn: number;
}

/**
 * The randomness behind an emulator's ids. Random by default; seeded (`--seed-ids`), the same
 * requests get the same project, branch, endpoint, snapshot and operation ids, so a team's snapshot
 * tests can compare outputs. The n-th draw of a seed is a hash of the seed and n, so the source is
 * its seed and its count of draws, which the state file keeps: a restarted emulator goes on with
 * the sequence instead of handing out its ids again. Secrets (API keys, passwords) never come from
 * it: a seed anyone can read must not give credentials.
 */
export class IdSource {
  private constructor(private readonly seeded: IdSeed | undefined) {}

  static random(): IdSource {
    return new IdSource(undefined);
  }

  static seeded(seed: number, drawn = 0): IdSource {
    if (!Number.isSafeInteger(seed) || seed < 0)
      throw new RangeError(`an id seed is a whole number >= 0, not ${seed}`);
    return new IdSource({ seed, drawn });
  }

  /** The seed and draws so far (what the state file keeps); undefined when random. */
  get state(): IdSeed | undefined {
    return this.seeded === undefined ? undefined : { ...this.seeded };
  }

  /** 16 bytes: random, or the next draw of the seed. */
  #bytes(): Buffer {
    if (this.seeded === undefined) return randomBytes(16);
    const draw = this.seeded.drawn++;
    return createHash("sha256").update(`${this.seeded.seed}:${draw}`).digest().subarray(0, 16);
  }

  /** An integer in [0, n) for n up to 2^32 (the bias of a 48-bit draw is negligible here). */
  int(n: number): number {
    if (this.seeded === undefined) return randomInt(n);
    return this.#bytes().readUIntBE(0, 6) % n;
  }

  /** A version-4 UUID. */
  uuid(): string {
    if (this.seeded === undefined) return randomUUID();
    const b = this.#bytes();
    b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
    b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
    const h = b.toString("hex");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  }
}

/** The source of ids no seed governs, and of every secret. */
const RANDOM = IdSource.random();

function pick(source: IdSource, list: readonly string[]): string {
  return list[source.int(list.length)] ?? "x";
}

function chars(source: IdSource, alphabet: string, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[source.int(alphabet.length)];
  return out;
}

/** A project id like `hidden-river-50598307`. */
export function newProjectId(source: IdSource): string {
  return `${pick(source, ADJECTIVES)}-${pick(source, NOUNS)}-${chars(source, "0123456789", 8)}`;
}

/** `<prefix>-damp-glitter-adqd4hk5`: a branch, snapshot or compute endpoint id. */
function objectId(source: IdSource, prefix: string): string {
  return `${prefix}-${pick(source, ADJECTIVES)}-${pick(source, NOUNS)}-a${chars(source, ALNUM, 7)}`;
}

/** A branch id like `br-damp-glitter-adqd4hk5`. */
export function newBranchId(source: IdSource): string {
  return objectId(source, "br");
}

/** A snapshot id like `snap-quiet-meadow-a7k2m9qx`. */
export function newSnapshotId(source: IdSource): string {
  return objectId(source, "snap");
}

/** A compute endpoint id like `ep-soft-violet-a5tf2l8k`. */
export function newEndpointId(source: IdSource): string {
  return objectId(source, "ep");
}

/** A UUID (users, operations, request ids): random, or the source's next. */
export function newUuid(source: IdSource = RANDOM): string {
  return source.uuid();
}

/** A UUID that is always the same for the same text (ids of records the emulator does not store). */
export function stableUuid(text: string): string {
  const h = createHash("sha256").update(text).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** An API key secret: `napi_` followed by 64 lowercase alphanumerics; always random. */
export function newToken(): string {
  return `napi_${chars(RANDOM, ALNUM, 64)}`;
}

/** A random password for generated database roles. */
export function newPassword(): string {
  return randomBytes(9).toString("base64url");
}

/** The only form in which a secret is stored: a SHA-256 hex digest. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The shape every path id has in the official API (`^[a-z0-9-]{1,60}$`). */
export const ID_PATTERN = /^[a-z0-9-]{1,60}$/;

/** The token shape the real API issues. */
export const TOKEN_PATTERN = /^napi_[a-z0-9]{64}$/;

/** Epoch milliseconds as the API's second-precision timestamp (`2022-11-15T20:13:35Z`). */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Epoch microseconds as a timestamp with six fractional digits (`2026-11-22T01:02:03.123456Z`). */
export function isoMicros(us: number): string {
  const ms = Math.floor(us / 1000);
  const base = new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19);
  const frac = String(us - Math.floor(ms / 1000) * 1_000_000).padStart(6, "0");
  return `${base}.${frac}Z`;
}

/**
 * Parses an ISO 8601 UTC timestamp with up to 9 fractional digits into epoch microseconds;
 * undefined when it is not one.
 */
export function parseIsoMicros(value: string): number | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(?:Z|\+00:00)$/.exec(value);
  if (!match) return undefined;
  const seconds = Date.parse(`${match[1]}Z`);
  if (Number.isNaN(seconds)) return undefined;
  const frac = (match[2] ?? "").padEnd(6, "0").slice(0, 6);
  return seconds * 1000 + Number(frac);
}
