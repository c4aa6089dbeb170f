import type {
  OrgApiKeyCreateResponse,
  OrgApiKeyRevokeResponse,
  OrgApiKeysListResponseItem,
} from "@neon/sdk/raw";
import { isoSeconds } from "../ids";
import type { KeyRecord } from "../records";
import type { Store } from "../state";

// API keys as the API shows them: created (the only answer with the secret), listed, revoked.

/** The creation response of a personal key (`POST /api_keys`); the only place the secret appears. */
export function renderKeyCreated(k: KeyRecord, token: string): OrgApiKeyCreateResponse {
  const out: OrgApiKeyCreateResponse = {
    id: k.id,
    key: token,
    name: k.name,
    created_at: isoSeconds(k.created_at_ms),
    created_by: k.user_id,
  };
  if (k.project_id !== undefined) out["project_id"] = k.project_id;
  return out;
}

/** A key in `GET /api_keys` or `GET /organizations/{org}/api_keys`. */
export function renderKeyListItem(k: KeyRecord, store: Store): OrgApiKeysListResponseItem {
  const user = store.users.get(k.user_id);
  const out: OrgApiKeysListResponseItem = {
    id: k.id,
    name: k.name,
    created_at: isoSeconds(k.created_at_ms),
    created_by: { id: k.user_id, name: user?.name ?? "", image: user?.image ?? "" },
    last_used_at: k.last_used_at_ms === undefined ? null : isoSeconds(k.last_used_at_ms),
    last_used_from_addr: k.last_used_from_addr,
  };
  if (k.project_id !== undefined) out["project_id"] = k.project_id;
  return out;
}

/** The revocation response. */
export function renderKeyRevoked(k: KeyRecord): OrgApiKeyRevokeResponse {
  const out: OrgApiKeyRevokeResponse = {
    id: k.id,
    name: k.name,
    created_at: isoSeconds(k.created_at_ms),
    created_by: k.user_id,
    last_used_at: k.last_used_at_ms === undefined ? null : isoSeconds(k.last_used_at_ms),
    last_used_from_addr: k.last_used_from_addr,
    revoked: true,
  };
  if (k.project_id !== undefined) out["project_id"] = k.project_id;
  return out;
}
