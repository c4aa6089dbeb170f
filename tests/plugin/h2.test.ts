// The plugin's HTTP/2 layer (provider/plugin/h2.ts, hpack.ts) from the wire: HPACK decoding as RFC
// 7541's own examples give it (Appendix C: literal and Huffman-coded requests sharing one dynamic
// table, with evictions), and a connection driven frame by frame, where flow control, PING and
// CONTINUATION are seen. Through a real gRPC client, tests/plugin/unaryServer.test.ts.
import * as assert from "node:assert/strict";
import * as net from "node:net";
import { createH2Server, type H2Call } from "../../provider/plugin/h2";
import { encodeHeaders, type HeaderField, HpackDecoder } from "../../provider/plugin/hpack";

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ""), "hex");

/** RFC 7541 C.3 (no Huffman) and C.4 (Huffman): three requests on one connection each. */
const RFC_REQUESTS: { name: string; blocks: string[] }[] = [
  {
    name: "C.3, literal strings",
    blocks: [
      "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
      "8286 84be 5808 6e6f 2d63 6163 6865",
      "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
    ],
  },
  {
    name: "C.4, Huffman-coded strings",
    blocks: [
      "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff",
      "8286 84be 5886 a8eb 1064 9cbf",
      "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf",
    ],
  },
];

const RFC_FIELDS: HeaderField[][] = [
  [
    [":method", "GET"],
    [":scheme", "http"],
    [":path", "/"],
    [":authority", "www.example.com"],
  ],
  [
    [":method", "GET"],
    [":scheme", "http"],
    [":path", "/"],
    [":authority", "www.example.com"],
    ["cache-control", "no-cache"],
  ],
  [
    [":method", "GET"],
    [":scheme", "https"],
    [":path", "/index.html"],
    [":authority", "www.example.com"],
    ["custom-key", "custom-value"],
  ],
];

/** RFC 7541 C.5 (responses, a 256-octet table, so entries are evicted), its three header blocks. */
const RFC_RESPONSES = [
  "4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
  "4803 3330 37c1 c0bf",
  "88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31",
];

