// The module a Database provider stored in a stack's state requires by name: keep its path stable.
import { databaseDefinition } from "./database";
import { providerMethods } from "./lifecycle/methods";

export const { configure, check, diff, create, read, update, remove } = providerMethods(databaseDefinition);
