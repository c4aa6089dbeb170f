import assert from "node:assert/strict";
import sinon from "sinon";
import { DEMO, type RunningEmulator } from "../../../emulator";
import { createClient } from "../../../provider/client";
import {
  type BranchInputs,
  type BranchOutputs,
  branchProvider,
  type MaskingRule,
} from "../../../provider/resources/public/branch";
import { PROVIDER_TEXT, projectIdle, useEmulator } from "./harness";

// The Branch suites' set-up and inputs: a branch made out of band, the provider's steps, and the
// anonymized Branch's masking rules.

/**
 * Creates a branch of the demo project with a read_write compute out of band (as the console would)
 * and returns its id once its operations ended.
 */
export async function demoBranch(emulator: RunningEmulator, name: string): Promise<string> {
  const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
  const made = await client.createBranch(DEMO.projectId, {
    branch: { name, parent_id: DEMO.branchId },
    endpoints: [{ type: "read_write" }],
  });
  await projectIdle(emulator, DEMO.projectId);
  return made.branch.id;
}

/**
 * A Branch made and changed through its provider as the engine does it: `create`, and `update`
 * after a diff that must plan the change in place. `inputs` turns a test's values into inputs.
 */
export function branchSteps(inputs: (values: Partial<BranchInputs>) => BranchInputs) {
  return {
    async create(values: Partial<BranchInputs>) {
      const made = await branchProvider.create(inputs(values));
      return { id: made.id, outs: made.outs as BranchOutputs };
    },
    async update(id: string, olds: BranchOutputs, values: Partial<BranchInputs>) {
      const news = inputs(values);
      const diff = await branchProvider.diff?.(id, olds, news);
      if (diff?.replaces?.length)
        throw new Error(`expected an in-place change, the diff replaces ${diff.replaces}`);
      return (await branchProvider.update?.(id, olds, news))?.outs as BranchOutputs;
    },
  };
}

/** Branch inputs as the engine passes them: in the demo project, with the serialized provider alongside. */
export function branchInputs(values: Partial<BranchInputs> = {}): BranchInputs {
  return { projectId: DEMO.projectId, ...values, __provider: PROVIDER_TEXT } as BranchInputs;
}

/** The inputs `check` gives the Branch resource `resource` of a program (its create key included). */
export async function checkedBranch(resource: string, values: Partial<BranchInputs>): Promise<BranchInputs> {
  const owner = `urn:pulumi:dev::app::pulumi-nodejs:dynamic/clouddb:Branch::${resource}`;
  const news = { ...branchInputs(values), __owner: owner } as BranchInputs;
  const result = await branchProvider.check!({} as BranchInputs, news);
  assert.deepEqual(result.failures ?? [], []);
  return result.inputs as BranchInputs;
}

/**
 * The set-up of the restore suites: one emulator; `client` calls the API with the demo user's key,
 * `liveBranches` lists the branches not deleted, `posts` counts the POSTs on a route that succeeded.
 */
export function useRestoreSuite() {
  const harness = useEmulator();
  return {
    harness,
    client: () => createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url }),
    liveBranches: () =>
      harness.emulator.control.dumpState().branches.filter((b) => b.deleted_at_ms === undefined),
    posts: (route: string) =>
      harness.emulator.control.requests({ route }).filter((r) => r.method === "POST" && r.status < 300)
        .length,
  };
}

/**
 * The set-up of the Branch suites: one emulator, with sinon, operation scripts and faults reset
 * after each test. `checked` makes inputs as `check` does for a resource not in the state, with its
 * URN; `create` makes a branch through the provider; `branchState` reads a branch from the
 * emulator's state and `operationStatus` an operation's status.
 */
export function useBranchSuite() {
  const harness = useEmulator();
  afterEach(() => {
    sinon.restore();
    harness.emulator.control.clearOperationScripts();
    harness.emulator.control.clearFaults();
  });
  return {
    harness,
    checked: (values: Partial<BranchInputs>, resource: string) => checkedBranch(resource, values),
    async create(values: Partial<BranchInputs> = {}) {
      const made = await branchProvider.create(branchInputs(values));
      assert.ok(made.outs);
      return { id: made.id, outs: made.outs };
    },
    branchState(id: string) {
      const branch = harness.emulator.control.dumpState().branches.find((b) => b.id === id);
      assert.ok(branch, `branch ${id} is in the emulator's state`);
      return branch;
    },
    operationStatus(id: string): string | undefined {
      return harness.emulator.control.dumpState().operations.find((op) => op.id === id)?.status;
    },
  };
}

/** A masking rule of the anonymized Branch suites: the demo database's users' emails, faked. */
export const EMAIL_RULE: MaskingRule = {
  databaseName: "neondb",
  tableName: "users",
  columnName: "email",
  maskingFunction: "anon.fake_email()",
};

/** A masking rule of the anonymized Branch suites: the demo database's users' names, one fixed value. */
export const NAME_RULE: MaskingRule = {
  databaseName: "neondb",
  schemaName: "public",
  tableName: "users",
  columnName: "name",
  maskingValue: "someone",
};

/** Inputs of an anonymized Branch in the demo project, as the engine passes them. */
export function anonymizedInputs(values: Partial<BranchInputs> = {}): BranchInputs {
  return branchInputs({ initSource: "anonymized", ...values });
}
