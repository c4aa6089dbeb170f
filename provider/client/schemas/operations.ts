/** Operations: the records every change starts, and their listings. */
import { z } from "zod";
import { DOCUMENTED, maybe, PaginationSchema } from "./common";

/** Operation statuses the API documents. `status` still accepts any string. */
export const KNOWN_OPERATION_STATUSES = [
  "scheduling",
  "running",
  "finished",
  "failed",
  "error",
  "cancelling",
  "cancelled",
  "skipped",
] as const;
/** A documented operation status. */
export type KnownOperationStatus = (typeof KNOWN_OPERATION_STATUSES)[number];

/** One operation record (`action` has 30+ values and grows: any string is accepted). */
export const OperationSchema = z.looseObject({
  id: z.string(),
  project_id: z.string(),
  branch_id: maybe(z.string()),
  endpoint_id: maybe(z.string()),
  action: z.string(),
  status: z.string(),
  failures_count: z.number().int().default(0),
  created_at: z.string(),
  updated_at: z.string(),
  total_duration_ms: maybe(z.number()),
  error: maybe(z.string()),
  retry_at: maybe(z.string()),
});
DOCUMENTED.add(OperationSchema, { as: "Operation" });
/** An operation as returned by the API. */
export type Operation = z.infer<typeof OperationSchema>;

/** `GET /projects/{project_id}/operations` */
export const OperationsPageSchema = z.looseObject({
  operations: z.array(OperationSchema),
  pagination: maybe(PaginationSchema),
});
DOCUMENTED.add(OperationsPageSchema, { as: "GET /projects/{project_id}/operations 200" });
/** One page of operations. */
export type OperationsPage = z.infer<typeof OperationsPageSchema>;

/** `GET /projects/{project_id}/operations/{operation_id}` */
export const OperationResponseSchema = z.looseObject({ operation: OperationSchema });
DOCUMENTED.add(OperationResponseSchema, { as: "OperationResponse" });
/** Body of a single-operation read. */
export type OperationResponse = z.infer<typeof OperationResponseSchema>;
