/** The package's name in type tokens and config keys. */
export const PACKAGE = "clouddb";

/** The token of a resource, type or function named `name`: `clouddb:index:Branch`. */
export const token = (name: string): string => `${PACKAGE}:index:${name}`;