describe("the plugin's HTTP/2 layer: HPACK and frames", () => {
  for (const { name, blocks } of RFC_REQUESTS) {
    it(`decodes RFC 7541 ${name} as the RFC does, the dynamic table carried from one block to the next`, () => {
      const decoder = new HpackDecoder();
      blocks.forEach((block, i) => {
        assert.deepEqual(decoder.decode(hex(block)), RFC_FIELDS[i]);
      });
    });
  }

  it("decodes RFC 7541 C.5: a 256-octet table evicts its oldest entries as new ones come", () => {
    const decoder = new HpackDecoder(256);
    // The table is the peer's announced size: the blocks fit it only with evictions.
    const decoded = RFC_RESPONSES.map((block) => decoder.decode(hex(block)));
    assert.deepEqual(decoded[1], [
      [":status", "307"],
      ["cache-control", "private"],
      ["date", "Mon, 21 Oct 2013 20:13:21 GMT"],
      ["location", "https://www.example.com"],
    ]);
    assert.deepEqual(decoded[2]?.slice(0, 3), [
      [":status", "200"],
      ["cache-control", "private"],
      ["date", "Mon, 21 Oct 2013 20:13:22 GMT"],
    ]);
    assert.deepEqual(decoded[2]?.at(-1), [
      "set-cookie",
      "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1",
    ]);
    // The RFC's table after the third block: three entries, 215 octets; the fourth oldest is gone.
    assert.deepEqual(decoder.decode(hex("bf c0")), [
      ["content-encoding", "gzip"],
      ["date", "Mon, 21 Oct 2013 20:13:22 GMT"],
    ]);
    assert.throws(() => decoder.decode(hex("c1")), /index 65/);
  });

  it("refuses an index past the table and a Huffman string that does not end in its padding", () => {
    assert.throws(() => new HpackDecoder().decode(hex("be")), /index 62/);
    assert.throws(() => new HpackDecoder().decode(hex("4081 00 00")), /padding|end-of-string/);
  });

  it("encodes what it answers so that a decoder reads it back, its own table untouched", () => {
    const fields: HeaderField[] = [
      [":status", "200"],
      ["content-type", "application/grpc"],
      ["grpc-status", "13"],
      ["grpc-message", "x".repeat(300)],
      ["grpc-status-details-bin", Buffer.alloc(200, 7).toString("base64")],
    ];
    const decoder = new HpackDecoder();
    assert.deepEqual(decoder.decode(encodeHeaders(fields)), fields);
    assert.deepEqual(decoder.decode(encodeHeaders(fields)), fields);
  });

  describe("a connection driven frame by frame", () => {
    let server: net.Server;
    let port: number;
    let serverWrites = 0;
    const answer = Buffer.alloc(100_000, 1);
    before(async () => {
      server = createH2Server(async (call: H2Call) => {
        // As the plugin's handlers do, `/svc/Later` answers after awaiting.
        if (call.headers.get(":path") === "/svc/Later") await Promise.resolve();
        call.respond([["content-type", "application/grpc"]], call.body.length > 0 ? answer : undefined, [
          ["grpc-status", "0"],
          ["path", call.headers.get(":path") ?? ""],
        ]);
      });
      // Counts the server's socket writes, each connection's from when it is accepted.
      server.on("connection", (socket: net.Socket) => {
        const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
        socket.write = ((...args: unknown[]) => {
          serverWrites += 1;
          return write(...args);
        }) as typeof socket.write;
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as net.AddressInfo).port;
    });
    after(() => server.close());

    type Frame = { type: number; flags: number; stream: number; payload: Buffer };
    const frame = (type: number, flags: number, stream: number, payload: Buffer) => {
      const header = Buffer.alloc(9);
      header.writeUIntBE(payload.length, 0, 3);
      header[3] = type;
      header[4] = flags;
      header.writeUInt32BE(stream, 5);
      return Buffer.concat([header, payload]);
    };
    const u32 = (n: number) => {
      const b = Buffer.alloc(4);
      b.writeUInt32BE(n);
      return b;
    };

    /** A client socket whose frames are read as they come; `until` waits for a frame matching. */
    async function connect(settings: Buffer) {
      const socket = net.connect(port, "127.0.0.1");
      await new Promise((resolve) => socket.once("connect", resolve));
      const frames: Frame[] = [];
      let buffer = Buffer.alloc(0);
      const waiters: (() => void)[] = [];
      socket.on("data", (chunk) => {
        buffer = Buffer.concat([buffer, chunk]);
        while (buffer.length >= 9 && buffer.length >= 9 + buffer.readUIntBE(0, 3)) {
          const length = buffer.readUIntBE(0, 3);
          frames.push({
            type: buffer[3]!,
            flags: buffer[4]!,
            stream: buffer.readUInt32BE(5),
            payload: buffer.subarray(9, 9 + length),
          });
          buffer = buffer.subarray(9 + length);
        }
        for (const w of waiters.splice(0)) w();
      });
      socket.write(
        Buffer.concat([Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"), frame(4, 0, 0, settings)]),
      );
      const until = async (match: (f: Frame) => boolean, count = 1): Promise<Frame[]> => {
        for (;;) {
          const found = frames.filter(match);
          if (found.length >= count) return found;
          await new Promise<void>((resolve, reject) => {
            waiters.push(resolve);
            setTimeout(() => reject(new Error("no such frame came")), 2000).unref();
          });
        }
      };
      return { socket, frames, until };
    }

    const request = (path: string, body: Buffer) => {
      const block = encodeHeaders([
        [":method", "POST"],
        [":path", path],
      ]);
      // The header block split over HEADERS and a CONTINUATION, the body over two DATA frames.
      return Buffer.concat([
        frame(1, 0, 1, block.subarray(0, 3)),
        frame(9, 0x4, 1, block.subarray(3)),
        frame(0, 0, 1, body.subarray(0, 2)),
        frame(0, 0x1, 1, body.subarray(2)),
      ]);
    };

    it("sends no more DATA than the client's windows allow, and the rest as WINDOW_UPDATEs open them", async () => {
      // SETTINGS_INITIAL_WINDOW_SIZE 1000: the stream may take 1000 octets, the connection 65535.
      const client = await connect(Buffer.concat([Buffer.from([0, 4]), u32(1000)]));
      try {
        await client.until((f) => f.type === 4 && f.flags === 1);
        client.socket.write(request("/svc/Call", Buffer.from("hello")));
        const data = () =>
          client.frames.filter((f) => f.type === 0).reduce((n, f) => n + f.payload.length, 0);
        await client.until((f) => f.type === 0);
        await new Promise((resolve) => setTimeout(resolve, 50));
        assert.equal(data(), 1000, "the stream's window");
        client.socket.write(frame(8, 0, 1, u32(200_000)));
        await new Promise((resolve) => setTimeout(resolve, 50));
        assert.equal(data(), 65535, "then the connection's window");
        assert.equal(client.frames.filter((f) => f.type === 1).length, 1, "no trailers before the last DATA");
        client.socket.write(frame(8, 0, 0, u32(100_000)));
        const [trailers] = await client.until((f) => f.type === 1 && (f.flags & 0x1) === 1);
        assert.equal(data(), answer.length);
        assert.deepEqual(new HpackDecoder().decode(trailers!.payload), [
          ["grpc-status", "0"],
          ["path", "/svc/Call"],
        ]);
      } finally {
        client.socket.destroy();
      }
    });

    it("answers a PING with its payload, acknowledged, and ends the connection on a frame it cannot read", async () => {
      const client = await connect(Buffer.alloc(0));
      try {
        client.socket.write(frame(6, 0, 0, Buffer.from("12345678")));
        const [pong] = await client.until((f) => f.type === 6);
        assert.equal(pong!.flags, 1);
        assert.equal(pong!.payload.toString(), "12345678");
        // A HEADERS frame on stream 0.
        const closed = new Promise((resolve) => client.socket.once("close", resolve));
        client.socket.write(frame(1, 0x4, 0, Buffer.from([0x82])));
        await closed;
      } finally {
        client.socket.destroy();
      }
    });

    it("acknowledges a PING that comes with a call in the same socket write as the call's answer, the acknowledgement first", async () => {
      const client = await connect(Buffer.alloc(0));
      try {
        await client.until((f) => f.type === 4 && f.flags === 1);
        await new Promise((resolve) => setTimeout(resolve, 20));
        const before = serverWrites;
        // What a gRPC client sends after reading an answer (a PING to size its windows), then its next
        // call, in one write: a header block that ends the stream, no body.
        const block = encodeHeaders([
          [":method", "POST"],
          [":path", "/svc/Later"],
        ]);
        client.socket.write(
          Buffer.concat([frame(6, 0, 0, Buffer.from("abcdefgh")), frame(1, 0x5, 1, block)]),
        );
        await client.until((f) => f.type === 1 && (f.flags & 0x1) === 1);
        await new Promise((resolve) => setTimeout(resolve, 20));
        assert.equal(serverWrites - before, 1, "one socket write for the acknowledgement and the answer");
        const pong = client.frames.find((f) => f.type === 6);
        const headers = client.frames.find((f) => f.type === 1 && f.stream === 1);
        assert.equal(pong?.flags, 1);
        assert.equal(pong?.payload.toString(), "abcdefgh");
        assert.ok(
          client.frames.indexOf(pong!) < client.frames.indexOf(headers!),
          "the acknowledgement first",
        );
      } finally {
        client.socket.destroy();
      }
    });
  });
});
