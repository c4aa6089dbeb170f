import assert from "node:assert/strict";
import { z } from "zod";
import {
  BadRequestError,
  ConflictError,
  ERROR_MARKER,
  NotFoundError,
  OperationFailedError,
  ServerError,
} from "../../provider/client";
import {
  isPartialFailure,
  isResourceError,
  PartialFailure,
  ResourceError,
} from "../../provider/resources/errors";
import { nameInput } from "../../provider/resources/inputs/common";
import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import { defineResource, type Step } from "../../provider/resources/lifecycle/define";
import { providerMethods } from "../../provider/resources/lifecycle/methods";
import { arrayOf, BOOLEAN, declareResource, INTEGER, STRING } from "../../provider/resources/public/declare";
import { seedOutputs, withSecretOutputs } from "../../provider/resources/public/props";
import { setEnv } from "./support";

// The shared lifecycle on a made-up resource whose API calls are scripted: what every resource gets
// from it without writing it again. No API is reached (the calls below never use the client).

const WidgetInputs = z.object({
  projectId: z.string(),
  name: nameInput(10, "name is required"),
  size: z.number({ error: "size must be a number" }).int("size must be whole").optional(),
  tags: z.array(z.string({ error: "tags are strings" })).optional(),
  deleteProtection: z.boolean().optional(),
  adoptExisting: z.string().optional(),
});
type WidgetInputs = z.infer<typeof WidgetInputs>;
interface WidgetOutputs extends WidgetInputs {
  widgetId: string;
  secret: string;
  operationIds?: string[];
  pendingOperationIds?: string[];
}

/** The widget, declared: its noun, change table, computed input and secret. */
const WIDGET = declareResource({
  type: "Widget",
  noun: "widget",
  family: "widgets",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** Its name. */
    name: { type: STRING, required: true, change: "update" },
    /** Its size; the API picks one when left out. */
    size: { type: INTEGER, change: "update", computed: true },
    /** Its tags. */
    tags: { type: arrayOf(STRING), change: "replace" },
    /** Refuse deletes. */
    deleteProtection: { type: BOOLEAN, change: "update" },
    /** Adopt this id. */
    adoptExisting: { type: STRING, change: "ignore" },
  },
  outputs: {
    /** Its id. */
    widgetId: { type: STRING },
    /** A secret it has. */
    secret: { type: STRING, secret: true },
  },
});

/** A widget definition whose API calls do what `script` says. */
function widget(
  script: Partial<Record<"create" | "read" | "remove" | "adopt", (step: Step) => unknown>> = {},
) {
  const call = (name: keyof typeof script, step: Step, value: unknown) =>
    script[name] === undefined ? value : script[name](step);
  return defineResource<WidgetInputs, WidgetOutputs>(WIDGET, {
    inputs: WidgetInputs,
    same: {
      tags: (news, olds) => [...(news ?? [])].sort().join() === [...((olds as string[]) ?? [])].sort().join(),
    },
    id: (outs) => outs.widgetId,
    create: async (step, inputs) =>
      call("create", step, {
        ...inputs,
        widgetId: "w-1",
        secret: "s",
        operationIds: ["op-1"],
      }) as WidgetOutputs,
    created: (inputs, response) =>
      response === "made"
        ? { ...inputs, widgetId: "w-made", secret: "s", operationIds: ["op-9"] }
        : undefined,
    adopt: async (step, inputs, id) =>
      call("adopt", step, { ...inputs, widgetId: id, secret: "s" }) as WidgetOutputs,
    read: async (step, _id, props) => call("read", step, props) as WidgetOutputs | undefined,
    inputsOf: (outs) => ({ projectId: outs.projectId, name: outs.name }),
    remove: async (step) => {
      call("remove", step, undefined);
    },
    refusal: async (_step, _id, _props, err) =>
      err.status === 409 ? undefined : { why: "it is in use", next: "stop using it first" },
  });
}

const INPUTS: WidgetInputs = { projectId: "p-1", name: "w", size: 2, tags: ["a", "b"] };
const OLDS: WidgetOutputs = { ...INPUTS, widgetId: "w-1", secret: "s", pendingOperationIds: [] };

async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => assert.fail("expected a rejection"),
    (e: Error) => e,
  );
}

