/**
 * The registry of resource kinds: every declared kind, once. Whatever must know every kind derives
 * its list from this one (the plugin's type tokens, the package schema and SDKs, the docs' pages,
 * the class, drift and checklist tests); `tests/provider/kinds.test.ts` fails when a kind is
 * declared in `public/` and missing here, or missing from something that must know it. Like the
 * rest of `public/`, it loads neither zod nor the client.
 */
import { API_KEY } from "./apiKey";
import { BACKUP_SCHEDULE } from "./backupSchedule";
import { BRANCH } from "./branch";
import { BRANCH_AUTH } from "./branchAuth";
import { BUCKET } from "./bucket";
import { CREDENTIAL } from "./credential";
import { CUSTOM_DOMAIN } from "./customDomain";
import { DATA_API } from "./dataApi";
import { DATABASE } from "./database";
import type { ResourceDeclaration } from "./declare";
import { ENDPOINT } from "./endpoint";
import { FUNCTION } from "./function";
import { JWKS } from "./jwks";
import { ORGANIZATION_INVITATION } from "./organizationInvitation";
import { ORGANIZATION_MEMBER } from "./organizationMember";
import { ORGANIZATION_SPENDING_LIMIT } from "./organizationSpendingLimit";
import { PROJECT } from "./project";
import { PROJECT_MEMBER } from "./projectMember";
import { PROJECT_PERMISSION } from "./projectPermission";
import { PROJECT_VPC_ENDPOINT } from "./projectVpcEndpoint";
import { ROLE } from "./role";
import { SNAPSHOT } from "./snapshot";
import { TRIGGER } from "./trigger";
import { VPC_ENDPOINT } from "./vpcEndpoint";

/** Every declared resource kind. */
export const DECLARATIONS: readonly ResourceDeclaration[] = [
  API_KEY,
  BRANCH,
  PROJECT,
  ENDPOINT,
  ROLE,
  DATABASE,
  PROJECT_PERMISSION,
  SNAPSHOT,
  BACKUP_SCHEDULE,
  VPC_ENDPOINT,
  PROJECT_VPC_ENDPOINT,
  ORGANIZATION_SPENDING_LIMIT,
  ORGANIZATION_MEMBER,
  ORGANIZATION_INVITATION,
  PROJECT_MEMBER,
  BUCKET,
  FUNCTION,
  TRIGGER,
  CREDENTIAL,
  CUSTOM_DOMAIN,
  DATA_API,
  JWKS,
  BRANCH_AUTH,
];
