/**
 * Lines for the user through the engine's gRPC `Engine.Log`, at the address the engine gives the
 * plugin: the engine shows them as the stack's messages, live and in a CI log. A line that cannot
 * be sent (the engine is gone) is dropped: the plugin ends with its engine anyway.
 */
import type { EngineClient as Client } from "@pulumi/pulumi/proto/engine_grpc_pb";
import { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb";
import { grpcJs } from "./packaged";

type Send = (severity: LogSeverity, message: string, urn?: string) => void;

function engineClient(address: string): Send {
  const { EngineClient } = require("@pulumi/pulumi/proto/engine_grpc_pb") as { EngineClient: typeof Client };
  const client = new EngineClient(address, grpcJs.credentials.createInsecure());
  return (severity, message, urn) => {
    const request = new LogRequest().setSeverity(severity).setMessage(message);
    if (urn !== undefined) request.setUrn(urn);
    client.log(request, () => {});
  };
}

/** A writer sending each line to the engine at `address` (`host:port`) as an info message. */
export function engineLog(address: string): (line: string) => void {
  const send = engineClient(address);
  return (line) => send(LogSeverity.INFO, line);
}

/** A writer sending warnings about a resource (by URN) to the engine at `address`, shown on that resource. */
export function engineWarning(address: string): (urn: string, message: string) => void {
  const send = engineClient(address);
  return (urn, message) => send(LogSeverity.WARNING, message, urn);
}
