/**
 * The registry of resource kinds: every declared kind, once, with its methods module. Whatever must
 * know every kind derives its list from this one (the plugin's type tokens and its methods, the
 * table a stack's state reaches a kind through, the package's exports, schema and SDKs, the docs'
 * pages and lists, the class, drift and checklist tests); `tests/provider/kinds.test.ts` fails when
 * a kind is declared in `public/` and missing here, or missing from something that must know it.
 * Like the rest of `public/`, it loads neither zod nor the client: a kind's methods module is
 * required on its first call, by a static `require` so the plugin's bundle holds it.
 */
import type { ResourceMethods } from "../lifecycle/lazyProvider";
import type { CommonInputs, CommonState } from "../lifecycle/state";
import { API_KEY } from "./apiKey";
import { BACKUP_SCHEDULE } from "./backupSchedule";
import { BRANCH } from "./branch";
import { BRANCH_AUTH } from "./branchAuth";
import { BUCKET } from "./bucket";
import { BUCKET_OBJECT } from "./bucketObject";
import { CREDENTIAL } from "./credential";
import { CUSTOM_DOMAIN } from "./customDomain";
import { DATA_API } from "./dataApi";
import { DATABASE } from "./database";
import type { ResourceDeclaration } from "./declare";
import { ENDPOINT } from "./endpoint";
import { FUNCTION } from "./function";
import { JWKS } from "./jwks";
import { loadOnce } from "./loadOnce";
import { MIGRATIONS } from "./migrations";
import { ORGANIZATION_INVITATION } from "./organizationInvitation";
import { ORGANIZATION_MEMBER } from "./organizationMember";
import { ORGANIZATION_SPENDING_LIMIT } from "./organizationSpendingLimit";
import { PROJECT } from "./project";
import { PROJECT_MEMBER } from "./projectMember";
import { PROJECT_PERMISSION } from "./projectPermission";
import { PROJECT_VPC_ENDPOINT } from "./projectVpcEndpoint";
import { ROLE } from "./role";
import { ROLE_GRANTS } from "./roleGrants";
import { SNAPSHOT } from "./snapshot";
import { TRIGGER } from "./trigger";
import { VPC_ENDPOINT } from "./vpcEndpoint";

/** What a kind's methods module exports: the provider's methods as plain functions. */
export type Methods = ResourceMethods<CommonInputs, CommonState>;

/** A kind of the registry: its declaration and its methods module, loaded when first called. */
export interface Kind {
  readonly declaration: ResourceDeclaration;
  methods(): Methods;
}

/** A kind whose methods module is required on its first call and then kept. */
const kind = (declaration: ResourceDeclaration, load: () => Methods): Kind => ({
  declaration,
  methods: loadOnce(load),
});

/** Every resource kind: its declaration, and the module of its provider methods. */
export const KINDS: readonly Kind[] = [
  kind(API_KEY, () => require("../methods/apiKey")),
  kind(BRANCH, () => require("../methods/branch")),
  kind(PROJECT, () => require("../methods/project")),
  kind(ENDPOINT, () => require("../methods/endpoint")),
  kind(ROLE, () => require("../methods/role")),
  kind(DATABASE, () => require("../methods/database")),
  kind(PROJECT_PERMISSION, () => require("../projectPermission")),
  kind(SNAPSHOT, () => require("../snapshot")),
  kind(BACKUP_SCHEDULE, () => require("../backupSchedule")),
  kind(VPC_ENDPOINT, () => require("../vpcEndpoint")),
  kind(PROJECT_VPC_ENDPOINT, () => require("../projectVpcEndpoint")),
  kind(ORGANIZATION_SPENDING_LIMIT, () => require("../organizationSpendingLimit")),
  kind(ORGANIZATION_MEMBER, () => require("../organizationMember")),
  kind(ORGANIZATION_INVITATION, () => require("../organizationInvitation")),
  kind(PROJECT_MEMBER, () => require("../projectMember")),
  kind(BUCKET, () => require("../bucket")),
  kind(BUCKET_OBJECT, () => require("../bucketObject")),
  kind(FUNCTION, () => require("../function")),
  kind(TRIGGER, () => require("../trigger")),
  kind(CREDENTIAL, () => require("../credential")),
  kind(CUSTOM_DOMAIN, () => require("../customDomain")),
  kind(DATA_API, () => require("../dataApi")),
  kind(JWKS, () => require("../jwks")),
  kind(BRANCH_AUTH, () => require("../branchAuth")),
  kind(ROLE_GRANTS, () => require("../roleGrants")),
  kind(MIGRATIONS, () => require("../migrations")),
];

/** Every declared resource kind. */
export const DECLARATIONS: readonly ResourceDeclaration[] = KINDS.map((k) => k.declaration);
