import * as assert from "node:assert/strict";
import * as grpc from "@grpc/grpc-js";
import { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { failure } from "../../provider/plugin/answer";
import { serveUnary, type UnaryHandler, type UnaryMethod } from "../../provider/plugin/unaryServer";

type Answer = { error: grpc.ServiceError | null; value: unknown };

/** One unary call of `method` through grpc-js's own client, as the engine's gRPC client makes it. */
function call(port: number, method: keyof typeof ResourceProviderService, request: unknown): Promise<Answer> {
  const definition = ResourceProviderService[method] as unknown as {
    path: string;
    requestSerialize(value: unknown): Buffer;
    responseDeserialize(bytes: Buffer): unknown;
  };
  // No cap on what is received, as the engine's client has none.
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
    "grpc.max_receive_message_length": -1,
  });
  return new Promise((resolve) =>
    client.makeUnaryRequest(
      definition.path,
      definition.requestSerialize,
      definition.responseDeserialize,
      request,
      (error, value) => {
        client.close();
        resolve({ error, value });
      },
    ),
  );
}

describe("the plugin's gRPC server over its own HTTP/2 layer, called by grpc-js's client (every ResourceProvider method is unary)", () => {
  const large = "x".repeat(4 * 1024 * 1024);
  const handlers: Record<string, UnaryHandler> = {
    getPluginInfo: (_call, callback) => {
      const info = new PluginInfo();
      info.setVersion(large);
      callback(null, info);
    },
    getSchema: (schemaCall, callback) => {
      const request = schemaCall.request as proto.GetSchemaRequest;
      const response = new proto.GetSchemaResponse();
      response.setSchema(`version ${request.getVersion()}`);
      callback(null, response);
    },
    create: (_call, callback) => {
      const err = Object.assign(
        new Error("the branch “preview/1” was made, its compute did not start: 100% of tries failed"),
        {
          id: "br-made-1",
          properties: { name: "preview/1" },
        },
      );
      callback(failure(err));
    },
    delete: () => {
      throw new Error("thrown before any answer");
    },
  };
  let port: number;
  let close: () => void;

  before(async () => {
    const served = await serveUnary(
      ResourceProviderService as unknown as Record<string, UnaryMethod>,
      handlers,
    );
    port = served.port;
    close = () => served.server.close();
  });
  after(() => close());

  it("answers a request with the handler's response, messages of megabytes included", async () => {
    const schema = new proto.GetSchemaRequest();
    schema.setVersion(3);
    const answered = await call(port, "getSchema", schema);
    assert.equal(answered.error, null);
    assert.equal((answered.value as proto.GetSchemaResponse).getSchema(), "version 3");
    const info = await call(port, "getPluginInfo", new Empty());
    assert.equal(info.error, null);
    assert.equal((info.value as PluginInfo).getVersion().length, large.length);
  });

  it("sends a handler's error as its status, the message percent-encoded and the details (the made object's id) intact", async () => {
    const { error } = await call(port, "create", new proto.CreateRequest());
    assert.equal(error?.code, grpc.status.UNKNOWN);
    assert.equal(
      error?.details,
      "the branch “preview/1” was made, its compute did not start: 100% of tries failed",
    );
    const [details] = error?.metadata.get("grpc-status-details-bin") ?? [];
    assert.ok(Buffer.isBuffer(details), "the status details reach the client");
    assert.ok(details.includes(Buffer.from("br-made-1")), "the details carry the made object's id");
  });

  it("answers a handler that throws with UNKNOWN and its message, and one it does not serve with UNIMPLEMENTED", async () => {
    const thrown = await call(port, "delete", new proto.DeleteRequest());
    assert.equal(thrown.error?.code, grpc.status.UNKNOWN);
    assert.equal(thrown.error?.details, "thrown before any answer");
    const missing = await call(port, "read", new proto.ReadRequest());
    assert.equal(missing.error?.code, grpc.status.UNIMPLEMENTED);
  });

  it("serves calls that overlap, each with its own answer", async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const request = new proto.GetSchemaRequest();
        request.setVersion(i);
        return call(port, "getSchema", request);
      }),
    );
    assert.deepEqual(
      answers.map((a) => (a.value as proto.GetSchemaResponse).getSchema()),
      Array.from({ length: 50 }, (_, i) => `version ${i}`),
    );
  });
});
