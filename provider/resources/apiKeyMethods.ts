// The module an ApiKey provider stored in a stack's state requires by name: keep its path stable.
import { apiKeyDefinition } from "./apiKey";
import { providerMethods } from "./lifecycle/methods";

export const { configure, check, diff, create, read, update, remove } = providerMethods(apiKeyDefinition);
