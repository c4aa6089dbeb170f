/** Compute endpoints: the record, its documented types and states, and the answers of the endpoint routes. */
import { z } from "zod";
import { DOCUMENTED, maybe } from "./common";
import { OperationSchema } from "./operations";

/** Compute endpoint types the API documents; `type` still accepts any string. */
export const ENDPOINT_TYPES = ["read_only", "read_write"] as const;
/** Compute endpoint states the API documents; `current_state` still accepts any string. */
export const ENDPOINT_STATES = ["init", "active", "idle"] as const;

/** A compute endpoint record (`type` is `read_write` / `read_only`, other strings accepted). */
export const EndpointSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  host: z.string(),
  current_state: maybe(z.string()),
  pending_state: maybe(z.string()),
  branch_id: z.string(),
  project_id: maybe(z.string()),
  region_id: maybe(z.string()),
  autoscaling_limit_min_cu: maybe(z.number()),
  autoscaling_limit_max_cu: maybe(z.number()),
  suspend_timeout_seconds: maybe(z.number()),
  pooler_enabled: maybe(z.boolean()),
  pooler_mode: maybe(z.string()),
  /** A free label (1-64 characters), absent when none was given. */
  name: maybe(z.string()),
  disabled: maybe(z.boolean()),
  /** The compute's settings; `pg_settings` are the Postgres settings it starts with, by name. */
  settings: maybe(z.looseObject({ pg_settings: maybe(z.record(z.string(), z.string())) })),
  provisioner: maybe(z.string()),
  proxy_host: maybe(z.string()),
  created_at: maybe(z.string()),
  updated_at: maybe(z.string()),
});
DOCUMENTED.add(EndpointSchema, { as: "Endpoint" });
/** A compute endpoint. */
export type Endpoint = z.infer<typeof EndpointSchema>;

/** `GET /projects/{project_id}/branches/{branch_id}/endpoints` */
export const BranchEndpointsResponseSchema = z.looseObject({ endpoints: z.array(EndpointSchema) });
DOCUMENTED.add(BranchEndpointsResponseSchema, { as: "EndpointsResponse" });
/** Body of a branch's endpoint list. */
export type BranchEndpointsResponse = z.infer<typeof BranchEndpointsResponseSchema>;

/** `GET /projects/{project_id}/endpoints/{endpoint_id}`. */
export const EndpointResponseSchema = z.looseObject({ endpoint: EndpointSchema });
DOCUMENTED.add(EndpointResponseSchema, { as: "EndpointResponse" });
/** Body of an endpoint read. */
export type EndpointResponse = z.infer<typeof EndpointResponseSchema>;

/** `POST`, `PATCH` and `DELETE` (200) of an endpoint: the endpoint and the operations started. */
export const EndpointOperationsSchema = z.looseObject({
  endpoint: EndpointSchema,
  operations: z.array(OperationSchema).default([]),
});
DOCUMENTED.add(EndpointOperationsSchema, { as: "EndpointOperations" });
/** Body of an endpoint change. */
export type EndpointOperations = z.infer<typeof EndpointOperationsSchema>;
