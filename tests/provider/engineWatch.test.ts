import assert from "node:assert/strict";
import * as net from "node:net";
import { engineAddress, exitWhenEngineGone } from "../../provider/resources/host/engineWatch";

// A provider process whose engine was killed (a cancelled CI job) ends itself instead of idling
// for good or spinning on writes into the dead engine's pipes.

async function listening(): Promise<net.Server> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}
const addressOf = (server: net.Server) => `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a provider process whose engine is gone", () => {
  let stop: () => void = () => {};
  afterEach(() => stop());

  it("ends once the engine's address refuses connections", async () => {
    const engine = await listening();
    const address = addressOf(engine);
    const exits: number[] = [];
    stop = exitWhenEngineGone(address, (code) => exits.push(code), 20);
    await sleep(150);
    assert.deepEqual(exits, [], "ended while the engine listened");
    await new Promise((resolve) => engine.close(resolve));
    for (let i = 0; i < 50 && exits.length === 0; i++) await sleep(20);
    assert.equal(exits[0], 1);
  });

  it("ends when a write to its stdout or stderr fails with EPIPE, and ignores other stream errors", () => {
    const exits: number[] = [];
    stop = exitWhenEngineGone(undefined, (code) => exits.push(code));
    const error = (code: string) => Object.assign(new Error(`write ${code}`), { code });
    process.stderr.emit("error", error("EAGAIN"));
    assert.deepEqual(exits, []);
    process.stdout.emit("error", error("EPIPE"));
    process.stderr.emit("error", error("EPIPE"));
    assert.deepEqual(exits, [1, 1]);
  });

  it("probes the engine's address given after the log flags Pulumi passes with --logflow", () => {
    assert.equal(engineAddress(["127.0.0.1:34615"]), "127.0.0.1:34615");
    assert.equal(engineAddress(["--logtostderr", "-v=9", "127.0.0.1:44919"]), "127.0.0.1:44919");
    assert.equal(engineAddress(["--logtostderr", "-v=9"]), undefined);
  });

  it("is watched once per process however many clients are made", () => {
    const exits: number[] = [];
    stop = exitWhenEngineGone(undefined, (code) => exits.push(code));
    const second = exitWhenEngineGone(undefined, (code) => exits.push(code * 10));
    second();
    process.stdout.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    assert.deepEqual(exits, [1]);
  });
});
