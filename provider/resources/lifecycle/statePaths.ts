/**
 * How stacks made before the state named kinds (0.0.x) reach a kind: the code in their state passes
 * the path of the kind's methods module to `lazyProvider`, which finds the kind by that path here,
 * wherever its module is now. No import: the program's process loads this too.
 */

/**
 * The kinds' methods modules as stacks made before the state named kinds (0.0.x) require them,
 * relative to the package's `lib/provider/`: their state code passes one of these to
 * `lazyProvider`, which finds the kind here, wherever its module is now. Frozen: never edit a row.
 */
export const STATE_PATHS_0_0: Readonly<Record<string, string>> = {
  "resources/apiKeyMethods": "ApiKey",
  "resources/backupSchedule": "BackupSchedule",
  "resources/branchMethods": "Branch",
  "resources/bucket": "Bucket",
  "resources/credential": "Credential",
  "resources/customDomain": "CustomDomain",
  "resources/dataApi": "DataApi",
  "resources/databaseMethods": "Database",
  "resources/endpointMethods": "Endpoint",
  "resources/function": "Function",
  "resources/jwks": "Jwks",
  "resources/organizationInvitation": "OrganizationInvitation",
  "resources/organizationMember": "OrganizationMember",
  "resources/organizationSpendingLimit": "OrganizationSpendingLimit",
  "resources/projectMethods": "Project",
  "resources/projectMember": "ProjectMember",
  "resources/branchAuth": "BranchAuth",
  "resources/projectPermission": "ProjectPermission",
  "resources/projectVpcEndpoint": "ProjectVpcEndpoint",
  "resources/roleMethods": "Role",
  "resources/snapshot": "Snapshot",
  "resources/trigger": "Trigger",
  "resources/vpcEndpoint": "VpcEndpoint",
};

/**
 * The kind type a state's module specifier (`pulumi-clouddb/lib/provider/resources/branchMethods`,
 * or an absolute path in a checkout, with or without `.js`) names, if it is one of `STATE_PATHS_0_0`.
 */
export function kindOfStatePath(ref: string): string | undefined {
  const normalized = ref.replace(/\\/g, "/").replace(/\.(js|ts)$/, "");
  const at = normalized.lastIndexOf("/resources/");
  if (at < 0) return undefined;
  return STATE_PATHS_0_0[normalized.slice(at + 1)];
}
