/**
 * The resource kinds the plugin serves, by type token: `clouddb:index:<type>` for each declaration.
 * A kind's methods come from the table a dynamic resource's state code reaches too
 * (`resources/methodsTable.ts`), so the plugin and the dynamic provider run the same lifecycle and
 * the same definition. The plugin prints its port before loading any client code.
 */
import { METHODS, type Methods } from "../resources/methodsTable";
import type { ResourceDeclaration } from "../resources/public/declare";
import { DECLARATIONS } from "../resources/public/kinds";
import { PACKAGE, token } from "./token";

export { DECLARATIONS, PACKAGE, token };

/** The type token of a declared kind. */
export const tokenOf = (declaration: ResourceDeclaration): string => token(declaration.type);

/** A kind the plugin serves: its declaration and the methods module the dynamic resource loads too. */
export interface Kind {
  readonly declaration: ResourceDeclaration;
  methods(): Methods;
}

export { METHODS };

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
