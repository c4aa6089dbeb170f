// The module a Project provider stored in a stack's state requires by name: keep its path stable.
import { providerMethods } from "./lifecycle/methods";
import { projectDefinition } from "./project";

export const { configure, check, diff, create, read, update, remove } = providerMethods(projectDefinition);
