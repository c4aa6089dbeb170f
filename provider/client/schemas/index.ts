/**
 * zod schemas for every response shape the client reads; the TypeScript types are `z.infer` of them.
 *
 * Tolerant by design: objects keep unknown fields (`z.looseObject`), enum-like strings (`action`,
 * `status`, endpoint `type`, branch state) accept values we have not seen, optional fields may be
 * absent or `null`. Only fields the library uses are required.
 *
 * One file per object family; a response that nests other families' records (a branch creation
 * answers with endpoints, roles and databases) imports their schemas from those files.
 */

export * from "./account";
export * from "./advisors";
export * from "./anonymization";
export * from "./apiKeys";
export * from "./auth";
export * from "./branches";
export * from "./buckets";
export { type ErrorBody, ErrorBodySchema, type Pagination, PaginationSchema } from "./common";
export * from "./connections";
export * from "./consumption";
export * from "./credentials";
export * from "./dataApi";
export * from "./databases";
export * from "./endpoints";
export * from "./functions";
export * from "./operations";
export * from "./organizations";
export * from "./permissions";
export * from "./projectMembers";
export * from "./projects";
export * from "./roles";
export * from "./snapshots";
export * from "./vpc";
