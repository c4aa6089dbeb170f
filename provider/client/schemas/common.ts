/** Pieces every family uses: nullable optional fields, cursor objects, error bodies. */
import { z } from "zod";

/** An optional field that may also arrive as `null`; both read as `undefined`. */
export function maybe<T extends z.ZodType>(schema: T) {
  return schema
    .nullish()
    .transform((value) => value ?? undefined)
    .optional();
}

/** Cursor object of a listing page. */
export const PaginationSchema = z.looseObject({ cursor: maybe(z.string()) });
/** A pagination object. */
export type Pagination = z.infer<typeof PaginationSchema>;

/** An error body `{request_id?, code, message}`; every field tolerated missing. */
export const ErrorBodySchema = z.looseObject({
  request_id: maybe(z.string()),
  code: maybe(z.union([z.string(), z.number()])),
  message: maybe(z.string()),
});
/** A parsed error body. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
