import type { EmulatorContext } from "../context";
import { newToken } from "../ids";
import type { KeyRecord } from "../records";
import type { Store } from "../state";

// API keys: personal, organization and project-scoped. Only a digest of the secret is kept;
// the secret itself is returned once, at creation.

/** What a new key is: everything but its id, digest and use. */
export type NewKey = Omit<KeyRecord, "id" | "token_hash" | "revoked" | "last_used_from_addr">;

/** Puts a key whose secret is `token` into the store; `id` defaults to the next free one. */
export function putKey(store: Store, fields: NewKey, token: string, id?: number): KeyRecord {
  return store.createKey(fields, token, id);
}

/** Creates a key with a new secret; returns the record and the secret. */
export function createKey(ctx: EmulatorContext, fields: NewKey): { key: KeyRecord; token: string } {
  const token = newToken();
  const key = putKey(ctx.store, fields, token);
  ctx.changed();
  return { key, token };
}

/** Revokes a key for good. */
export function revokeKey(ctx: EmulatorContext, key: KeyRecord): void {
  key.revoked = true;
  key.revoked_at_ms = ctx.clock.now();
  ctx.changed();
}
