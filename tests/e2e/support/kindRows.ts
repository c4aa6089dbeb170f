// What the e2e tables with a row per kind share (killedCreateRows.ts, importedKindRows.ts): the
// demo account's ids, the routes the rows expect, the emulator's objects each row reads, and the
// runners' way of checking every row at once.
import * as assert from "node:assert/strict";
import type { UpResult } from "@pulumi/pulumi/automation";
import { DEMO, type RunningEmulator } from "../../../emulator";
import type { CredentialRecord } from "../../../emulator/records";
import { call } from "../../emulator/helpers";
import { changesOf, collect, type E2eStack, mutatingRequests } from "./stack";

export const P = DEMO.projectId;
export const B = DEMO.branchId;
export const ORG = DEMO.orgId;
export const ORG_PROJECT = DEMO.orgProjectId;
export const REGION = "aws-us-east-2";

export const AUTH_DOMAINS = "/projects/{project_id}/branches/{branch_id}/auth/domains";
export const CREATE_BUCKET = "POST /projects/{project_id}/branches/{branch_id}/buckets";
export const PRESIGN =
  "POST /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}/presign";
export const ISSUE = "POST /projects/{project_id}/branches/{branch_id}/credentials";
export const REVOKE = "DELETE /projects/{project_id}/branches/{branch_id}/credentials/{token_id}";
export const REGISTER = "POST /projects/{project_id}/branches/{branch_id}/custom-domains";
export const ENABLE = "POST /projects/{project_id}/branches/{branch_id}/data-api/{database_name}";
export const CHANGE_DATA_API = "PATCH /projects/{project_id}/branches/{branch_id}/data-api/{database_name}";
export const ADD_JWKS = "POST /projects/{project_id}/jwks";
export const DEPLOY = "POST /projects/{project_id}/branches/{branch_id}/functions/{slug}/deployments";
export const CREATE_TRIGGER = "POST /projects/{project_id}/branches/{branch_id}/triggers";
export const UPDATE_TRIGGER = "PATCH /projects/{project_id}/branches/{branch_id}/triggers/{trigger_id}";
export const LIMIT = "PUT /organizations/{org_id}/billing/spending_limit";
export const ASSIGN = "POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}";
export const RESTRICT = "POST /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}";

/** The demo branch, the organization and what of theirs the rows read, as the emulator holds them. */
export const branch = (emulator: RunningEmulator) =>
  emulator.control.dumpState().branches.find((b) => b.id === B);
export const organization = (emulator: RunningEmulator) =>
  emulator.control.dumpState().organizations.find((o) => o.id === ORG);
export const bucketsOf = (emulator: RunningEmulator) => branch(emulator)?.buckets ?? [];
export const credentials = (emulator: RunningEmulator): CredentialRecord[] =>
  branch(emulator)?.credentials ?? [];
export const liveCredentials = (emulator: RunningEmulator) =>
  credentials(emulator).filter((c) => c.revoked_at_ms === undefined);
export const credentialSecrets = (emulator: RunningEmulator) =>
  credentials(emulator).flatMap((c) => [c.api_token, c.s3_secret_access_key]);
export const domains = (emulator: RunningEmulator) =>
  (branch(emulator)?.custom_domains ?? []).map((d) => `${d.domain} -> ${d.entity_id}`);
export const dataApis = (emulator: RunningEmulator) => branch(emulator)?.data_apis ?? [];
export const keySets = (emulator: RunningEmulator) =>
  emulator.control.dumpState().projects.find((p) => p.id === P)?.jwks ?? [];
export const triggersOf = (emulator: RunningEmulator) => branch(emulator)?.triggers ?? [];
export const vpcEndpoints = (emulator: RunningEmulator) => organization(emulator)?.vpc_endpoints ?? [];
export const restrictions = (emulator: RunningEmulator) =>
  emulator.control.dumpState().projects.find((p) => p.id === ORG_PROJECT)?.vpc_restrictions ?? [];
