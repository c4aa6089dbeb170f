// The module a Branch provider stored in a stack's state requires by name: keep its path stable.
import { branchDefinition } from "./branch";
import { providerMethods } from "./lifecycle/methods";

export const { configure, check, diff, create, read, update, remove } = providerMethods(branchDefinition);
