/**
 * The client's route modules, one per object family of `api/`, by name: the one list of them.
 * `createClient` binds every route of each into a method, and `CloudDbClient`'s methods are derived
 * from their types. The list is derived from the files of `api/` (`npm run derive:lists` writes
 * `routeModules.gen.ts`), so a new family is its module alone.
 */
import { ROUTE_MODULES } from "./routeModules.gen";

export { ROUTE_MODULES };

/** The name of a route module (its file in `api/`). */
export type RouteModuleName = keyof typeof ROUTE_MODULES;
