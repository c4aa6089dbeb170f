import { badRequest } from "./errors";
import type { ComputeSettings } from "./records";

// Rules the official document states in prose (descriptions), which its schemas cannot express,
// plus the branch-expiry bound of the service's documentation. Each refusal is a 400 with a
// message that names the field; callers check before changing anything.

/** `init_source` values ("schema-only" and "parent-data", the default). */
export const INIT_SOURCES: readonly string[] = ["parent-data", "schema-only"];

/** Provisioners the document lists; "any string value that is not documented ... should be treated as an error". */
export const PROVISIONERS: readonly string[] = ["k8s-pod", "k8s-neonvm", "serverless-platform"];

/** The furthest ahead a branch expiry may be set (the service's documentation: 30 days). */
export const MAX_EXPIRY_MS = 30 * 86_400_000;

/** Postgres identifiers (role and database names) are at most 63 bytes. */
const MAX_IDENTIFIER_BYTES = 63;

/** Compute settings after applying `changes` to `base`; throws 400 when min > max, a size or range is not offered (`docs/api-rules.md` §7), or the timeout is out of range. */
export function computeSettings(
  base: ComputeSettings,
  changes: { [K in keyof ComputeSettings]?: number | undefined },
  where: string,
): ComputeSettings {
  const out: ComputeSettings = { ...base };
  if (changes.autoscaling_limit_min_cu !== undefined)
    out.autoscaling_limit_min_cu = changes.autoscaling_limit_min_cu;
  if (changes.autoscaling_limit_max_cu !== undefined)
    out.autoscaling_limit_max_cu = changes.autoscaling_limit_max_cu;
  // Only a minimum given: the maximum follows it up, as the service does for a single size.
  if (
    changes.autoscaling_limit_max_cu === undefined &&
    out.autoscaling_limit_max_cu < out.autoscaling_limit_min_cu
  ) {
    out.autoscaling_limit_max_cu = out.autoscaling_limit_min_cu;
  }
  if (out.autoscaling_limit_min_cu > out.autoscaling_limit_max_cu) {
    throw badRequest(
      `${where}autoscaling_limit_min_cu (${out.autoscaling_limit_min_cu}) must not be greater than autoscaling_limit_max_cu (${out.autoscaling_limit_max_cu})`,
    );
  }
  checkComputeSizes(out, where);
  if (changes.suspend_timeout_seconds !== undefined) {
    const t = changes.suspend_timeout_seconds;
    if (!(t === -1 || t === 0 || (t >= 60 && t <= 604_800))) {
      throw badRequest(
        `${where}suspend_timeout_seconds must be -1 (never), 0 (the default) or from 60 to 604800, got ${t}`,
      );
    }
    out.suspend_timeout_seconds = t;
  }
  return out;
}

/** The largest compute size, CU. */
const MAX_CU = 56;
/** The largest maximum of an autoscaling range (minimum below maximum), CU. */
const MAX_AUTOSCALING_CU = 16;
/** The widest autoscaling range, CU. */
const MAX_AUTOSCALING_WIDTH_CU = 8;

/** Whether `cu` is a compute size the service offers: 0.25, 0.5 or a whole number from 1 to 56. */
function isComputeSize(cu: number): boolean {
  return cu === 0.25 || cu === 0.5 || (Number.isInteger(cu) && cu >= 1 && cu <= MAX_CU);
}

/** Throws 400 unless both limits are compute sizes and an autoscaling range is one the service offers. */
function checkComputeSizes(settings: ComputeSettings, where: string): void {
  const { autoscaling_limit_min_cu: min, autoscaling_limit_max_cu: max } = settings;
  for (const [field, cu] of [
    ["autoscaling_limit_min_cu", min],
    ["autoscaling_limit_max_cu", max],
  ] as const) {
    if (!isComputeSize(cu)) {
      throw badRequest(
        `${where}${field} (${cu}) is not a compute size: sizes are 0.25, 0.5 or a whole number from 1 to ${MAX_CU}`,
      );
    }
  }
  if (min === max) return;
  if (max > MAX_AUTOSCALING_CU) {
    throw badRequest(
      `${where}autoscaling_limit_max_cu (${max}) is above ${MAX_AUTOSCALING_CU}, the largest size autoscaling reaches; set both limits to ${max} for a fixed size`,
    );
  }
  if (max - min > MAX_AUTOSCALING_WIDTH_CU) {
    throw badRequest(
      `${where}the autoscaling range ${min}-${max} CU is ${max - min} CU wide; it may be at most ${MAX_AUTOSCALING_WIDTH_CU}`,
    );
  }
}

