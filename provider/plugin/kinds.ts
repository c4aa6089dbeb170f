/**
 * The resource kinds the plugin serves, by type token: `clouddb:index:<type>` for each declaration.
 * A kind's methods are the very module its dynamic resource loads (`declaration.methods`), so the
 * plugin and the dynamic provider run the same lifecycle and the same definition.
 */
import type { ResourceMethods } from "../resources/lifecycle/lazyProvider";
import type { CommonInputs, CommonState } from "../resources/lifecycle/state";
import { API_KEY } from "../resources/public/apiKey";
import { BACKUP_SCHEDULE } from "../resources/public/backupSchedule";
import { BRANCH } from "../resources/public/branch";
import { DATABASE } from "../resources/public/database";
import type { ResourceDeclaration } from "../resources/public/declare";
import { ENDPOINT } from "../resources/public/endpoint";
import { PROJECT } from "../resources/public/project";
import { PROJECT_PERMISSION } from "../resources/public/projectPermission";
import { PROJECT_VPC_ENDPOINT } from "../resources/public/projectVpcEndpoint";
import { ROLE } from "../resources/public/role";
import { SNAPSHOT } from "../resources/public/snapshot";
import { VPC_ENDPOINT } from "../resources/public/vpcEndpoint";

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
];

/** The package's name in type tokens and config keys. */
export const PACKAGE = "clouddb";

/** The token of a resource, type or function named `name`: `clouddb:index:Branch`. */
export const token = (name: string): string => `${PACKAGE}:index:${name}`;

/** The type token of a declared kind. */
export const tokenOf = (declaration: ResourceDeclaration): string => token(declaration.type);

/** A kind the plugin serves: its declaration and the methods module the dynamic resource loads too. */
export interface Kind {
  readonly declaration: ResourceDeclaration;
  methods(): ResourceMethods<CommonInputs, CommonState>;
}

const KINDS = new Map<string, Kind>(
  DECLARATIONS.map((declaration) => [
    tokenOf(declaration),
    { declaration, methods: () => require(declaration.methods) },
  ]),
);

/** The kind of `token`; throws naming the tokens served when there is none. */
export function kindOf(token: string): Kind {
  const kind = KINDS.get(token);
  if (kind === undefined) {
    throw new Error(
      `unknown resource type ${token}: this provider serves ${[...KINDS.keys()].join(", ")}; check the type token`,
    );
  }
  return kind;
}
