/**
 * Lines for the user through the engine's gRPC `Engine.Log`, at the address the engine gives the
 * plugin: the engine shows them as the stack's info messages, live and in a CI log. A line that
 * cannot be sent (the engine is gone) is dropped: the plugin ends with its engine anyway.
 */
import type { EngineClient as Client } from "@pulumi/pulumi/proto/engine_grpc_pb";
import { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb";
import { grpcJs } from "./packaged";

/** A writer sending each line to the engine at `address` (`host:port`) as an info message. */
export function engineLog(address: string): (line: string) => void {
  const { EngineClient } = require("@pulumi/pulumi/proto/engine_grpc_pb") as { EngineClient: typeof Client };
  const client = new EngineClient(address, grpcJs.credentials.createInsecure());
  return (line) => {
    const request = new LogRequest().setSeverity(LogSeverity.INFO).setMessage(line);
    client.log(request, () => {});
  };
}
