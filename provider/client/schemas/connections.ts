/** Connection strings (each holds a password: a secret). */
import { z } from "zod";
import { DOCUMENTED, maybe } from "./common";

/** A connection URI returned on branch creation (contains a password). */
export const ConnectionUriSchema = z.looseObject({
  connection_uri: z.string(),
  connection_parameters: maybe(z.record(z.string(), z.unknown())),
});
DOCUMENTED.add(ConnectionUriSchema, { as: "ConnectionDetails" });
/** A connection URI. */
export type ConnectionUri = z.infer<typeof ConnectionUriSchema>;

/** `GET /projects/{project_id}/connection_uri`: a connection string, password included. */
export const ConnectionUriResponseSchema = z.looseObject({ uri: z.string() });
DOCUMENTED.add(ConnectionUriResponseSchema, { as: "ConnectionURIResponse" });
/** Body of a connection URI read. */
export type ConnectionUriResponse = z.infer<typeof ConnectionUriResponseSchema>;
