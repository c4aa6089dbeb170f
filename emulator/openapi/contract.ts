import Ajv, { type ErrorObject } from "ajv";
import addFormats from "ajv-formats";
import type { FastifySchema, FastifySchemaCompiler } from "fastify";
import type { Requests } from "./requests.gen";
import derived from "./requests.gen.json";
import type { Requests as SdkRequests } from "./sdk-routes.gen";
import sdkDerived from "./sdk-routes.gen.json";

// A route's request contract: the official OpenAPI document's request schemas (derived into
// requests.gen.json by scripts/derive-openapi.ts, kept in step by a test) go into fastify's own
// route `schema` slot (params, querystring, body), and the validator compiler below checks each
// part. Bodies are checked as sent (no type coercion: the service refuses `"17"` for an integer);
// path parameters and query strings arrive as text, so they are coerced to the documented types
// and get documented defaults; a list parameter given once arrives as one text, so it becomes a
// list of one. requests.gen.ts types the same schemas for the handlers.
//
// The document lags the service: a route it lacks but @neon/sdk's types describe (a newer
// description of the same API) takes its schemas from sdk-routes.gen.json, derived from those
// types by the same script, and is checked the same way.

type Obj = Record<string, unknown>;

interface DerivedOperation {
  params: Obj;
  query: Obj;
  body?: Obj;
  bodyRequired: boolean;
}

interface Artifact {
  $id: string;
  operations: Record<string, DerivedOperation>;
  components: Obj;
}

const artifact = derived as unknown as Artifact;
const sdkArtifact = sdkDerived as unknown as Artifact;

/** Each route's request parts, from the document or, for a route it lacks, from @neon/sdk's types. */
export type ContractRequests = Requests & SdkRequests;

/** A route the official document describes, or one it lacks that @neon/sdk's types describe, as "METHOD /template". */
export type DocumentedRoute = keyof ContractRequests;

function compiler(options: { coerce: boolean }): Ajv {
  const ajv = new Ajv({
    strict: false,
    allErrors: false,
    coerceTypes: options.coerce ? "array" : false,
    useDefaults: options.coerce,
    validateSchema: false,
  });
  addFormats(ajv);
  for (const { $id, components } of [artifact, sdkArtifact]) ajv.addSchema({ $id, components });
  return ajv;
}

const ARTICLE: Record<string, string> = {
  object: "a JSON object",
  array: "an array",
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "a boolean",
};

function describe(where: string, errors: ErrorObject[] | null | undefined): string {
  const first = errors?.[0];
  if (!first) return `invalid ${where}`;
  const path = first.instancePath.replace(/^\//, "").replaceAll("/", ".");
  const subject = path === "" ? where : path;
  const params = first.params as Record<string, unknown>;
  let detail: string;
  switch (first.keyword) {
    case "required":
      return `${path === "" ? "" : `${path}.`}${String(params["missingProperty"])} is required`;
    case "enum":
      detail = `must be one of ${(params["allowedValues"] as unknown[]).map(String).join(", ")}`;
      break;
    case "type":
      detail = `must be ${ARTICLE[String(params["type"])] ?? String(params["type"])}`;
      break;
    case "minLength":
      detail =
        params["limit"] === 1
          ? "must not be empty"
          : `must be at least ${String(params["limit"])} characters`;
      break;
    case "maxLength":
      detail = `must be at most ${String(params["limit"])} characters`;
      break;
    case "pattern":
      detail = `must match ${String(params["pattern"])}`;
      break;
    default:
      detail = first.message ?? "is invalid";
  }
  return `${subject} ${detail}`;
}

/** The documented routes, as "METHOD /template". */
export function documentedRoutes(): string[] {
  return Object.keys(artifact.operations);
}

/** The routes the document lacks that @neon/sdk's types describe, as "METHOD /template". */
export function sdkRoutes(): string[] {
  return Object.keys(sdkArtifact.operations);
}

// fastify hands a body validator `null` when the request has no body. An optional body accepts
// that; a required one without a schema refuses it.
const ABSENT = { type: "null" };
const PRESENT = { not: ABSENT };

/**
 * The route `schema` slot of a documented route ("POST /projects/{project_id}/branches"), or of
 * one only @neon/sdk describes; throws at start-up when neither describes the route.
 */
export function requestSchema(route: DocumentedRoute): FastifySchema {
  const op = artifact.operations[route] ?? sdkArtifact.operations[route];
  if (!op) {
    throw new Error(
      `the emulator serves ${route}, which the official document does not describe (nor @neon/sdk's types)`,
    );
  }
  const schema: FastifySchema = { params: op.params, querystring: op.query };
  if (op.bodyRequired) schema.body = op.body ?? PRESENT;
  else if (op.body !== undefined) schema.body = { if: ABSENT, else: op.body };
  return schema;
}

const WHERE: Record<string, string> = {
  params: "path parameter",
  querystring: "query parameter",
  body: "request body",
};

/**
 * fastify's validator compiler for the API's routes: one check per request part, refusing with
 * the API's 400 messages. The error is a plain one: fastify gives it status 400, and the server's
 * error handler answers it as it answers fastify's own 4xx, `{request_id, code: "", message}`.
 */
export function requestValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const body = compiler({ coerce: false });
  const text = compiler({ coerce: true });
  return ({ schema, httpPart = "body" }) => {
    const check = (httpPart === "body" ? body : text).compile(schema as object);
    const where = WHERE[httpPart] ?? httpPart;
    return (data) => {
      if (check(data)) return true;
      const message =
        httpPart === "body" && data === null ? "request body is required" : describe(where, check.errors);
      return { error: new Error(message) };
    };
  };
}
