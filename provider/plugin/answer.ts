/**
 * How the plugin's calls answer the engine: a handler's result, or its error as a gRPC status that
 * carries, for a create or update that made the object but could not finish, the object's id and
 * properties.
 */
import type * as grpc from "@grpc/grpc-js";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { Any, grpcJs, Struct } from "./packaged";
import { wrap } from "./values";

type Props = Record<string, unknown>;
/** A protobuf `Struct`, as the stubs `@pulumi/pulumi` ships build it. */
export type StructValue = InstanceType<typeof Struct>;
type Callback<T> = (error: grpc.ServiceError | Partial<grpc.StatusObject> | null, value?: T) => void;
type Handler<Req, Res> = (call: { request: Req }, callback: Callback<Res>) => void;

/** `props` as a `Struct`: `Struct` cannot hold `undefined`, so an absent output is left out. */
export const toStruct = (props: Props): StructValue =>
  Struct.fromJavaScript(JSON.parse(JSON.stringify(props)));

/**
 * A failed call as the engine takes it: its message, and for a create or update that made the
 * object but could not finish (a partial failure: an error with an `id`), the object's id and
 * properties, which the engine records so the next `up` resumes instead of orphaning it.
 */
export function failure(err: unknown, secrets: readonly string[] = []): Partial<grpc.StatusObject> {
  const message = err instanceof Error ? err.message : String(err);
  const metadata = new grpcJs.Metadata();
  const made = err as { id?: unknown; properties?: Props; reasons?: string[] };
  if (typeof made.id === "string" && made.id !== "") {
    const detail = new proto.ErrorResourceInitFailed();
    detail.setId(made.id);
    detail.setProperties(toStruct(wrap(made.properties ?? {}, secrets)));
    detail.setReasonsList(made.reasons ?? [message]);
    const any = new Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new Status();
    status.setCode(grpcJs.status.UNKNOWN);
    status.setMessage(message);
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpcJs.status.UNKNOWN, details: message, metadata };
}

/** A handler answering with `run`'s result, or with its error as {@link failure}. */
export function answer<Req, Res>(
  run: (request: Req) => Promise<Res>,
  secretsOfError?: (request: Req) => readonly string[],
): Handler<Req, Res> {
  return (call, callback) => {
    run(call.request).then(
      (value) => callback(null, value),
      (err: unknown) => callback(failure(err, secretsOfError?.(call.request))),
    );
  };
}
