// The provider methods of this kind, which the kinds' table (`../methodsTable.ts`) serves.
import { providerMethods } from "../lifecycle/methods";
import { roleDefinition } from "../role";

export const { configure, check, diff, create, read, update, remove } = providerMethods(roleDefinition);
