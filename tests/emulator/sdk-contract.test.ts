import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { documentedRoutes, requestValidatorCompiler, sdkRoutes } from "../../emulator/openapi/contract";
import { route } from "../../emulator/routes/route";
import { deriveRequests, renderArtifact, renderTypes } from "../../scripts/derive-openapi";
import {
  DEPRECATIONS_PATH,
  deriveSdkContract,
  renderDeprecations,
  SDK_ARTIFACT,
  SDK_CLIENT_TYPES,
  SDK_EMULATOR_TYPES,
  type SdkSources,
  sdkSources,
} from "../../scripts/derive-sdk-contract";
import { OpenApiDocument } from "../../scripts/openapi-document";
import { OpenApiValidator, servedRoutes } from "./openapi";

// The official document lags the service; @neon/sdk's types are generated from a newer
// description of the same API. For the routes the document lacks, the emulator checks requests
// and its answers against schemas derived from those types (emulator/openapi/sdk-routes.gen.json),
// and the provider warns about the fields they mark deprecated (provider/resources/public/deprecated.gen.ts).
// Re-deriving them from the installed SDK must give the committed files byte for byte.

const doc = new OpenApiDocument();
const documented = new Set(Object.keys(deriveRequests().operations));
const derive = (sources?: SdkSources) => deriveSdkContract(documented, doc, sources);

/**
 * The routes only @neon/sdk describes that the emulator does not serve yet: the gap, listed so it
 * is seen. Serving one means taking it off this list.
 */
const NOT_SERVED_YET = [
  "GET /projects/{project_id}/branches/{branch_id}/logs/fields",
  "GET /projects/{project_id}/branches/{branch_id}/logs/fields/{field_name}/values",
  "POST /projects/{project_id}/branches/{branch_id}/logs/query",
];

