/**
 * Each kind's methods module, by type name: the one table through which both the provider plugin
 * (by type token) and a dynamic resource's code in a stack's state (by type name, see
 * `provider/dynamic.ts`) reach a kind's lifecycle. The modules are named by static `require`s, each
 * run on the kind's first call, so a bundler sees every module and nothing loads before it is used.
 * A methods module may move: only this table names its file.
 */
import type { ResourceMethods } from "./lifecycle/lazyProvider";
import type { CommonInputs, CommonState } from "./lifecycle/state";

export type Methods = ResourceMethods<CommonInputs, CommonState>;

export const METHODS: Readonly<Record<string, () => Methods>> = {
  ApiKey: () => require("./methods/apiKey"),
  BackupSchedule: () => require("./backupSchedule"),
  Branch: () => require("./methods/branch"),
  Bucket: () => require("./bucket"),
  Credential: () => require("./credential"),
  CustomDomain: () => require("./customDomain"),
  DataApi: () => require("./dataApi"),
  Database: () => require("./methods/database"),
  Endpoint: () => require("./methods/endpoint"),
  Function: () => require("./function"),
  Jwks: () => require("./jwks"),
  OrganizationInvitation: () => require("./organizationInvitation"),
  OrganizationMember: () => require("./organizationMember"),
  OrganizationSpendingLimit: () => require("./organizationSpendingLimit"),
  Project: () => require("./methods/project"),
  ProjectMember: () => require("./projectMember"),
  BranchAuth: () => require("./branchAuth"),
  ProjectPermission: () => require("./projectPermission"),
  ProjectVpcEndpoint: () => require("./projectVpcEndpoint"),
  Role: () => require("./methods/role"),
  Snapshot: () => require("./snapshot"),
  Trigger: () => require("./trigger"),
  VpcEndpoint: () => require("./vpcEndpoint"),
};

/** The methods of the kind named `type`; throws naming the kinds there are. */
export function methodsOf(type: string): Methods {
  const methods = METHODS[type];
  if (methods === undefined)
    throw new Error(
      `no resource kind ${type} in this version of pulumi-clouddb (it has ${Object.keys(METHODS).join(", ")}): ` +
        "install the version the stack was made with, or a later one",
    );
  return methods();
}
