// The provider methods of this kind, which the kinds' table (`../methodsTable.ts`) serves.
import { branchDefinition } from "../branch";
import { providerMethods } from "../lifecycle/methods";

export const { configure, check, diff, create, read, update, remove } = providerMethods(branchDefinition);
