import { badRequest } from "./errors";
import { ID_PATTERN } from "./ids";

// Request validation with the messages a user needs to fix the request (400).

type Obj = Record<string, unknown>;

/** True for a plain JSON object. */
export function isObject(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The body as an object; `optional` bodies may be absent (then `{}`). */
export function bodyObject(body: unknown, optional = false): Obj {
  if (body === undefined || body === null) {
    if (optional) return {};
    throw badRequest("request body is required");
  }
  if (!isObject(body)) throw badRequest("request body must be a JSON object");
  return body;
}

/** An optional nested object field. */
export function optionalObject(obj: Obj, field: string, where = ""): Obj | undefined {
  const value = obj[field];
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw badRequest(`${where}${field} must be an object`);
  return value;
}

/** An optional string field with length bounds. */
export function optionalString(
  obj: Obj,
  field: string,
  opts: { min?: number; max?: number; where?: string } = {},
): string | undefined {
  const value = obj[field];
  if (value === undefined || value === null) return undefined;
  const name = `${opts.where ?? ""}${field}`;
  if (typeof value !== "string") throw badRequest(`${name} must be a string`);
  if (opts.min !== undefined && value.length < opts.min) {
    throw badRequest(
      opts.min === 1 ? `${name} must not be empty` : `${name} must be at least ${opts.min} characters`,
    );
  }
  if (opts.max !== undefined && value.length > opts.max) {
    throw badRequest(`${name} must be at most ${opts.max} characters, got ${value.length}`);
  }
  return value;
}

/** A required string field with length bounds. */
export function requiredString(
  obj: Obj,
  field: string,
  opts: { min?: number; max?: number; where?: string } = {},
): string {
  const value = optionalString(obj, field, opts);
  if (value === undefined) throw badRequest(`${opts.where ?? ""}${field} is required`);
  return value;
}

/** An optional boolean field. */
export function optionalBoolean(obj: Obj, field: string, where = ""): boolean | undefined {
  const value = obj[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw badRequest(`${where}${field} must be a boolean`);
  return value;
}

/** An optional id field in the API's id shape. */
export function optionalId(obj: Obj, field: string, where = ""): string | undefined {
  const value = optionalString(obj, field, { where });
  if (value !== undefined && !ID_PATTERN.test(value)) {
    throw badRequest(`${where}${field} must match ^[a-z0-9-]{1,60}$, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** A path parameter in the API's id shape. */
export function pathId(params: unknown, name: string): string {
  const value = isObject(params) ? params[name] : undefined;
  if (typeof value !== "string" || !ID_PATTERN.test(value)) {
    throw badRequest(`${name} must match ^[a-z0-9-]{1,60}$, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** An integer path parameter (API key ids). */
export function pathInt(params: unknown, name: string): number {
  const value = isObject(params) ? params[name] : undefined;
  if (typeof value !== "string" || !/^\d{1,15}$/.test(value)) {
    throw badRequest(`${name} must be an integer, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** A UUID path parameter (operation ids). */
export function pathUuid(params: unknown, name: string): string {
  const value = isObject(params) ? params[name] : undefined;
  if (
    typeof value !== "string" ||
    !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
  ) {
    throw badRequest(`${name} must be a UUID, got ${JSON.stringify(value)}`);
  }
  return value.toLowerCase();
}

/** An optional integer query parameter within bounds. */
export function queryInt(query: unknown, name: string, min: number, max: number, fallback: number): number {
  const value = isObject(query) ? query[name] : undefined;
  if (value === undefined || value === "") return fallback;
  if (typeof value !== "string" || !/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw badRequest(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** An optional string query parameter. */
export function queryString(query: unknown, name: string): string | undefined {
  const value = isObject(query) ? query[name] : undefined;
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "string") throw badRequest(`${name} must be given once`);
  return value;
}
