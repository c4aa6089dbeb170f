/** Anonymized branches: their masking rules and the state of their anonymization. */
import { z } from "zod";
import { DOCUMENTED, maybe } from "./common";

/** A column of a table of a database masked on an anonymized branch, by a function or a literal. */
export const MaskingRuleSchema = z.looseObject({
  database_name: z.string(),
  schema_name: z.string(),
  table_name: z.string(),
  column_name: z.string(),
  masking_function: maybe(z.string()),
  masking_value: maybe(z.string()),
});
DOCUMENTED.add(MaskingRuleSchema, { as: "MaskingRule" });
/** A masking rule. */
export type MaskingRule = z.infer<typeof MaskingRuleSchema>;

/** `GET` / `PATCH /projects/{project_id}/branches/{branch_id}/masking_rules` (200). */
export const MaskingRulesResponseSchema = z.looseObject({ masking_rules: z.array(MaskingRuleSchema) });
DOCUMENTED.add(MaskingRulesResponseSchema, { as: "MaskingRulesResponse" });

/**
 * Where an anonymized branch's anonymization is: `created`, `initialized`, `initialization_error`,
 * `anonymizing`, `anonymized` or `error` (other strings accepted), with the service's message.
 */
export const AnonymizedStatusSchema = z.looseObject({
  project_id: z.string(),
  branch_id: z.string(),
  state: z.string(),
  status_message: maybe(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  failed_at: maybe(z.string()),
  last_run: maybe(z.looseObject({ started_at: maybe(z.string()), completed_at: maybe(z.string()) })),
});
DOCUMENTED.add(AnonymizedStatusSchema, { as: "AnonymizedBranchStatusResponse" });
/** An anonymized branch's status. */
export type AnonymizedStatus = z.infer<typeof AnonymizedStatusSchema>;
