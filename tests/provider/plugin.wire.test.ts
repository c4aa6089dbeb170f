import * as assert from "node:assert/strict";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Struct, Value } from "google-protobuf/google/protobuf/struct_pb";
import {
  type JsValue,
  readCheckRequest,
  readDiffRequest,
  wireStruct,
  writeCheckResponse,
  writeDiffResponse,
  writeStruct,
} from "../../provider/plugin/wire";
import { Random } from "../fuzz/support/world";

/** A value of a state: nested objects and lists of strings (some not ASCII), numbers, booleans and nulls. */
function jsValue(random: Random, depth: number): JsValue {
  const kind = random.below(depth > 2 ? 4 : 6);
  if (kind === 0) return null;
  if (kind === 1)
    return random.pick([0, -0, 1, -1.5, 2 ** 53, 1e-300, Number.MAX_VALUE, -Infinity, random.next() * 1e6]);
  if (kind === 2) return random.pick(["", "app", "ünïcødé ✓", "a\u0000b", "𝄞 clef", "x".repeat(300)]);
  if (kind === 3) return random.next() < 0.5;
  if (kind === 4) return Array.from({ length: random.below(4) }, () => jsValue(random, depth + 1));
  return jsObject(random, depth + 1);
}

function jsObject(random: Random, depth: number): { [key: string]: JsValue } {
  const keys = ["name", "projectId", "__given", "Zeta", "alpha", "a.b", "ключ", "k1", "k10", "k2", ""];
  const object: { [key: string]: JsValue } = {};
  for (let i = random.below(6); i > 0; i--) object[random.pick(keys)] = jsValue(random, depth);
  return object;
}

/** Two Structs' bytes one after the other: one message to protobuf, its keys out of order and some sent twice. */
function structBytes(random: Random): Uint8Array {
  const parts = Array.from({ length: 1 + random.below(2) }, () =>
    Struct.fromJavaScript(jsObject(random, 0) as never).serializeBinary(),
  );
  return Buffer.concat(parts);
}

/** The same value with its keys' order made visible (deepEqual does not compare it). */
const ordered = (value: unknown) => JSON.stringify(value);

