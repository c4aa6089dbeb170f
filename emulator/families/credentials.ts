import { randomBytes } from "node:crypto";
import type { EmulatorContext } from "../context";
import { notFound } from "../errors";
import type { BranchRecord, CredentialRecord, CredentialScope } from "../records";
import { holdOnBranch } from "./branch-data";

// A branch's scoped service credentials (docs/api-rules.md §25). Each has an id that doubles as the
// S3 access key id, a bearer token and an S3 secret. The service keeps the live secrets so that
// `reveal` can return them again; `rotate` replaces both secrets in place (the old ones stop
// working at once) and keeps the id; a revocation is soft, so the credential stays listed with
// its `revoked_at`.

declare module "../records" {
  interface BranchData {
    /** The scoped service credentials issued on the branch, revoked ones included. */
    credentials?: CredentialRecord[];
  }
}

// Credentials are issued to a branch: a child starts without any; a branch preserved by a restore keeps a copy.
holdOnBranch({ field: "credentials", toChild: false, preserved: true });

/** What the credential functions use of the emulator: its store, its clock and persistence. */
export type CredentialContext = Pick<EmulatorContext, "store" | "clock" | "changed">;

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** The branch's credentials, created on first use. */
function credentialsOf(branch: BranchRecord): CredentialRecord[] {
  branch.credentials ??= [];
  return branch.credentials;
}

/** New secrets: a bearer token and the `nsk_live_<64 hex>` S3 secret. */
function newSecrets(): Pick<CredentialRecord, "api_token" | "s3_secret_access_key"> {
  return { api_token: `ncr_live_${hex(32)}`, s3_secret_access_key: `nsk_live_${hex(32)}` };
}

/** Issues a credential on the branch; its secrets are in the record returned. */
export function issueCredential(
  ctx: CredentialContext,
  branch: BranchRecord,
  fields: { name?: string; scopes: CredentialScope[] },
): CredentialRecord {
  const credential: CredentialRecord = {
    token_id: `nak_live_${hex(16)}`,
    ...(fields.name === undefined ? {} : { name: fields.name }),
    scopes: [...new Set(fields.scopes)],
    ...newSecrets(),
    created_at_ms: ctx.clock.now(),
  };
  credentialsOf(branch).push(credential);
  ctx.changed();
  return credential;
}

/** The branch's live (unrevoked) credential `tokenId`; 404 for an unknown or revoked one. */
export function liveCredential(branch: BranchRecord, tokenId: string): CredentialRecord {
  const credential = branch.credentials?.find((c) => c.token_id === tokenId);
  if (!credential || credential.revoked_at_ms !== undefined)
    throw notFound(
      `credential ${tokenId} not found on branch ${branch.id}: it was never issued there or was revoked`,
    );
  return credential;
}

/** Revokes the credential `tokenId`; revoking one already revoked does nothing. 404 when never issued. */
export function revokeCredential(ctx: CredentialContext, branch: BranchRecord, tokenId: string): void {
  const credential = branch.credentials?.find((c) => c.token_id === tokenId);
  if (!credential) throw notFound(`credential ${tokenId} not found on branch ${branch.id}`);
  if (credential.revoked_at_ms !== undefined) return;
  credential.revoked_at_ms = ctx.clock.now();
  ctx.changed();
}

/** Replaces the credential's secrets in place; the previous ones stop working now. */
export function rotateCredential(ctx: CredentialContext, credential: CredentialRecord): CredentialRecord {
  Object.assign(credential, newSecrets());
  ctx.changed();
  return credential;
}

/**
 * The live credential whose bearer token is `token` and that holds `scope`, with the branch it is
 * anchored to; undefined when no live credential of a live branch has that token and scope. This
 * is how a data plane (storage, functions, the AI gateway) accepts a credential, and records its use.
 */
export function credentialFor(
  ctx: CredentialContext,
  token: string,
  scope: CredentialScope,
): { branch: BranchRecord; credential: CredentialRecord } | undefined {
  for (const branch of ctx.store.branches.values()) {
    if (branch.deleted_at_ms !== undefined) continue;
    const credential = branch.credentials?.find(
      (c) => c.api_token === token && c.revoked_at_ms === undefined,
    );
    if (!credential) continue;
    if (!credential.scopes.includes(scope)) return undefined;
    credential.last_used_at_ms = ctx.clock.now();
    ctx.changed();
    return { branch, credential };
  }
  return undefined;
}
