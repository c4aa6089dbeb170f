/**
 * What every data-source function takes besides its arguments. Apart from `credentials.ts`, which
 * builds the client on the first call, so the data sources' declarations never reach the client's.
 */

import type * as pulumi from "@pulumi/pulumi";

/** A function's arguments with each value an Input, for its Output form. */
export type OutputArgs<A> = { [K in keyof A]: pulumi.Input<A[K]> };

/** Options every data-source function takes. */
export interface DataSourceOptions {
  /** API key to use instead of `clouddb:apiKey` / `CLOUDDB_API_KEY`. */
  apiKey?: string;
  /** API URL to use instead of `clouddb:apiUrl` / `CLOUDDB_API_URL`. */
  apiUrl?: string;
}