export const projectRole = (emulator: RunningEmulator) =>
  emulator.control.dumpState().projects.find((p) => p.id === ORG_PROJECT)?.member_roles?.[DEMO.memberUserId];
/** What of a branch's Auth must never be shown: the given client secret and the Auth's keys. */
export function authSecrets(emulator: RunningEmulator, clientSecret: string): string[] {
  const auth = branch(emulator)?.auth;
  return [clientSecret, auth?.pub_client_key ?? "", auth?.secret_server_key ?? ""].filter(Boolean);
}

/** Uploads `text` as `bucket/key` through a presigned URL, as an app would; returns the URL's signature. */
export async function upload(
  emulator: RunningEmulator,
  bucket: string,
  key: string,
  text: string,
): Promise<string> {
  const signed = await call(
    emulator.url,
    "POST",
    `/projects/${P}/branches/${B}/buckets/${bucket}/objects/${encodeURIComponent(key)}/presign`,
    { key: DEMO.personalKey, body: { operation: "upload" } },
  );
  assert.equal(signed.status, 200, signed.text);
  assert.equal((await fetch(signed.body.url, { method: "PUT", body: text })).status, 200);
  return new URL(signed.body.url).searchParams.get("X-Signature") ?? "";
}

/** Resource changes an `up` reports, by kind of change. */
export type Changes = Partial<Record<"create" | "update" | "replace", number>>;

/** The changes of every row added up, as one `up` reports them. */
export function summed<R>(rows: readonly R[], changes: (row: R) => Changes): Changes {
  const total: Changes = {};
  for (const row of rows)
    for (const [change, count] of Object.entries(changes(row)) as [keyof Changes, number][])
      total[change] = (total[change] ?? 0) + count;
  return total;
}

/** A row of a table: its name and the routes of the requests its kind sends. */
interface RoutedRow {
  name: string;
  routes: readonly string[];
}

/**
 * Runs an `up` on a cleared request log and asserts that it reported the rows' changes added up
 * and sent no request that changes anything on a route no row names. Returns the up's result and
 * the mutating requests' routes by the row they belong to, in the order sent.
 */
export async function upByRow<R extends RoutedRow>(
  emulator: RunningEmulator,
  e2e: E2eStack,
  rows: readonly R[],
  expected: (row: R) => Changes,
): Promise<{ up: UpResult; sent: Map<R, string[]> }> {
  emulator.control.clearRequests();
  const up = await e2e.stack.up(collect(e2e.output));
  const { same: _same, ...changes } = changesOf(up);
  assert.deepEqual(changes, summed(rows, expected), e2e.output.join("\n"));
  const routes = mutatingRequests(emulator).map((r) => r.route);
  const unowned = routes.filter((route) => !rows.some((row) => row.routes.includes(route)));
  assert.deepEqual(unowned, [], "requests no row expects");
  return {
    up,
    sent: new Map(rows.map((row) => [row, routes.filter((route) => row.routes.includes(route))])),
  };
}

/** Runs `check` for every row and fails once, naming each row whose check failed and why. */
export async function eachRow<R extends { name: string }>(
  rows: readonly R[],
  what: string,
  check: (row: R) => unknown,
): Promise<void> {
  const failed: string[] = [];
  for (const row of rows) {
    try {
      await check(row);
    } catch (err) {
      failed.push(`${row.name}: ${(err as Error).message}`);
    }
  }
  assert.deepEqual(failed, [], `${what}:\n${failed.join("\n")}`);
}

/** Asserts that none of `secrets` is in the state file or in `output`, naming each by its first characters. */
export function assertNeverShown(secrets: Iterable<string>, state: string, output: string): void {
  for (const secret of secrets) {
    assert.ok(
      !state.includes(secret),
      `the state file holds a secret (${secret.slice(0, 4)}...) in the clear`,
    );
    assert.ok(!output.includes(secret), `the engine's output holds a secret (${secret.slice(0, 4)}...)`);
  }
}
