// The module an Endpoint provider stored in a stack's state requires by name: keep its path stable.
import { endpointDefinition } from "./endpoint";
import { providerMethods } from "./lifecycle/methods";

export const { configure, check, diff, create, read, update, remove } = providerMethods(endpointDefinition);