describe("the contract of the routes only @neon/sdk describes", () => {
  describe("derived from the installed SDK", () => {
    const fresh = derive();

    it("matches the committed artifact (run `npm run derive:openapi` after updating @neon/sdk)", () => {
      assert.ok(
        renderArtifact(fresh) === readFileSync(SDK_ARTIFACT, "utf8"),
        "emulator/openapi/sdk-routes.gen.json drifted from @neon/sdk",
      );
    });

    for (const [reader, types] of [
      ["the emulator's handlers", SDK_EMULATOR_TYPES],
      ["the client's requests", SDK_CLIENT_TYPES],
    ] as const) {
      it(`types ${reader} by the same schemas (run \`npm run derive:openapi\` after updating @neon/sdk)`, () => {
        assert.ok(
          renderTypes(fresh, types) === readFileSync(types.path, "utf8"),
          `${relative(process.cwd(), types.path)} drifted from @neon/sdk`,
        );
      });
    }

    it("lists the deprecated fields for the provider as derived", () => {
      assert.ok(
        renderDeprecations(fresh) === readFileSync(DEPRECATIONS_PATH, "utf8"),
        "provider/resources/public/deprecated.gen.ts drifted from @neon/sdk",
      );
    });

    it("finds the project members, branch credentials and custom domain routes, none of them documented", () => {
      const routes = Object.keys(fresh.operations);
      for (const expected of [
        "GET /projects/{project_id}/members",
        "PUT /projects/{project_id}/members/{member_id}/role",
        "DELETE /projects/{project_id}/members/{member_id}/role",
        "GET /projects/{project_id}/branches/{branch_id}/triggers",
        "POST /projects/{project_id}/branches/{branch_id}/logs/query",
      ]) {
        assert.ok(routes.includes(expected), `${expected} was not derived`);
      }
      assert.deepEqual(
        routes.filter((r) => documented.has(r)),
        [],
      );
    });

    it("reads each route's parts and answers: path parameters, query, a required body, answers by status", () => {
      const role = fresh.operations["PUT /projects/{project_id}/members/{member_id}/role"];
      assert.ok(role);
      assert.deepEqual(role.params, {
        type: "object",
        properties: { project_id: { type: "string" }, member_id: { type: "string" } },
        required: ["member_id", "project_id"],
      });
      assert.deepEqual(role.query, {
        type: "object",
        properties: { confirm_self_demotion: { type: "boolean" } },
      });
      assert.equal(role.bodyRequired, true);
      assert.deepEqual(role.body, { $ref: "sdk#/components/schemas/SetProjectMemberRoleRequest" });
      assert.deepEqual(Object.keys(role.responses), ["200", "4XX"]);
      assert.deepEqual(fresh.components.schemas["ProjectRole"], {
        type: "string",
        enum: ["viewer", "editor", "admin"],
      });
      const removed =
        fresh.operations["DELETE /projects/{project_id}/branches/{branch_id}/triggers/{trigger_id}"];
      assert.ok(removed);
      assert.equal(removed.bodyRequired, false);
      assert.equal(removed.body, undefined);
    });

    it("records the fields the SDK marks deprecated, and which of them the document does not", () => {
      const byField = new Map(fresh.deprecated.map((d) => [d.at, d]));
      const pooler = byField.get("EndpointCreateRequest.endpoint.pooler_enabled");
      assert.ok(pooler, "pooler_enabled of an endpoint create is deprecated");
      assert.match(pooler.note, /^To enable connection pooling, append `-pooler` to the endpoint ID/);
      assert.equal(pooler.documented, true);
      assert.equal(byField.get("AddProjectJwksRequest.role_names")?.documented, false);
      assert.ok(byField.has("EndpointPoolerMode"), "a whole named type may be deprecated");
    });
  });

  it("reads each construct the SDK's types use into JSON Schema", () => {
    const sources: SdkSources = {
      types: [
        "export type Thing = {",
        "    id: string;",
        "    count?: number;",
        "    /**",
        "     * Deprecated. Use `id`.",
        "     *",
        "     * Kept for old clients.",
        "     *",
        "     * @deprecated",
        "     */",
        "    old?: boolean;",
        "    tags: Array<string>;",
        "    list: Other[];",
        "    state: 'on' | 'off';",
        "    maybe: string | null;",
        "    open: 'a' | (string & {});",
        "    labels: {",
        "        [key: string]: string;",
        "    };",
        "    anything: unknown;",
        "    both: Other & {",
        "        extra: boolean;",
        "    };",
        "};",
        "export type Other = {",
        "    name: string;",
        "};",
        "export type GetThingData = {",
        "    body?: never;",
        "    path: {",
        "        thing_id: string;",
        "    };",
        "    query?: {",
        "        verbose?: boolean;",
        "    };",
        "    url: '/things/{thing_id}';",
        "};",
        "export type GetThingErrors = {",
        "    '4XX': Other;",
        "};",
        "export type GetThingResponses = {",
        "    200: Thing;",
        "    204: void;",
        "};",
        "export type GetThingResponse = GetThingResponses[keyof GetThingResponses];",
      ].join("\n"),
      functions:
        "export declare const getThing: <ThrowOnError extends boolean = false>(options: Options<GetThingData, ThrowOnError>) => RequestResult<GetThingResponses, GetThingErrors, ThrowOnError>;",
      calls:
        'const getThing = (options) => (options.client ?? client).get({ url: "/things/{thing_id}", ...options });',
    };
    const derived = derive(sources);
    assert.deepEqual(derived.operations, {
      "GET /things/{thing_id}": {
        params: { type: "object", properties: { thing_id: { type: "string" } }, required: ["thing_id"] },
        query: { type: "object", properties: { verbose: { type: "boolean" } } },
        bodyRequired: false,
        responses: {
          "200": { $ref: "sdk#/components/schemas/Thing" },
          "204": null,
          "4XX": { $ref: "sdk#/components/schemas/Other" },
        },
      },
    });
    const other = { $ref: "sdk#/components/schemas/Other" };
    assert.deepEqual(derived.components.schemas["Thing"], {
      type: "object",
      properties: {
        id: { type: "string" },
        count: { type: "number" },
        old: { type: "boolean" },
        tags: { type: "array", items: { type: "string" } },
        list: { type: "array", items: other },
        state: { type: "string", enum: ["on", "off"] },
        maybe: { anyOf: [{ type: "string" }, { type: "null" }] },
        open: { type: "string" },
        labels: { type: "object", properties: {}, additionalProperties: { type: "string" } },
        anything: {},
        both: {
          allOf: [other, { type: "object", properties: { extra: { type: "boolean" } }, required: ["extra"] }],
        },
      },
      required: ["id", "tags", "list", "state", "maybe", "open", "labels", "anything", "both"],
    });
    assert.deepEqual(derived.deprecated, [{ at: "Thing.old", note: "Use `id`.", documented: false }]);
  });

  describe("would notice a changed SDK", () => {
    const installed = sdkSources();

    it("a property made optional in the SDK's types changes the artifact", () => {
      const types = installed.types.replace(
        /(export type SetProjectMemberRoleRequest = \{[\s\S]*?)\n(\s+)role: ProjectRole;/,
        "$1\n$2role?: ProjectRole;",
      );
      assert.notEqual(types, installed.types, "the SDK has the property this test edits");
      const edited = derive({ ...installed, types });
      assert.deepEqual(edited.components.schemas["SetProjectMemberRoleRequest"], {
        type: "object",
        properties: { role: { $ref: "sdk#/components/schemas/ProjectRole" } },
      });
    });

    it("a deprecation dropped from the SDK leaves the list", () => {
      const types = installed.types.replace(
        /(export type AddProjectJwksRequest = \{[\s\S]*?)\s+\* @deprecated\n/,
        "$1\n",
      );
      assert.notEqual(types, installed.types, "the SDK has the deprecation this test drops");
      const edited = derive({ ...installed, types });
      assert.equal(
        edited.deprecated.some((d) => d.at === "AddProjectJwksRequest.role_names"),
        false,
      );
    });

    it("a route the document gains leaves the SDK's list", () => {
      const withMembers = deriveSdkContract(
        new Set([...documented, "GET /projects/{project_id}/members"]),
        doc,
      );
      assert.equal(withMembers.operations["GET /projects/{project_id}/members"], undefined);
    });

    it("refuses a construct it cannot read instead of guessing", () => {
      const types = installed.types.replace(
        "export type ProjectRole = 'viewer' | 'editor' | 'admin';",
        "export type ProjectRole = keyof ProjectMember;",
      );
      assert.notEqual(types, installed.types);
      assert.throws(() => derive({ ...installed, types }), /does not read the type keyof ProjectMember/);
    });
  });

  describe("checked by the emulator like the document's routes", () => {
    const responses = new OpenApiValidator();
    let app: FastifyInstance;
    const ROLE = "PUT /projects/{project_id}/members/{member_id}/role" as const;

    before(async () => {
      app = Fastify();
      app.setValidatorCompiler(requestValidatorCompiler());
      route(app, ROLE, async (request) => ({
        project_id: request.params.project_id,
        member_id: request.params.member_id,
        user_id: "u-1",
        org_role: "member",
        // Typed by the SDK's schema: a role outside viewer, editor, admin does not compile.
        project_role: request.body.role,
        ...(request.query.confirm_self_demotion === true ? { credential_rotation_recommended: true } : {}),
      }));
      await app.ready();
    });
    after(() => app.close());

    const put = (body: unknown, query = "") =>
      app.inject({ method: "PUT", url: `/projects/p-1/members/m-1/role${query}`, payload: body as object });

    it("accepts a request the SDK's types allow, with the query coerced to its type", async () => {
      const reply = await put({ role: "editor" }, "?confirm_self_demotion=true");
      assert.equal(reply.statusCode, 200, reply.body);
      assert.equal(reply.json().project_role, "editor");
      assert.equal(reply.json().credential_rotation_recommended, true);
    });

    it("refuses a body the SDK's types refuse, with the API's 400 message", async () => {
      const wrong = await put({ role: "owner" });
      assert.equal(wrong.statusCode, 400);
      assert.match(wrong.json().message, /role must be one of viewer, editor, admin/);
      const missing = await put({});
      assert.equal(missing.statusCode, 400);
      assert.match(missing.json().message, /role is required/);
      const query = await put({ role: "viewer" }, "?confirm_self_demotion=maybe");
      assert.equal(query.statusCode, 400);
      assert.match(query.json().message, /confirm_self_demotion must be a boolean/);
    });

    it("validates the answers against the SDK's answers for the route, by status and class", async () => {
      const [method, template] = ROLE.split(" ") as [string, string];
      const reply = await put({ role: "admin" });
      assert.deepEqual(responses.validate(template, method, 200, reply.json(), reply.body), []);
      const broken = { ...reply.json(), org_role: "owner", user_id: undefined };
      const problems = responses.validate(template, method, 200, broken, JSON.stringify(broken));
      assert.ok(
        problems.some((p) => p.includes("user_id")),
        problems.join("; "),
      );
      assert.ok(
        problems.some((p) => p.includes("allowedValues")),
        problems.join("; "),
      );
      const error = { request_id: "r", code: "", message: "role must be one of viewer, editor, admin" };
      assert.deepEqual(responses.validate(template, method, 400, error, JSON.stringify(error)), []);
      assert.notDeepEqual(responses.validate(template, method, 404, { code: "" }, "{}"), []);
      assert.ok(responses.sdkOnly(template, method));
      assert.equal(responses.sdkOnly("/projects/{project_id}/branches", "POST"), false);
    });

    it("validates an answer without a body as empty", () => {
      const answers = derive().operations;
      const route = sdkRoutes().find((r) => answers[r]?.responses["204"] === null);
      assert.ok(route, "some SDK-only route answers 204 without a body");
      const [method, template] = route.split(" ") as [string, string];
      assert.deepEqual(responses.validate(template, method, 204, undefined, ""), []);
      assert.notDeepEqual(responses.validate(template, method, 204, {}, "{}"), []);
    });
  });

  it("lists the routes only @neon/sdk describes that the emulator does not serve yet", async () => {
    const served = new Set(await servedRoutes());
    assert.deepEqual(
      sdkRoutes().filter((r) => !served.has(r)),
      NOT_SERVED_YET,
      "the emulator's gap changed: update NOT_SERVED_YET",
    );
    assert.deepEqual(
      sdkRoutes().filter((r) => documentedRoutes().includes(r)),
      [],
    );
  });
});
