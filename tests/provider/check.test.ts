import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import sinon from "sinon";
import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import { type ApiKeyInputs, apiKeyProvider } from "../../provider/resources/public/apiKey";
import { type BranchInputs, branchProvider } from "../../provider/resources/public/branch";
import { type DatabaseInputs, databaseProvider } from "../../provider/resources/public/database";
import { type RoleInputs, roleProvider } from "../../provider/resources/public/role";
import { useEmulator } from "./support";

// `check` runs before anything is sent: each bad input fails with the property and what to change.
// A failure names a property only for a top-level input that was given: the engine prints that
// input's value next to it, and would print `{<nil>}` for a nested path or a missing input.

async function keyFailures(news: Record<string, unknown>): Promise<pulumi.dynamic.CheckFailure[]> {
  const result = await apiKeyProvider.check!({} as ApiKeyInputs, news as unknown as ApiKeyInputs);
  return result.failures ?? [];
}

async function branchFailures(news: Record<string, unknown>): Promise<pulumi.dynamic.CheckFailure[]> {
  const result = await branchProvider.check!(
    {} as BranchInputs,
    {
      projectId: "hidden-river-50598307",
      ...news,
    } as unknown as BranchInputs,
  );
  return result.failures ?? [];
}

function only(failures: pulumi.dynamic.CheckFailure[]): pulumi.dynamic.CheckFailure {
  assert.equal(failures.length, 1, JSON.stringify(failures));
  return failures[0] as pulumi.dynamic.CheckFailure;
}

