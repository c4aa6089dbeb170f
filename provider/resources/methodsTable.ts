/**
 * Each kind's methods, by type name: the one table through which both the provider plugin (by type
 * token) and a dynamic resource's code in a stack's state (by type name, see `provider/dynamic.ts`)
 * reach a kind's lifecycle. It is the registry's (`public/kinds.ts`), which names each kind's
 * methods module once, so a methods module may move: only the registry names its file.
 */
import { KINDS, type Methods } from "./public/kinds";

export type { Methods };

/** Each kind's methods module by type name, loaded on the kind's first call. */
export const METHODS: Readonly<Record<string, () => Methods>> = Object.fromEntries(
  KINDS.map((kind) => [kind.declaration.type, kind.methods]),
);

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