describe("resource lifecycle (shared by every resource)", () => {
  let restore: () => void;
  beforeEach(() => {
    restore = setEnv({ CLOUDDB_API_KEY: `napi_${"x".repeat(64)}`, CLOUDDB_API_URL: "http://127.0.0.1:9" });
  });
  afterEach(() => restore());

  describe("check", () => {
    // Checks of an unchanged resource (olds as declared): a planned change would go on to read the
    // configuration from the API (tests/provider/preflight.test.ts).
    const check = (news: Record<string, unknown>, olds: Record<string, unknown> = news) =>
      providerMethods(widget()).check(olds as WidgetInputs, news as WidgetInputs);

    it("names each failing top-level property, and puts a nested path in the reason", async () => {
      const result = await check({ projectId: "p", name: "", size: 1.5, tags: ["a", 7] }, {});
      assert.deepEqual(result.failures, [
        { property: "name", reason: "name is required" },
        { property: "size", reason: "size must be whole" },
        { property: "", reason: "tags[1] must be a string, not the number 7" },
      ]);
    });

    it("drops failures at or under a value not known yet (preview)", async () => {
      const news = { projectId: UNKNOWN, name: "w", size: UNKNOWN, tags: [UNKNOWN] };
      const result = await check(news);
      assert.equal(result.failures, undefined);
    });

    it("returns only the declared inputs when valid", async () => {
      const result = await check({ ...INPUTS, stray: 1 });
      assert.deepEqual(result, { inputs: INPUTS });
    });
  });

  describe("diff", () => {
    const diff = (news: Partial<WidgetInputs>, olds: WidgetOutputs = OLDS) =>
      providerMethods(widget()).diff("w-1", olds, { ...INPUTS, ...news } as WidgetInputs);

    it("replaces for a replace row and updates for an update row", async () => {
      assert.deepEqual(await diff({ tags: ["c"] }), {
        changes: true,
        replaces: ["tags"],
        deleteBeforeReplace: false,
      });
      assert.deepEqual(await diff({ name: "v" }), {
        changes: true,
        replaces: [],
        deleteBeforeReplace: false,
      });
    });

    it("uses the row's own equality (a list compared in any order)", async () => {
      assert.equal((await diff({ tags: ["b", "a"] })).changes, false);
    });

    it("treats a computed input left out as no opinion, and any other input left out as a change", async () => {
      assert.equal((await diff({ size: undefined })).changes, false);
      assert.deepEqual(await diff({ tags: undefined }), {
        changes: true,
        replaces: ["tags"],
        deleteBeforeReplace: false,
      });
    });

    it("reports a change while operations of an earlier run are pending", async () => {
      assert.equal((await diff({}, { ...OLDS, pendingOperationIds: ["op-2"] })).changes, true);
    });

    it("reads an unset deleteProtection as false, without a row of the resource's own", async () => {
      assert.equal(
        (await diff({ deleteProtection: undefined }, { ...OLDS, deleteProtection: false })).changes,
        false,
      );
      assert.equal(
        (await diff({ deleteProtection: false }, { ...OLDS, deleteProtection: undefined })).changes,
        false,
      );
      assert.equal(
        (await diff({ deleteProtection: undefined }, { ...OLDS, deleteProtection: true })).changes,
        true,
      );
    });
  });

  describe("create", () => {
    it("records an object the create made before a later step failed, as a partial failure", async () => {
      const failure = new OperationFailedError("operation start ended cancelled", "p-1", {
        id: "op-9",
        action: "start",
        status: "cancelled",
      });
      failure.response = "made";
      const methods = providerMethods(
        widget({
          create: () => {
            throw failure;
          },
        }),
      );
      const err = await rejection(methods.create(INPUTS));
      assert.ok(isPartialFailure(err));
      assert.equal((err as PartialFailure).id, "w-made");
      assert.deepEqual((err as PartialFailure).properties.pendingOperationIds, ["op-9"]);
      assert.match(
        err.message,
        /widget w-made \(w\) was created in project p-1 but did not finish: operation start/,
      );
      assert.equal(err.cause, failure, "the client's error is kept as the cause");
    });

    it("lets other failures through unchanged", async () => {
      const failure = new ServerError("boom");
      const methods = providerMethods(
        widget({
          create: () => {
            throw failure;
          },
        }),
      );
      assert.equal(await rejection(methods.create(INPUTS)), failure);
    });

    it("adopts by id, and says what to fix when the object to adopt is missing", async () => {
      const adopted = await providerMethods(widget()).create({ ...INPUTS, adoptExisting: "w-old" });
      assert.equal(adopted.id, "w-old");
      const missing = providerMethods(
        widget({
          adopt: () => {
            throw new NotFoundError("no such widget", { requestId: "req-1", status: 404 });
          },
        }),
      );
      const err = await rejection(missing.create({ ...INPUTS, adoptExisting: "w-gone" }));
      assert.ok(isResourceError(err));
      assert.equal((err as ResourceError).kind, "NotAdoptable");
      assert.equal((err as ResourceError).requestId, "req-1", "the API's request id is kept");
      assert.match(err.message, /adoptExisting: widget w-gone was not found in project p-1; check both ids/);
    });
  });

  describe("read", () => {
    it("drops an object that is gone, whether read says so or the API answers 404", async () => {
      assert.deepEqual(await providerMethods(widget({ read: () => undefined })).read("w-1", OLDS), {
        id: "",
      });
      const notFound = widget({
        read: () => {
          throw new NotFoundError("gone");
        },
      });
      assert.deepEqual(await providerMethods(notFound).read("w-1", OLDS), { id: "" });
    });

    it("reports the inputs the outputs stand for", async () => {
      const read = await providerMethods(widget()).read("w-1", OLDS);
      assert.deepEqual(read.inputs, { projectId: "p-1", name: "w" });
    });
  });

  describe("update", () => {
    it("takes the new values of update rows, keeps a computed input left out, drops others left out", async () => {
      const olds = { ...OLDS, deleteProtection: true };
      const { outs } = await providerMethods(widget()).update!("w-1", olds, {
        projectId: "p-1",
        name: "v",
        tags: ["a", "b"],
      });
      assert.equal(outs?.name, "v");
      assert.equal(outs?.size, 2, "computed: kept");
      assert.equal(outs?.deleteProtection, undefined, "left out: dropped");
      assert.equal(outs?.secret, "s", "outputs that are not inputs are kept");
    });
  });

  describe("delete", () => {
    it("counts an object already gone as deleted", async () => {
      const gone = widget({
        remove: () => {
          throw new NotFoundError("gone");
        },
      });
      await providerMethods(gone).remove("w-1", OLDS);
    });

    it("refuses while deleteProtection is on, sending nothing", async () => {
      let sent = false;
      const methods = providerMethods(
        widget({
          remove: () => {
            sent = true;
          },
        }),
      );
      const err = await rejection(methods.remove("w-1", { ...OLDS, deleteProtection: true }));
      assert.match(
        err.message,
        /widget w-1 \(w\) in project p-1 has deleteProtection: set deleteProtection: false/,
      );
      assert.equal(sent, false);
    });

    it("explains a refusal from the resource's reading of the facts, not from the API's wording", async () => {
      const refused = widget({
        remove: () => {
          throw new BadRequestError("nope", { status: 422, requestId: "req-7" });
        },
      });
      const err = await rejection(providerMethods(refused).remove("w-1", OLDS));
      assert.equal(
        err.message,
        "widget w-1 (w) in project p-1 cannot be deleted: it is in use; stop using it first (request id req-7).",
      );
      assert.equal((err as ResourceError).kind, "DeleteRefused");
      assert.equal((err as ResourceError).status, 422);
      // What Pulumi's provider host prints for a failed delete: the name and the message, once, no frames.
      assert.equal(`${err}: ${err.stack}`, `DeleteRefusedError: ${err.message}: `);
    });

    it("gives the API's answer when the resource cannot tell why", async () => {
      const refused = widget({
        remove: () => {
          throw new ConflictError("DELETE /w/w-1 failed: 409 Conflict: busy.", {
            status: 409,
            requestId: "req-8",
          });
        },
      });
      const err = await rejection(providerMethods(refused).remove("w-1", OLDS));
      assert.equal(
        err.message,
        "widget w-1 (w) in project p-1 cannot be deleted (API: DELETE /w/w-1 failed: 409 Conflict: busy.)",
      );
    });
  });

  describe("errors", () => {
    it("recognises the layer's errors by marker, not by class, and only a partial failure carries an id", () => {
      const copy = Object.assign(new Error("from another copy of the module"), {
        [Symbol.for("pulumi-clouddb.resourceError")]: true,
        kind: "PartialFailure",
      });
      assert.ok(isResourceError(copy));
      assert.ok(isPartialFailure(copy));
      assert.ok(!isResourceError(new Error("plain")));
      const refused = new ResourceError("DeleteRefused", "refused");
      assert.equal("id" in refused, false, "Pulumi takes any error with an id for a partial failure");
      assert.equal((refused as unknown as Record<symbol, unknown>)[ERROR_MARKER], undefined);
      assert.equal(new PartialFailure("w-1", {}, ["a", "b"]).message, "a; b");
    });
  });

  describe("resource class props", () => {
    it("seeds every output key and lets the args win", () => {
      assert.deepEqual(seedOutputs<WidgetOutputs>({ name: "w" }, ["widgetId", "name"]), {
        widgetId: undefined,
        name: "w",
      });
    });

    it("puts the definition's secrets first, then the caller's", () => {
      assert.deepEqual(
        withSecretOutputs({ additionalSecretOutputs: ["name"] }, widget().secrets).additionalSecretOutputs,
        ["secret", "name"],
      );
    });
  });
});
