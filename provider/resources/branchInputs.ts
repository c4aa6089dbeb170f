/**
 * A Branch's inputs as the provider checks them: the zod schema (the rules the inputs take alone and
 * together), checked at compile time to infer exactly the declared `BranchInputs`.
 */
import { z } from "zod";
import type { ENDPOINT_TYPES } from "../client/schemas";
import { ExpiresAtInput, TtlInput } from "./expiry";
import {
  adoptInput,
  DeleteProtectionInput,
  GeneratedNameInput,
  idInput,
  optionalText,
  optionalTrigger,
  requiredId,
  TimeoutsInput,
} from "./inputs/common";
import { COMPUTE_INPUTS, COMPUTE_SETTINGS, EndpointTypeInput, withComputeRange } from "./inputs/compute";
import { lsnInput, pastTimestampInput } from "./inputs/history";
import type { Same } from "./lifecycle/define";
import { type BranchInputs, type EndpointType, INIT_SOURCE } from "./public/branch";

/** The sources a branch starts from, as the API names them. */
export const INIT_SOURCES = INIT_SOURCE.enum;
const EndpointInput = z.object({ type: EndpointTypeInput });

/** Where a restore takes the branch's data from: exactly one of a snapshot, a time, an LSN. */
const RestoreInput = z
  .object({
    snapshotId: idInput(
      "restore.snapshotId",
      "snapshot",
      "the snapshot to restore from (snap-...)",
    ).optional(),
    timestamp: pastTimestampInput("restore.timestamp", "give a point in the branch's past to restore"),
    lsn: lsnInput("restore.lsn"),
    preserveUnderName: optionalText("restore.preserveUnderName"),
  })
  .refine(
    (r) => [r.snapshotId, r.timestamp, r.lsn].filter((v) => v !== undefined).length === 1,
    "restore takes exactly one of snapshotId, timestamp or lsn: what the branch's data is restored from",
  )
  .optional();

/** A masked column: where it is, and one of a masking function or a literal value. */
const MaskingRuleInput = z
  .object({
    databaseName: z
      .string({ error: "maskingRules[].databaseName names the database holding the table" })
      .min(1),
    schemaName: optionalText("maskingRules[].schemaName"),
    tableName: z.string({ error: "maskingRules[].tableName names the table" }).min(1),
    columnName: z.string({ error: "maskingRules[].columnName names the column masked" }).min(1),
    maskingFunction: optionalText("maskingRules[].maskingFunction"),
    maskingValue: optionalText("maskingRules[].maskingValue"),
  })
  .refine(
    (rule) => (rule.maskingFunction === undefined) !== (rule.maskingValue === undefined),
    "a masking rule takes exactly one of maskingFunction (such as anon.fake_email()) or maskingValue (a literal)",
  );

/**
 * Inputs as the provider sees them. The compute settings are those of the branch's endpoints, with
 * an Endpoint's rules.
 */
export const BranchInputsSchema = withComputeRange(
  z.object({
    projectId: requiredId("projectId", "the id of the project to branch in"),
    name: GeneratedNameInput,
    parentId: idInput(
      "parentId",
      "branch",
      "a branch id (br-...); omit it to branch from the default branch",
    ).optional(),
    endpoints: z
      .array(EndpointInput, { error: 'endpoints must be a list such as [{ type: "read_write" }]' })
      .superRefine((endpoints, ctx) => {
        const readWrite = endpoints.filter((ep) => ep.type === "read_write").length;
        if (readWrite > 1) {
          ctx.addIssue({
            code: "custom",
            message: `a branch can have only one read_write endpoint, ${readWrite} were given: keep one and make the others read_only`,
          });
        }
      })
      .optional(),
    initSource: z.enum(INIT_SOURCES, { error: `initSource is one of ${INIT_SOURCES.join(", ")}` }).optional(),
    protected: z.boolean({ error: "protected must be true or false" }).optional(),
    expiresAt: ExpiresAtInput,
    ttl: TtlInput,
    parentTimestamp: pastTimestampInput("parentTimestamp", "give a point in the parent's past"),
    parentLsn: lsnInput("parentLsn"),
    ...COMPUTE_INPUTS,
    maskingRules: z
      .array(MaskingRuleInput, { error: "maskingRules must be a list of masking rules" })
      .optional(),
    anonymizeTrigger: optionalTrigger("anonymizeTrigger"),
    resetTrigger: optionalTrigger("resetTrigger"),
    restore: RestoreInput,
    pullRequest: optionalTrigger("pullRequest"),
    adoptExisting: adoptInput("branch"),
    deleteProtection: DeleteProtectionInput,
    timeouts: TimeoutsInput,
  }),
).superRefine((inputs, ctx) => {
  const both = (a: keyof typeof inputs, b: keyof typeof inputs, why: string) => {
    if (inputs[a] !== undefined && inputs[b] !== undefined) {
      ctx.addIssue({ code: "custom", path: [b], message: `give either ${a} or ${b}, not both: ${why}` });
    }
  };
  both("expiresAt", "ttl", "both set when the branch expires");
  both("parentTimestamp", "parentLsn", "both pick the point in the parent's history to branch from");
  const setting = COMPUTE_SETTINGS.find((key) => inputs[key] !== undefined);
  const noEndpoints =
    Array.isArray(inputs.endpoints) && inputs.endpoints.length === 0
      ? true
      : inputs.endpoints === undefined && inputs.adoptExisting === undefined;
  if (setting !== undefined && noEndpoints) {
    ctx.addIssue({
      code: "custom",
      path: [setting],
      message: `${setting} sets the branch's compute, and the branch has none: add endpoints: [{ type: "read_write" }] or remove ${setting}`,
    });
  }
  for (const key of ["maskingRules", "anonymizeTrigger"] as const) {
    if (inputs[key] !== undefined && inputs.initSource !== "anonymized") {
      ctx.addIssue({
        code: "custom",
        path: [key],
        message: `${key} is for an anonymized branch: set initSource: "anonymized" (which replaces the branch) or remove ${key}`,
      });
    }
  }
  // A branch made anonymized with no rule would be a full copy of its parent's data said masked.
  if (inputs.initSource === "anonymized" && (inputs.maskingRules ?? []).length === 0) {
    ctx.addIssue({
      code: "custom",
      path: ["maskingRules"],
      message:
        'initSource: "anonymized" masks the parent\'s data by maskingRules, and none is given: the branch would be ' +
        "an unmasked copy of its parent's data. Add maskingRules (a rule per column of personal data: databaseName, " +
        'tableName, columnName and maskingFunction or maskingValue), or use initSource: "parent-data" for a plain copy',
    });
  }
  if (inputs.resetTrigger !== undefined && inputs.initSource === "schema-only") {
    ctx.addIssue({
      code: "custom",
      path: ["resetTrigger"],
      message:
        "resetTrigger resets a branch from its parent's data, and a schema-only branch has no parent to reset from: remove resetTrigger (or replace the branch to start again)",
    });
  }
});

// The schema validates exactly the public inputs and types.
true satisfies Same<z.infer<typeof BranchInputsSchema>, BranchInputs>;
true satisfies Same<(typeof ENDPOINT_TYPES)[number], EndpointType>;
