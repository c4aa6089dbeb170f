// The provider methods of this kind, which the kinds' table (`../methodsTable.ts`) serves.
import { databaseDefinition } from "../database";
import { providerMethods } from "../lifecycle/methods";

export const { configure, check, diff, create, read, update, remove } = providerMethods(databaseDefinition);
