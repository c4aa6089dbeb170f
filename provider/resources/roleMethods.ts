// The module a Role provider stored in a stack's state requires by name: keep its path stable.
import { providerMethods } from "./lifecycle/methods";
import { roleDefinition } from "./role";

export const { configure, check, diff, create, read, update, remove } = providerMethods(roleDefinition);
