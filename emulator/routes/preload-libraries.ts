import type { AvailablePreloadLibrary } from "@neon/sdk/raw";
import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context";
import { PRELOAD_LIBRARIES } from "../defaults";
import { projectOf } from "./lookup";
import { route } from "./route";

// The shared preload libraries a project's computes can load: those built for its Postgres version.

/** Registers the preload libraries route. */
export function preloadLibraryRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  route(app, "GET /projects/{project_id}/available_preload_libraries", async (request) => {
    const project = projectOf(ctx, request);
    const libraries: AvailablePreloadLibrary[] = PRELOAD_LIBRARIES.filter((l) =>
      l.pg_versions.includes(project.pg_version),
    ).map(({ pg_versions: _, ...library }) => library);
    return { libraries };
  });
}