describe("check", () => {
  // Valid inputs of a planned create go on to the configuration check (tests/provider/preflight.test.ts).
  useEmulator();
  afterEach(() => sinon.restore());

  describe("ApiKey", () => {
    it("accepts a valid key and returns only the key's inputs", async () => {
      const result = await apiKeyProvider.check!(
        {} as ApiKeyInputs,
        {
          name: "k".repeat(64),
          orgId: "org-quiet-forest-27188409",
          projectId: "winter-boat-25988145",
          rotationTrigger: "2025-q1",
          stray: "dropped",
        } as unknown as ApiKeyInputs,
      );
      assert.equal(result.failures, undefined);
      assert.deepEqual(result.inputs, {
        name: "k".repeat(64),
        orgId: "org-quiet-forest-27188409",
        projectId: "winter-boat-25988145",
        rotationTrigger: "2025-q1",
      });
    });

    it("fails an empty name, asking for a descriptive one", async () => {
      for (const name of ["", "   ", undefined]) {
        const failure = only(await keyFailures({ name }));
        assert.equal(failure.property, name === undefined ? "" : "name");
        assert.match(failure.reason, /name is required: give the key a descriptive name \(1-64 characters\)/);
      }
    });

    it("fails a name over 64 characters, saying how long it is and to shorten it", async () => {
      const failure = only(await keyFailures({ name: "k".repeat(65) }));
      assert.equal(failure.property, "name");
      assert.match(failure.reason, /name is 65 characters; the API accepts at most 64: shorten it/);
    });

    it("fails projectId without orgId, saying to add orgId (or drop projectId)", async () => {
      const failure = only(await keyFailures({ name: "scoped", projectId: "winter-boat-25988145" }));
      assert.equal(failure.property, "projectId");
      assert.match(failure.reason, /add orgId/);
      assert.match(failure.reason, /remove projectId for a personal key/);
    });

    it("fails an empty orgId, projectId or rotationTrigger, saying to remove it or give a value", async () => {
      for (const property of ["orgId", "rotationTrigger"]) {
        const failure = only(await keyFailures({ name: "k", [property]: "" }));
        assert.equal(failure.property, property);
        assert.match(
          failure.reason,
          new RegExp(`${property} must be a non-empty string( or a number)? when set`),
        );
      }
      const failures = await keyFailures({ name: "k", orgId: "org-x", projectId: "" });
      assert.deepEqual(
        failures.map((f) => f.property),
        ["projectId"],
      );
    });

    it("lets values not known yet (preview) through", async () => {
      const result = await apiKeyProvider.check!(
        {} as ApiKeyInputs,
        {
          name: UNKNOWN,
          orgId: UNKNOWN,
          projectId: UNKNOWN,
        } as ApiKeyInputs,
      );
      assert.equal(result.failures, undefined);
    });
  });

  describe("Branch", () => {
    it("accepts a valid branch", async () => {
      assert.deepEqual(
        await branchFailures({
          name: "b".repeat(256),
          parentId: "br-damp-glitter-adqd4hk5",
          endpoints: [{ type: "read_write" }, { type: "read_only" }, { type: "read_only" }],
          timeouts: { create: 60, delete: 30 },
        }),
        [],
      );
    });

    it("fails a missing projectId", async () => {
      const failure = only(await branchFailures({ projectId: "" }));
      assert.equal(failure.property, "projectId");
      assert.match(failure.reason, /projectId is required: the id of the project to branch in/);
    });

    it("fails an empty name, saying to omit it for a generated name", async () => {
      const failure = only(await branchFailures({ name: " " }));
      assert.equal(failure.property, "name");
      assert.match(failure.reason, /omit it for a generated name/);
    });

    it("fails a name over 256 characters, saying to shorten it", async () => {
      const failure = only(await branchFailures({ name: "b".repeat(257) }));
      assert.equal(failure.property, "name");
      assert.match(failure.reason, /name is 257 characters; the API accepts at most 256: shorten it/);
    });

    it("fails two read_write endpoints, saying to keep one and make the others read_only", async () => {
      const failure = only(
        await branchFailures({ endpoints: [{ type: "read_write" }, { type: "read_write" }] }),
      );
      assert.equal(failure.property, "endpoints");
      assert.match(
        failure.reason,
        /only one read_write endpoint, 2 were given: keep one and make the others read_only/,
      );
    });

    it("fails an unknown endpoint type, naming it, its position and the accepted types", async () => {
      const failure = only(
        await branchFailures({ endpoints: [{ type: "read_only" }, { type: "read_many" }] }),
      );
      assert.equal(failure.property, "");
      assert.match(
        failure.reason,
        /^endpoints\[1\]\.type: type must be one of read_only, read_write, not "read_many"$/,
      );
    });

    it("fails endpoints that are not a list, saying what was given instead", async () => {
      const failure = only(await branchFailures({ endpoints: { type: "read_write" } }));
      assert.equal(failure.property, "endpoints");
      assert.equal(failure.reason, "endpoints must be a list, not an object");
    });

    it("fails a value of the wrong type naming the input and the type it takes", async () => {
      const failure = only(await branchFailures({ projectId: 12345 }));
      assert.equal(failure.property, "projectId");
      assert.equal(failure.reason, "projectId must be a string, not the number 12345");
      const nested = only(await branchFailures({ timeouts: { create: "60" } }));
      assert.deepEqual(nested, {
        property: "",
        reason: 'timeouts.create must be a number, not the string "60"',
      });
      const missing = only(await branchFailures({ projectId: undefined }));
      assert.equal(missing.property, "");
      assert.match(missing.reason, /^projectId is required/);
    });

    it("fails a timeout that is not a positive number of seconds", async () => {
      const failure = only(await branchFailures({ timeouts: { delete: -5 } }));
      assert.equal(failure.property, "");
      assert.match(failure.reason, /^timeouts\.delete: timeouts are positive numbers of seconds/);
    });

    it("lets values not known yet (preview) through, a whole endpoint included", async () => {
      assert.deepEqual(
        await branchFailures({
          projectId: UNKNOWN,
          name: UNKNOWN,
          endpoints: [UNKNOWN, { type: UNKNOWN }],
          timeouts: { create: UNKNOWN },
        }),
        [],
      );
    });
  });

  describe("Role and Database", () => {
    const on = { projectId: "hidden-river-50598307", branchId: "br-damp-glitter-adqd4hk5", ownerName: "app" };

    it("fails a name over 63 bytes on either, as Postgres and the API refuse it", async () => {
      const name = "é".repeat(32);
      const role = await roleProvider.check!({} as RoleInputs, { ...on, name } as unknown as RoleInputs);
      assert.deepEqual(role.failures, [
        { property: "name", reason: "name is 64 bytes; Postgres role names are at most 63: shorten it" },
      ]);
      const database = await databaseProvider.check!({} as DatabaseInputs, { ...on, name } as DatabaseInputs);
      assert.deepEqual(database.failures, [
        { property: "name", reason: "name is 64 bytes; Postgres database names are at most 63: shorten it" },
      ]);
    });

    it("fails a missing branchId on either, saying which branch to give", async () => {
      for (const [provider, noun] of [
        [roleProvider, "role"],
        [databaseProvider, "database"],
      ] as const) {
        const result = await provider.check!({} as never, { ...on, branchId: "" } as never);
        assert.deepEqual(result.failures, [
          { property: "branchId", reason: `branchId is required: the branch the ${noun} is on (br-...)` },
        ]);
      }
    });
  });
});