describe("the plugin reads Check and Diff requests from the wire and writes their answers as the generated stubs do", () => {
  it("decodes every Struct as Struct.toJavaScript() does, over 500 seeded states, keys out of order and sent twice", () => {
    for (let seed = 1; seed <= 500; seed++) {
      const random = new Random(seed);
      const bytes = structBytes(random);
      const expected = Struct.deserializeBinary(bytes).toJavaScript();
      const actual = wireStruct(bytes).toJavaScript();
      assert.deepEqual(actual, expected, `seed ${seed}`);
      assert.equal(ordered(actual), ordered(expected), `seed ${seed}: key order`);
    }
  });

  it("gives a fresh object on each toJavaScript(), as the stubs do, so a handler that changes one changes nothing else", () => {
    const struct = wireStruct(Struct.fromJavaScript({ tags: ["a"] }).serializeBinary());
    (struct.toJavaScript().tags as JsValue[]).push("b");
    assert.deepEqual(struct.toJavaScript(), { tags: ["a"] });
  });

  it("refuses a value that holds no kind with the stubs' own error", () => {
    const entry = new Struct();
    entry.getFieldsMap().set("empty", new Value());
    const bytes = entry.serializeBinary();
    assert.throws(() => Struct.deserializeBinary(bytes).toJavaScript(), /Unexpected struct type/);
    assert.throws(() => wireStruct(bytes).toJavaScript(), /Unexpected struct type/);
  });

  const structField = (random: Random) =>
    random.next() < 0.2 ? undefined : Struct.deserializeBinary(structBytes(random));

  const requests = [
    {
      method: "Check",
      getters: ["getOlds", "getNews", "getOldOutputs"],
      read: readCheckRequest,
      stubs: proto.CheckRequest,
      make(random: Random) {
        const request = new proto.CheckRequest();
        request.setUrn(`urn:pulumi:dev::p::clouddb:index:ApiKey::k${random.below(100)}`);
        request.setOlds(structField(random));
        request.setNews(structField(random));
        request.setOldOutputs(structField(random));
        request.setName(`k${random.below(100)}`);
        request.setType("clouddb:index:ApiKey");
        request.setRandomseed(Uint8Array.from({ length: 32 }, () => random.below(256)));
        if (random.next() < 0.5) {
          const autonaming = new proto.CheckRequest.AutonamingOptions();
          autonaming.setProposedName("k-1a2b");
          autonaming.setMode(proto.CheckRequest.AutonamingOptions.Mode.ENFORCE);
          request.setAutonaming(autonaming);
        }
        return request;
      },
      clear: (request: proto.CheckRequest) => {
        request.clearOlds();
        request.clearNews();
        request.clearOldOutputs();
      },
    },
    {
      method: "Diff",
      getters: ["getOlds", "getNews", "getOldInputs"],
      read: readDiffRequest,
      stubs: proto.DiffRequest,
      make(random: Random) {
        const request = new proto.DiffRequest();
        request.setId(`br-${random.below(1000)}`);
        request.setUrn(`urn:pulumi:dev::p::clouddb:index:Branch::b${random.below(100)}`);
        request.setOlds(structField(random));
        request.setNews(structField(random));
        request.setOldInputs(structField(random));
        request.setIgnorechangesList(random.next() < 0.5 ? [] : ["name", "tags[0]"]);
        request.setName(`b${random.below(100)}`);
        request.setType("clouddb:index:Branch");
        return request;
      },
      clear: (request: proto.DiffRequest) => {
        request.clearOlds();
        request.clearNews();
        request.clearOldInputs();
      },
    },
  ] as const;

  for (const { method, getters, read, stubs, make, clear } of requests) {
    it(`reads ${method}'s request field for field as its stubs do, over 200 seeded requests`, () => {
      for (let seed = 1; seed <= 200; seed++) {
        const bytes = make(new Random(seed)).serializeBinary();
        const expected = stubs.deserializeBinary(bytes) as unknown as Record<string, () => unknown>;
        const actual = read(bytes) as unknown as Record<string, () => unknown>;
        for (const getter of getters) {
          const want = expected[getter]!.call(expected) as Struct | undefined;
          const got = actual[getter]!.call(actual) as Struct | undefined;
          assert.equal(got === undefined, want === undefined, `seed ${seed}: ${getter}`);
          assert.equal(
            ordered(got?.toJavaScript()),
            ordered(want?.toJavaScript()),
            `seed ${seed}: ${getter}`,
          );
        }
        // Every other field, through the stubs' own toObject once the Structs are set aside.
        for (const getter of getters) delete actual[getter];
        clear(expected as never);
        assert.deepEqual(
          (actual as unknown as proto.CheckRequest).toObject(),
          (expected as unknown as proto.CheckRequest).toObject(),
          `seed ${seed}`,
        );
      }
    });
  }

  /** A property name of a check failure or a detailed diff: a path, sometimes empty. */
  const path = (random: Random) =>
    random.pick(["", "name", "tags[0]", "settings.quota", "ключ", "x".repeat(200)]);
  const paths = (random: Random) => Array.from({ length: random.below(4) }, () => path(random));

  it("writes a Struct as Struct.fromJavaScript of its JSON serializes, over 500 seeded values, dates and absent properties included", () => {
    for (let seed = 1; seed <= 500; seed++) {
      const random = new Random(seed);
      const props: Record<string, unknown> = { ...jsObject(random, 0) };
      if (random.next() < 0.3) props.absent = undefined;
      if (random.next() < 0.3) props.at = new Date(Date.UTC(2026, 11, random.below(28) + 1));
      const expected = Struct.fromJavaScript(JSON.parse(JSON.stringify(props))).serializeBinary();
      assert.equal(writeStruct(props).toString("hex"), Buffer.from(expected).toString("hex"), `seed ${seed}`);
    }
  });

  const answers = [
    {
      method: "Check",
      make(random: Random) {
        const inputs = jsObject(random, 0);
        const failures = Array.from({ length: random.below(3) }, () => ({
          property: path(random),
          reason: random.pick(["", "name must be a string, not a number", "x".repeat(300)]),
        }));
        const stubs = new proto.CheckResponse();
        // What the plugin sent through the stubs: the inputs' JSON (`toStruct`).
        stubs.setInputs(Struct.fromJavaScript(JSON.parse(JSON.stringify(inputs))));
        stubs.setFailuresList(
          failures.map((f) => {
            const failure = new proto.CheckFailure();
            failure.setProperty(f.property);
            failure.setReason(f.reason);
            return failure;
          }),
        );
        return { bytes: writeCheckResponse({ inputs, failures }), expected: stubs.serializeBinary() };
      },
    },
    {
      method: "Diff",
      make(random: Random) {
        const detailedDiff = new Map(paths(random).map((p) => [p, random.below(6)]));
        const answer = {
          replaces: paths(random),
          stables: paths(random),
          deleteBeforeReplace: random.next() < 0.5,
          changes: random.below(3),
          diffs: paths(random),
          detailedDiff,
          hasDetailedDiff: random.next() < 0.5,
        };
        const stubs = new proto.DiffResponse();
        stubs.setReplacesList(answer.replaces);
        stubs.setStablesList(answer.stables);
        stubs.setDeletebeforereplace(answer.deleteBeforeReplace);
        stubs.setChanges(answer.changes as proto.DiffResponse.DiffChanges);
        stubs.setDiffsList(answer.diffs);
        for (const [p, kind] of detailedDiff) {
          const diff = new proto.PropertyDiff();
          diff.setKind(kind as proto.PropertyDiff.Kind);
          diff.setInputdiff(false);
          stubs.getDetaileddiffMap().set(p, diff);
        }
        stubs.setHasdetaileddiff(answer.hasDetailedDiff);
        return { bytes: writeDiffResponse(answer), expected: stubs.serializeBinary() };
      },
    },
  ] as const;

  for (const { method, make } of answers) {
    it(`writes ${method}'s answer byte for byte as its stubs do, over 300 seeded answers`, () => {
      for (let seed = 1; seed <= 300; seed++) {
        const { bytes, expected } = make(new Random(seed));
        assert.equal(bytes.toString("hex"), Buffer.from(expected).toString("hex"), `seed ${seed}`);
      }
    });
  }
});
