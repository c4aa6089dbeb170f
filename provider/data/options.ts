/**
 * What every data-source function takes besides its arguments. Apart from `credentials.ts`, which
 * builds the client on the first call, so the data sources' declarations never reach the client's.
 */

/** Options every data-source function takes. */
export interface DataSourceOptions {
  /** API key to use instead of `clouddb:apiKey` / `CLOUDDB_API_KEY`. */
  apiKey?: string;
  /** API URL to use instead of `clouddb:apiUrl` / `CLOUDDB_API_URL`. */
  apiUrl?: string;
}
