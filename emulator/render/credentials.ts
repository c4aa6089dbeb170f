import type {
  CreateCredentialResponse,
  CredentialMeta,
  CredentialSecret,
  RotateCredentialResponse,
} from "@neon/sdk/raw";
import { isoSeconds } from "../ids";
import type { BranchRecord, CredentialRecord } from "../records";

// A branch's service credentials as the API shows them: the secrets only in the answers that
// hand them out (issue, reveal, rotate), never in a listing.

/** The first 12 hex characters of the id, safe to log. */
const shortId = (c: CredentialRecord) => c.token_id.replace(/^nak_live_/, "").slice(0, 12);

/** What every answer about a credential says of it. */
function identity(branch: BranchRecord, c: CredentialRecord) {
  return {
    token_id: c.token_id,
    token_id_short: shortId(c),
    ...(c.name === undefined ? {} : { name: c.name }),
    scopes: c.scopes,
    branch_id: branch.id,
    principal_type: "user" as const,
    created_at: isoSeconds(c.created_at_ms),
  };
}

/** A credential without its secrets, as a listing shows it. */
export function renderCredentialMeta(branch: BranchRecord, c: CredentialRecord): CredentialMeta {
  return {
    ...identity(branch, c),
    ...(c.last_used_at_ms === undefined ? {} : { last_used_at: isoSeconds(c.last_used_at_ms) }),
    ...(c.revoked_at_ms === undefined ? {} : { revoked_at: isoSeconds(c.revoked_at_ms) }),
  };
}

/** A credential with its current secrets: the answer to its issuance and to a rotation. */
export function renderCredentialIssued(
  branch: BranchRecord,
  c: CredentialRecord,
): CreateCredentialResponse & RotateCredentialResponse {
  return { ...identity(branch, c), api_token: c.api_token, s3_secret_access_key: c.s3_secret_access_key };
}

/** A credential's live secrets, as `reveal` returns them. */
export function renderCredentialSecret(c: CredentialRecord): CredentialSecret {
  return { token_id: c.token_id, api_token: c.api_token, s3_secret_access_key: c.s3_secret_access_key };
}
