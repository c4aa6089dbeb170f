/**
 * The provider's configuration, declared: each `clouddb:<name>` setting a stack may set, with its
 * type and doc. The settings the provider reads and the package schema's `config` come from here.
 * Like the rest of `public/`, this module loads neither zod nor the client.
 */
import { declareConfig, NUMBER, STRING } from "./declare";
import type { SettingsOf } from "./shapes";

/** The `clouddb:` settings, declared. */
export const CONFIG = declareConfig({
  /** The API key the provider calls the API with (`pulumi config set --secret clouddb:apiKey <key>`); else `CLOUDDB_API_KEY`. */
  apiKey: { type: STRING, secret: true },
  /** The API's base URL, ending in `/api/v2`; else `CLOUDDB_API_URL`, else the service's. */
  apiUrl: { type: STRING },
  /** Default bound on waiting for a resource's operations, in seconds (a resource's `timeouts` wins); default 20 minutes. */
  operationTimeoutSeconds: { type: NUMBER },
  /** The Redis or Valkey server (`redis://` or `rediss://`) whose shared limiter every pipeline of the account uses; else `CLOUDDB_LIMITER_URL`, else none. */
  limiterUrl: { type: STRING },
  /** The budget name several keys share on the limiter server; else `CLOUDDB_LIMITER_ACCOUNT`, else each key its own. */
  limiterAccount: { type: STRING },
});

/** The settings as read from a stack: each optional. */
export type ConfigSettings = SettingsOf<typeof CONFIG>;
