/**
 * zod schemas for every response shape the client reads; the TypeScript types are `z.infer` of them.
 *
 * Tolerant by design: objects keep unknown fields (`z.looseObject`), enum-like strings (`action`,
 * `status`, endpoint `type`, branch state) accept values we have not seen, optional fields may be
 * absent or `null`. Only fields the library uses are required.
 *
 * One file per object family, re-exported by the derived `families.gen.ts`; a response that nests other families' records (a branch creation
 * answers with endpoints, roles and databases) imports their schemas from those files.
 */

export { type ErrorBody, ErrorBodySchema, type Pagination, PaginationSchema } from "./common";
// Every family's file of this folder (`npm run derive:lists` writes the list).
export * from "./families.gen";