/** Throws 400 unless the provisioner is a documented one. */
export function checkProvisioner(value: string | undefined, where: string): void {
  if (value !== undefined && !PROVISIONERS.includes(value)) {
    throw badRequest(
      `${where}provisioner must be one of ${PROVISIONERS.join(", ")}, got ${JSON.stringify(value)}`,
    );
  }
}

/** Throws 400 unless `init_source` is a documented value. */
export function checkInitSource(value: string | undefined, where: string): void {
  if (value !== undefined && !INIT_SOURCES.includes(value)) {
    throw badRequest(
      `${where}init_source must be one of ${INIT_SOURCES.join(", ")}, got ${JSON.stringify(value)}`,
    );
  }
}

/**
 * The expiry in epoch ms; throws 400 when it is not after `nowMs` or, for a bounded one (a
 * branch's), more than 30 days ahead.
 */
export function expiryMs(value: string, nowMs: number, where: string, bounded = true): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms))
    throw badRequest(`${where}expires_at must be an RFC 3339 timestamp, got ${JSON.stringify(value)}`);
  if (ms <= nowMs) throw badRequest(`${where}expires_at must be in the future, got ${value}`);
  if (bounded && ms > nowMs + MAX_EXPIRY_MS) {
    throw badRequest(`${where}expires_at must be at most 30 days ahead, got ${value}`);
  }
  return ms;
}

/**
 * The roles the service keeps for itself in every branch's Postgres: the emulator's superuser and
 * the group every role made through the API joins. The data plane creates them under these names.
 */
export const SERVICE_ROLES = { admin: "clouddb_admin", group: "clouddb_superuser" } as const;

/** Databases every Postgres server has: a branch cannot have another under these names. */
export const RESERVED_DATABASES: readonly string[] = ["postgres", "template0", "template1"];

/** Why a role name cannot be used (Postgres's own reservations, then the service's roles), or undefined. */
export function reservedRoleName(name: string): string | undefined {
  if (name.startsWith("pg_")) return "names starting with pg_ are reserved for Postgres's own roles";
  if (name === "public" || name === "none") return `Postgres reserves the name ${name}`;
  if (Object.values(SERVICE_ROLES).some((role) => role === name))
    return "it is one of the service's own roles";
  return undefined;
}

/** Throws 400 when a role name is not a valid identifier or is reserved (`reservedRoleName`). */
export function checkRoleName(value: string, what: string): void {
  checkIdentifier(value, what);
  const why = reservedRoleName(value);
  if (why !== undefined)
    throw badRequest(`${what} ${JSON.stringify(value)} is reserved (${why}): choose another name`);
}

/** Throws 400 when a database name is not a valid identifier or is one of RESERVED_DATABASES. */
export function checkDatabaseName(value: string, what: string): void {
  checkIdentifier(value, what);
  if (RESERVED_DATABASES.includes(value)) {
    throw badRequest(
      `${what} ${JSON.stringify(value)} is reserved (every Postgres server has ${RESERVED_DATABASES.join(", ")}): choose another name`,
    );
  }
}

/** Throws 400 when a role or database name is empty or longer than 63 bytes. */
export function checkIdentifier(value: string, what: string): void {
  const bytes = Buffer.byteLength(value, "utf8");
  if (bytes === 0 || bytes > MAX_IDENTIFIER_BYTES) {
    throw badRequest(`${what} must be 1 to ${MAX_IDENTIFIER_BYTES} bytes long, got ${bytes}`);
  }
}
