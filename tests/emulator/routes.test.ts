import assert from "node:assert/strict";
import Fastify from "fastify";
import type { EmulatorContext } from "../../emulator/context";
import { type DocumentedRoute, documentedRoutes } from "../../emulator/openapi/contract";
import { route } from "../../emulator/routes/route";
import { API_PREFIX, buildServer } from "../../emulator/server";
import type { EmulatorControl } from "../../emulator/types";
import { OpenApiValidator, servedRoutes } from "./openapi";

// Served and documented routes, both ways: every route the emulator serves is in the official
// document (or, for a route it lacks, in @neon/sdk's types: tests/emulator/sdk-contract.test.ts
// lists those not served yet), and every documented route of the areas the emulator covers is
// served, except the ones listed below with the reason.

/** The areas the emulator covers, as patterns over the document's route templates. */
const AREAS = [
  /^\/api_keys/,
  /^\/organizations\/\{org_id\}(\/api_keys.*|\/members(\/\{member_id\})?|\/invitations|\/billing\/spending_limit)?$/,
  /^\/users\/me(\/organizations)?$/,
  /^\/auth$|^\/projects\/auth\/|^\/projects\/\{project_id\}(\/branches\/\{branch_id\})?\/auth(\/|$)/,
  /^\/projects(\/shared)?$/,
  /^\/projects\/\{project_id\}(\/(recover|connection_uri|operations.*|endpoints.*|transfer_requests.*))?$/,
  /^\/organizations\/\{source_org_id\}\/projects\/transfer$/,
  /^\/projects\/\{project_id\}\/(branches(\/count)?|branch_anonymized)$/,
  /^\/projects\/\{project_id\}\/branches\/\{branch_id\}(\/(restore|set_as_default|recover|endpoints|roles.*|databases.*|masking_rules|anonymized_status|anonymize))?$/,
  /^\/projects\/\{project_id\}\/branches\/\{branch_id\}\/buckets(\/.*)?$/,
];

/** Documented routes in those areas the emulator leaves out, and why. */
const NOT_SERVED: Record<string, string> = {};

describe("routes: served and documented, both ways", () => {
  const document = new OpenApiValidator();

  it("serves only routes the official document or, where it lacks them, @neon/sdk's types describe", async () => {
    const served = await servedRoutes();
    assert.ok(served.length >= 45, `only ${served.length} routes served`);
    assert.deepEqual(
      served.filter((r) => {
        const [method, template] = r.split(" ") as [string, string];
        return !document.has(template, method);
      }),
      [],
    );
  });

  it("serves every documented route of its areas, but the ones it names", async () => {
    const served = new Set(await servedRoutes());
    const inAreas = documentedRoutes().filter((r) => AREAS.some((a) => a.test(r.split(" ")[1] as string)));
    assert.ok(inAreas.length >= 50, `the areas match ${inAreas.length} documented routes`);
    assert.deepEqual(
      inAreas.filter((r) => !served.has(r) && NOT_SERVED[r] === undefined),
      [],
    );
    assert.deepEqual(
      Object.keys(NOT_SERVED).filter((r) => served.has(r) || !inAreas.includes(r)),
      [],
      "every exception is a documented, unserved route",
    );
  });

  it("refuses to declare a route neither the document nor @neon/sdk's types describe", () => {
    const app = Fastify();
    assert.throws(
      () => route(app, "GET /projects/{project_id}/nowhere" as DocumentedRoute, async () => ({})),
      /serves GET \/projects\/\{project_id\}\/nowhere, which the official document does not describe \(nor @neon\/sdk's types\)/,
    );
  });

  it("does not start with an API route registered without the document's request schemas", async () => {
    // Registration only reads the context and the control API when a request arrives.
    const app = buildServer({} as EmulatorContext, {} as EmulatorControl);
    app.register(
      async (api) => {
        api.get("/users/me/extra", async () => ({}));
      },
      { prefix: API_PREFIX },
    );
    await assert.rejects(async () => {
      await app.ready();
    }, /GET \/api\/v2\/users\/me\/extra is served without the document's request schemas/);
    await app.close();
  });
});
