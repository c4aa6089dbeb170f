/**
 * The resource kinds the plugin serves, by type token: `clouddb:index:<type>` for each declaration.
 * A kind's methods are the very module its dynamic resource loads (`declaration.methods`), so the
 * plugin and the dynamic provider run the same lifecycle and the same definition. They are named
 * here by static `require`s, each run on the kind's first call: the plugin prints its port before
 * loading any client code, and a bundler sees every module the plugin can run (the plugin binary is
 * one bundled file, see tools/release/).
 */
import type { ResourceMethods } from "../resources/lifecycle/lazyProvider";
import type { CommonInputs, CommonState } from "../resources/lifecycle/state";
import type { ResourceDeclaration } from "../resources/public/declare";
import { DECLARATIONS } from "../resources/public/kinds";
import { PACKAGE, token } from "./token";

export { DECLARATIONS, PACKAGE, token };

/** The type token of a declared kind. */
export const tokenOf = (declaration: ResourceDeclaration): string => token(declaration.type);

/** A kind the plugin serves: its declaration and the methods module the dynamic resource loads too. */
export interface Kind {
  readonly declaration: ResourceDeclaration;
  methods(): ResourceMethods<CommonInputs, CommonState>;
}

type Methods = ResourceMethods<CommonInputs, CommonState>;

/** Each kind's methods module by type name: the module `declaration.methods` names (a test checks it). */
export const METHODS: Readonly<Record<string, () => Methods>> = {
  ApiKey: () => require("../resources/apiKeyMethods"),
  BackupSchedule: () => require("../resources/backupSchedule"),
  Branch: () => require("../resources/branchMethods"),
  Bucket: () => require("../resources/bucket"),
  Credential: () => require("../resources/credential"),
  CustomDomain: () => require("../resources/customDomain"),
  DataApi: () => require("../resources/dataApi"),
  Database: () => require("../resources/databaseMethods"),
  Endpoint: () => require("../resources/endpointMethods"),
  Function: () => require("../resources/function"),
  Jwks: () => require("../resources/jwks"),
  OrganizationInvitation: () => require("../resources/organizationInvitation"),
  OrganizationMember: () => require("../resources/organizationMember"),
  OrganizationSpendingLimit: () => require("../resources/organizationSpendingLimit"),
  Project: () => require("../resources/projectMethods"),
  ProjectMember: () => require("../resources/projectMember"),
  BranchAuth: () => require("../resources/branchAuth"),
  ProjectPermission: () => require("../resources/projectPermission"),
  ProjectVpcEndpoint: () => require("../resources/projectVpcEndpoint"),
  Role: () => require("../resources/roleMethods"),
  Snapshot: () => require("../resources/snapshot"),
  Trigger: () => require("../resources/trigger"),
  VpcEndpoint: () => require("../resources/vpcEndpoint"),
};

/**
 * The kind of `token`; throws naming the tokens served when there is none, or, for a declared kind
 * the table lacks, what to add (`tests/provider/kinds.test.ts` says so first).
 */
export function kindOf(token: string): Kind {
  const declaration = DECLARATIONS.find((d) => tokenOf(d) === token);
  if (declaration === undefined) {
    throw new Error(
      `unknown resource type ${token}: this provider serves ${DECLARATIONS.map(tokenOf).join(", ")}; check the type token`,
    );
  }
  const methods = METHODS[declaration.type];
  if (methods === undefined) {
    throw new Error(
      `the kind ${declaration.type} has no methods module in the plugin's table: add it to METHODS`,
    );
  }
  return { declaration, methods };
}
