import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { badRequest } from "../errors";
import derived from "./requests.gen.json";

// Request checks built at start-up from the official OpenAPI document's request schemas (derived
// into requests.gen.json by scripts/derive-openapi.ts, kept in step by a test). Bodies are checked
// as sent (no type coercion: the service refuses `"17"` for an integer); path parameters and query
// strings arrive as text, so they are coerced to the documented types and get documented defaults.

type Obj = Record<string, unknown>;

interface DerivedOperation {
  params: Obj;
  query: Obj;
  body?: Obj;
  bodyRequired: boolean;
}

const artifact = derived as unknown as {
  $id: string;
  operations: Record<string, DerivedOperation>;
  components: Obj;
};

/** What a route handler receives after the checks: typed parameters, query and body. */
export interface CheckedRequest {
  params: unknown;
  query: unknown;
  body: unknown;
}

function compiler(options: { coerce: boolean }): Ajv {
  const ajv = new Ajv({
    strict: false,
    allErrors: false,
    coerceTypes: options.coerce,
    useDefaults: options.coerce,
    validateSchema: false,
  });
  addFormats(ajv);
  ajv.addSchema({ $id: artifact.$id, components: artifact.components });
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

/** Compiles the checks of every route once; one instance per server. */
export class RequestValidator {
  readonly #body = compiler({ coerce: false });
  readonly #text = compiler({ coerce: true });

  /**
   * The check for a served route ("POST /projects/{project_id}/branches"): throws at start-up when
   * the document does not describe the route; the check itself throws 400 on a bad request.
   */
  forRoute(route: string): (request: CheckedRequest) => void {
    const op = artifact.operations[route];
    if (!op) throw new Error(`the emulator serves ${route}, which the official document does not describe`);
    const params = this.#text.compile(op.params);
    const query = this.#text.compile(op.query);
    const body: ValidateFunction | undefined =
      op.body === undefined ? undefined : this.#body.compile(op.body);
    return (request) => {
      if (!params(request.params ?? {})) throw badRequest(describe("path parameter", params.errors));
      if (!query(request.query ?? {})) throw badRequest(describe("query parameter", query.errors));
      if (request.body === undefined || request.body === null) {
        if (op.bodyRequired) throw badRequest("request body is required");
        return;
      }
      if (body && !body(request.body)) throw badRequest(describe("request body", body.errors));
    };
  }
}
