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

function pick(list: readonly string[]): string {
  return list[randomInt(list.length)] ?? "x";
}

function alnum(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALNUM[randomInt(ALNUM.length)];
  return out;
}

function digits(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += String(randomInt(10));
  return out;
}

/** A project id like `hidden-river-50598307`. */
export function newProjectId(): string {
  return `${pick(ADJECTIVES)}-${pick(NOUNS)}-${digits(8)}`;
}

/** A branch id like `br-damp-glitter-adqd4hk5`. */
export function newBranchId(): string {
  return `br-${pick(ADJECTIVES)}-${pick(NOUNS)}-a${alnum(7)}`;
}

/** A snapshot id like `snap-quiet-meadow-a7k2m9qx`. */
export function newSnapshotId(): string {
  return `snap-${pick(ADJECTIVES)}-${pick(NOUNS)}-a${alnum(7)}`;
}

/** A compute endpoint id like `ep-soft-violet-a5tf2l8k`. */
export function newEndpointId(): string {
  return `ep-${pick(ADJECTIVES)}-${pick(NOUNS)}-a${alnum(7)}`;
}

/** An organization id like `org-morning-bread-81040908`. */
export function newOrgId(): string {
  return `org-${pick(ADJECTIVES)}-${pick(NOUNS)}-${digits(8)}`;
}

/** A UUID (users, operations, request ids). */
export function newUuid(): string {
  return randomUUID();
}

/** A UUID that is always the same for the same text (ids of records the emulator does not store). */
export function stableUuid(text: string): string {
  const h = createHash("sha256").update(text).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** An API key secret: `napi_` followed by 64 lowercase alphanumerics. */
export function newToken(): string {
  return `napi_${alnum(64)}`;
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
