/**
 * The resource kinds the plugin serves, by type token: `clouddb:index:<type>` for each kind of the
 * registry (`resources/public/kinds.ts`), whose methods modules a dynamic resource's state code
 * reaches too, so the plugin and the dynamic provider run the same lifecycle and the same
 * definition. The plugin prints its port before loading any client code.
 */
import { METHODS } from "../resources/methodsTable";
import type { ResourceDeclaration } from "../resources/public/declare";
import { DECLARATIONS, KINDS, type Kind } from "../resources/public/kinds";
import { PACKAGE, token } from "./token";

export { DECLARATIONS, type Kind, METHODS, PACKAGE, token };

/** The type token of a declared kind. */
export const tokenOf = (declaration: ResourceDeclaration): string => token(declaration.type);

/** Each kind by its type token. */
const BY_TOKEN: ReadonlyMap<string, Kind> = new Map(KINDS.map((kind) => [tokenOf(kind.declaration), kind]));

/** The kind of `token`; throws naming the tokens served when there is none. */
export function kindOf(token: string): Kind {
  const kind = BY_TOKEN.get(token);
  if (kind === undefined) {
    throw new Error(
      `unknown resource type ${token}: this provider serves ${DECLARATIONS.map(tokenOf).join(", ")}; check the type token`,
    );
  }
  return kind;
}
