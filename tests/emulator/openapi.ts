import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import Fastify from "fastify";
import type { EmulatorContext } from "../../emulator/context";
import sdkContract from "../../emulator/openapi/sdk-routes.gen.json";
import { toTemplate } from "../../emulator/route-pattern";
import { API_PREFIX, apiRoutes } from "../../emulator/server";
import { officialDocument, withTaggedOneOfs } from "../../scripts/openapi-document";
import type { Json } from "./helpers";

// Response validation against the official OpenAPI document. The whole document is added to ajv
// under the id "openapi"; a response schema taken from `paths` gets its `#/components/...`
// references pointed at that document. A route the document lacks is validated against the
// answers @neon/sdk's types give it (emulator/openapi/sdk-routes.gen.json, under the id "sdk"),
// by status, then by class (`4XX`), then `default`.

type Obj = Record<string, Json>;

function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function rebase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rebase);
  if (!isObj(value)) return value;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `openapi${v}` : rebase(v);
  }
  return out;
}

interface SdkRoute {
  responses: Record<string, object | null>;
}

const SDK = sdkContract as unknown as {
  $id: string;
  operations: Record<string, SdkRoute>;
  components: object;
};

/** Validates response bodies by route template, method and status. */
export class OpenApiValidator {
  readonly #doc = officialDocument();
  readonly #ajv: Ajv;
  readonly #cache = new Map<string, ValidateFunction | "empty" | "binary">();

  constructor() {
    this.#ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.#ajv);
    this.#ajv.addSchema(withTaggedOneOfs(this.#doc.raw) as object, "openapi");
    this.#ajv.addSchema({ $id: SDK.$id, components: SDK.components });
  }

  /** Whether the document, or for a route it lacks @neon/sdk's types, describe this operation. */
  has(template: string, method: string): boolean {
    return this.#doc.operation(method, template) !== undefined || this.#sdk(template, method) !== undefined;
  }

  /** Whether only @neon/sdk's types describe this operation. */
  sdkOnly(template: string, method: string): boolean {
    return this.#doc.operation(method, template) === undefined && this.#sdk(template, method) !== undefined;
  }

  #sdk(template: string, method: string): SdkRoute | undefined {
    return SDK.operations[`${method} ${template}`];
  }

  /** The schema @neon/sdk's types give an answer (`null`: no body); throws when they give none for the status. */
  #sdkAnswer(route: SdkRoute, template: string, method: string, status: number): object | null {
    const { responses } = route;
    for (const key of [String(status), `${String(status)[0]}XX`, "default"]) {
      const answer = responses[key];
      if (answer !== undefined) return answer;
    }
    throw new Error(`@neon/sdk's types give no ${status} answer to ${method} ${template}`);
  }

  /** The document's response object for a status (falling back to `default`), references resolved. */
  response(template: string, method: string, status: number): Obj {
    const op = this.#doc.operation(method, template);
    if (!op) throw new Error(`the OpenAPI document has no ${method} ${template}`);
    const responses = (op["responses"] ?? {}) as Obj;
    const response = responses[String(status)] ?? responses["default"];
    if (!isObj(response))
      throw new Error(`the OpenAPI document has no ${status} or default for ${method} ${template}`);
    return this.#doc.resolve(response);
  }

  /** Problems with a body for that response; an empty list when it conforms. */
  validate(template: string, method: string, status: number, body: unknown, text: string): string[] {
    const key = `${method} ${template} ${status}`;
    let validator = this.#cache.get(key);
    if (!validator) {
      const sdk =
        this.#doc.operation(method, template) === undefined ? this.#sdk(template, method) : undefined;
      const content = sdk ? undefined : this.response(template, method, status)["content"];
      const schema = sdk
        ? this.#sdkAnswer(sdk, template, method, status)
        : content?.["application/json"]?.["schema"];
      // A documented binary body (an object's bytes) has no shape to check.
      const binary = content?.["application/octet-stream"] !== undefined;
      validator =
        schema === undefined || schema === null
          ? binary
            ? "binary"
            : "empty"
          : this.#ajv.compile(sdk ? (schema as object) : (rebase(schema) as object));
      this.#cache.set(key, validator);
    }
    if (validator === "binary") return [];
    if (validator === "empty") return text === "" ? [] : [`expected no body, got ${text.slice(0, 80)}`];
    if (body === undefined) return [`expected a JSON body, got ${JSON.stringify(text.slice(0, 80))}`];
    if (validator(body)) return [];
    return (validator.errors ?? []).map(
      (e) => `${e.instancePath || "(body)"} ${e.message ?? ""} ${JSON.stringify(e.params)}`,
    );
  }

  /** Problems with a value for a component schema (e.g. GeneralError); an empty list when it conforms. */
  validateComponent(component: string, value: unknown): string[] {
    const key = `component ${component}`;
    let validator = this.#cache.get(key);
    if (!validator) {
      validator = this.#ajv.compile({ $ref: `openapi#/components/schemas/${component}` });
      this.#cache.set(key, validator);
    }
    if (validator === "empty" || validator === "binary" || validator(value)) return [];
    return (validator.errors ?? []).map((e) => `${e.instancePath || "(body)"} ${e.message ?? ""}`);
  }

  /** Top-level fields of `value` that the component schema does not declare (catches misspelled fields). */
  undeclared(component: string, value: unknown, extra: string[] = []): string[] {
    const { properties } = this.#doc.fields(this.#doc.component(component));
    const declared = new Set<string>([...extra, ...Object.keys(properties)]);
    if (!isObj(value)) return [`not an object: ${JSON.stringify(value)}`];
    return Object.keys(value).filter((k) => !declared.has(k));
  }
}

/** Every route the emulator serves, as "METHOD /template". */
export async function servedRoutes(): Promise<string[]> {
  const served: string[] = [];
  const app = Fastify({ exposeHeadRoutes: false });
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) served.push(`${method} ${toTemplate(route.url)}`);
  });
  // Registration only reads the context when a request arrives.
  await app.register(async (api) => apiRoutes(api, {} as EmulatorContext), { prefix: API_PREFIX });
  await app.ready();
  await app.close();
  return served.sort();
}
