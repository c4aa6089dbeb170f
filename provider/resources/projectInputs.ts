/**
 * A Project's inputs as the provider checks them: the zod schema, checked at compile time to infer
 * exactly the declared `ProjectInputs`.
 */
import { z } from "zod";
import {
  adoptInput,
  DeleteProtectionInput,
  GeneratedNameInput,
  optionalFlag,
  optionalId,
  optionalText,
  TimeoutsInput,
} from "./inputs/common";
import { COMPUTE_INPUTS, withComputeRange } from "./inputs/compute";
import { AllowedIpInput } from "./inputs/network";
import { MaintenanceWindowInput, ProjectQuotaInput } from "./inputs/projectSettings";
import { regionInput } from "./inputs/regions";
import type { Same } from "./lifecycle/define";
import { AUDIT_LOG_LEVEL, type ProjectInputs } from "./public/project";

const PG_VERSIONS = "pgVersion must be a Postgres major version the service runs: 14, 15, 16, 17 or 18";
const RETENTION_MAX = 2_592_000;
const AUDIT_LEVELS = `auditLogLevel must be one of ${AUDIT_LOG_LEVEL.enum.join(", ")}`;
const RETENTION = `historyRetentionSeconds must be a whole number of seconds from 0 to ${RETENTION_MAX} (30 days)`;

/** Compute settings the project gives every compute created without its own. */
export const DefaultEndpointSettingsInput = withComputeRange(z.object(COMPUTE_INPUTS));

/** Inputs as the provider sees them. */
export const ProjectInputsSchema = z.object({
  name: GeneratedNameInput,
  regionId: regionInput("regionId", "omit it for the service's default").optional(),
  pgVersion: z
    .number({ error: PG_VERSIONS })
    .int(PG_VERSIONS)
    .min(14, PG_VERSIONS)
    .max(18, PG_VERSIONS)
    .optional(),
  orgId: optionalId("orgId must be an organization id (org-...); omit it for a project of the key's owner"),
  historyRetentionSeconds: z
    .number({ error: RETENTION })
    .int(RETENTION)
    .min(0, RETENTION)
    .max(RETENTION_MAX, RETENTION)
    .optional(),
  defaultEndpointSettings: DefaultEndpointSettingsInput.optional(),
  allowedIps: z.array(AllowedIpInput, { error: "allowedIps must be a list of strings" }).optional(),
  allowedIpsProtectedBranchesOnly: optionalFlag("allowedIpsProtectedBranchesOnly"),
  blockPublicConnections: optionalFlag("blockPublicConnections"),
  blockVpcConnections: optionalFlag("blockVpcConnections"),
  enableLogicalReplication: optionalFlag("enableLogicalReplication"),
  hipaa: optionalFlag("hipaa"),
  auditLogLevel: z
    .string({ error: AUDIT_LEVELS })
    .refine((level) => AUDIT_LOG_LEVEL.enum.some((known) => known === level), {
      error: (issue) => `${AUDIT_LEVELS}, not ${JSON.stringify(issue.input)}`,
    })
    .optional(),
  maintenanceWindow: MaintenanceWindowInput.optional(),
  quota: ProjectQuotaInput.optional(),
  defaultBranchName: optionalText("defaultBranchName"),
  defaultRoleName: optionalText("defaultRoleName"),
  defaultDatabaseName: optionalText("defaultDatabaseName"),
  protectDefaultBranch: optionalFlag("protectDefaultBranch"),
  adoptExisting: adoptInput("project"),
  deleteProtection: DeleteProtectionInput,
  timeouts: TimeoutsInput,
});

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof ProjectInputsSchema>, ProjectInputs>;
