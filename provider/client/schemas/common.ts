/** Pieces every family uses: where the document describes a schema, nullable optional fields, cursor objects, error bodies. */
import { z } from "zod";

/**
 * Where the official document describes each exported schema, added beside the schema: the name
 * of a component schema (`Branch`), or a route's answer (`GET /projects/{project_id}/snapshots 200`)
 * when the document writes that shape inline; `in: "sdk"` for a shape only @neon/sdk's types
 * describe (a route the document lacks), by its component name there. The drift test checks every
 * exported schema against what it names here.
 */
export const DOCUMENTED = z.registry<{ as: string; in?: "sdk" }>();

/** An optional field that may also arrive as `null`; both read as `undefined`. */
export function maybe<T extends z.ZodType>(schema: T) {
  return schema
    .nullish()
    .transform((value) => value ?? undefined)
    .optional();
}

/** Cursor object of a listing page. */
export const PaginationSchema = z.looseObject({ cursor: maybe(z.string()) });
DOCUMENTED.add(PaginationSchema, { as: "Pagination" });
/** A pagination object. */
export type Pagination = z.infer<typeof PaginationSchema>;

/** An error body `{request_id?, code, message}`; every field tolerated missing. */
export const ErrorBodySchema = z.looseObject({
  request_id: maybe(z.string()),
  code: maybe(z.union([z.string(), z.number()])),
  message: maybe(z.string()),
});
DOCUMENTED.add(ErrorBodySchema, { as: "GeneralError" });
/** A parsed error body. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
