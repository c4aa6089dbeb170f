/**
 * Checks at `check` time that the stack's configuration can do what a planned create or update needs:
 * a key is set, the API URL is well formed and reachable, the API accepts the key, and the key can use
 * the project or organization the inputs name. `check` is the only method Pulumi calls for a planned
 * create during `pulumi preview` (a dynamic provider gets no preview `create`), so without this those
 * mistakes would pass the preview and fail the `up`.
 *
 * For an object only an organization's administrators can delete (an organization or project-scoped
 * API key, docs/api-rules.md §6), it also checks that the key is the personal key of one of those
 * administrators: a member's key could create it and never revoke it, so every later
 * `pulumi destroy` or replacement would fail and leave the old object live.
 *
 * One cheap read per credential and per project or organization, shared by every resource of the
 * process (Pulumi runs one provider process per command): `GET /projects/{id}`,
 * `GET /organizations/{id}`, or one project of `GET /projects` when the inputs name neither; for
 * the administrator check, `GET /users/me` and `GET /organizations/{id}/members`. An unchanged
 * resource is not checked, so a preview with no changes makes no request.
 *
 * It also makes the reads a kind asks for (its `finds`, values made by the kind: `resources/finds.ts`
 * has the shared ones), where what the inputs name would fail the `up`: a region the service does
 * not offer, say, or a point of an anonymized branch's history not known to be masked. This module
 * holds no kind's name: it runs each read once per process and credential, skips one whose ids are
 * not known yet, and explains a read that fails.
 */
import { isDeepStrictEqual } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { CloudDbClient } from "../../client";
import { resolveConfig } from "../../client/config";
import {
  isApiError,
  isConfigError,
  isForbidden,
  isNetworkError,
  isNotFound,
  isUnauthorized,
  isUsageError,
} from "../../client/errors";
import { keyFingerprint } from "../../client/registry";
import { clientFromSettings, providerSettings } from "../host/settings";
import { declaredInputs, isUnknown } from "./check";
import { forgetDeclared } from "./declared";
import { type CommonInputs, compact } from "./define";
import type { Find, Finding, Subject } from "./find";

export type { Find, Finding, Subject };

/** What a resource needs of the account, read from its inputs. */
interface Needs {
  projectId?: string;
  orgId?: string;
  /** The organization whose administrators alone can delete the object (see `adminOf` in `define.ts`). */
  adminOf?: string;
  /** Objects the inputs name that must exist for the `up` to work. */
  finds?: readonly Find[];
}

const MEMO = Symbol.for("pulumi-clouddb.preflight");
type Holder = { [MEMO]?: Map<string, Promise<Finding>> };

function memo(): Map<string, Promise<Finding>> {
  const holder = globalThis as Holder;
  holder[MEMO] ??= new Map();
  return holder[MEMO];
}

/**
 * Forgets every check made in this process, and the objects its runs declared (tests that change the
 * API under the same URL and key).
 */
export function forgetPreflight(): void {
  memo().clear();
  forgetDeclared();
}

/**
 * `result` (a check's outcome) with the configuration findings added, when `news` plans a create
 * (`olds` is empty) or an update (the declared inputs changed) and the inputs are otherwise valid.
 */
export async function preflighted<I extends CommonInputs>(
  schema: z.ZodObject<z.ZodRawShape>,
  olds: I,
  result: pulumi.dynamic.CheckResult<I>,
  adminOf?: (inputs: I) => string | undefined,
  finds?: (inputs: I) => readonly (Find | undefined)[],
): Promise<pulumi.dynamic.CheckResult<I>> {
  if ((result.failures?.length ?? 0) > 0 || result.inputs === undefined) return result;
  const planned =
    Object.keys(olds).length === 0 ||
    !isDeepStrictEqual(declaredInputs(schema, olds), declaredInputs(schema, result.inputs));
  if (!planned) return result;
  const admin = adminOf?.(result.inputs);
  const needs = { ...needsOf(result.inputs), finds: (finds?.(result.inputs) ?? []).filter(known) };
  const findings = await preflight(
    admin === undefined || isUnknown(admin) ? needs : { ...needs, adminOf: admin },
  );
  return findings.length === 0 ? result : { inputs: result.inputs, failures: findings };
}

/** Whether every id of `find` is known (a value still unknown at preview is not looked for). */
function known(find: Find | undefined): find is Find {
  return find?.ids.every((id) => id === undefined || (id !== "" && !isUnknown(id))) === true;
}

/** The project and organization `inputs` name, when known (a value still unknown at preview is skipped). */
function needsOf(inputs: object): Needs {
  const record = inputs as Record<string, unknown>;
  const known = (key: string) => {
    const value = record[key];
    return typeof value === "string" && value !== "" && !isUnknown(value) ? value : undefined;
  };
  return compact({ projectId: known("projectId"), orgId: known("orgId") });
}

/**
 * The configuration findings for a resource needing `needs` (empty when all is well). Each distinct
 * read is made once per process; later resources share its answer.
 */
export async function preflight(needs: Needs): Promise<pulumi.dynamic.CheckFailure[]> {
  const settings = providerSettings();
  let apiUrl: string;
  let credential: string;
  try {
    const config = resolveConfig({ apiKey: settings.apiKey, apiUrl: settings.apiUrl });
    apiUrl = config.apiUrl;
    credential = `${config.apiUrl}#${keyFingerprint(config.apiKey)}`;
  } catch (err) {
    if (isConfigError(err)) return [{ property: "", reason: err.message }];
    throw err;
  }
  const reads: Promise<Finding>[] = [];
  const { projectId, orgId } = needs;
  if (projectId !== undefined) {
    reads.push(
      once(
        `${credential} project ${projectId}`,
        apiUrl,
        (client) => client.getProject(projectId).then(() => undefined),
        { property: "projectId", what: `project ${projectId}`, fix: PROJECT_FIX },
      ),
    );
  }
  if (orgId !== undefined) {
    reads.push(
      once(
        `${credential} org ${orgId}`,
        apiUrl,
        (client) => client.getOrganization(orgId).then(() => undefined),
        {
          property: "orgId",
          what: `organization ${orgId}`,
          fix: "check orgId, or use a key of a member of that organization",
        },
      ),
    );
  }
  if (reads.length === 0) {
    reads.push(
      once(credential, apiUrl, firstProject, { property: "", what: "this account's projects", fix: KEY_FIX }),
    );
  }
  for (const find of needs.finds ?? [])
    reads.push(once(`${credential} ${find.key}`, apiUrl, find.read, find.subject));
  const findings = (await Promise.all(reads)).filter((f) => f !== undefined);
  const { adminOf } = needs;
  // Who may delete matters only once the key can use the organization at all.
  if (findings.length === 0 && adminOf !== undefined) {
    const finding = await once(`${credential} admin ${adminOf}`, apiUrl, (c) => adminFinding(c, adminOf), {
      property: "orgId",
      what: `the members of organization ${adminOf}`,
      fix: ADMIN_FIX,
    });
    if (finding !== undefined) findings.push(finding);
  }
  return [...new Map(findings.map((f) => [f.reason, f])).values()];
}

/** The finding of `read` (what it returns, or its failure explained), made once per `key` in the process. */
function once(
  key: string,
  apiUrl: string,
  read: (client: CloudDbClient) => Promise<Finding>,
  subject: Subject,
): Promise<Finding> {
  const known = memo();
  let finding = known.get(key);
  if (finding === undefined) {
    finding = read(clientFromSettings()).then(
      (found) => found,
      (err: unknown) => explain(err, apiUrl, subject),
    );
    known.set(key, finding);
  }
  return finding;
}

/** Reads one project of the account: enough to learn whether the API takes the key. */
async function firstProject(client: CloudDbClient): Promise<undefined> {
  for await (const _ of client.listProjects({ limit: 1, maxItems: 1 })) break;
}

/**
 * A finding unless the key is the personal key of an administrator of `orgId` (the user's role is in
 * the organization's member list). Only a personal key may create organization and project-scoped
 * keys, so a key `GET /users/me` refuses (403: an organization's or a project's own key) gets one too.
 */
async function adminFinding(client: CloudDbClient, orgId: string): Promise<Finding> {
  const caller = await callerRole(client, orgId);
  if (caller === undefined) {
    return {
      property: "orgId",
      reason: `organization and project-scoped keys are created with a user's personal API key, and this is not one. ${ADMIN_FIX}`,
    };
  }
  if (caller.role === "admin") return undefined;
  const who = describeRole(caller.role);
  return {
    property: "orgId",
    reason:
      `this API key belongs to ${who} of organization ${orgId}, and only the organization's admins can revoke ` +
      "its organization and project-scoped keys: a key made with it could never be revoked by this stack, so " +
      "`pulumi destroy` and every replacement of the key would fail with 403 and leave the old key active. " +
      ADMIN_FIX,
  };
}

/**
 * The role in `orgId` of the user whose personal key this is (`role` undefined: not a member); undefined
 * for a key `GET /users/me` refuses (an organization's or a project's own key).
 */
export async function callerRole(
  client: CloudDbClient,
  orgId: string,
): Promise<{ role: string | undefined } | undefined> {
  const me = await userOfKey(client);
  if (me === undefined) return undefined;
  return { role: (await client.listOrgMembers(orgId)).find((m) => m.member.user_id === me.id)?.member.role };
}

/** The user whose personal key this is; undefined for a key `GET /users/me` refuses (an organization's or a project's own key). */
export function userOfKey(client: CloudDbClient): Promise<{ id: string } | undefined> {
  return client.getCurrentUser().catch((err: unknown) => {
    if (isForbidden(err)) return undefined;
    throw err;
  });
}

/** How a finding names the key's user by their role. */
export function describeRole(role: string | undefined): string {
  return role === undefined ? "a user who is not a member" : `a user whose role is ${JSON.stringify(role)}`;
}

export const BRANCH_FIX = "check projectId and branchId, or use a key that can use the project";
export const PROJECT_FIX =
  "check projectId, or use a key that can use the project (a key of its owner or organization, or one scoped to it)";
const ADMIN_FIX =
  "Use the personal API key of an admin of the organization for this stack " +
  "(`pulumi config set --secret clouddb:apiKey <key>`, or CLOUDDB_API_KEY).";
export const GOVERNANCE_FIX =
  "Use the personal API key of an admin of the organization, or the organization's API key, for this stack " +
  "(`pulumi config set --secret clouddb:apiKey <key>`, or CLOUDDB_API_KEY).";
export const KEY_FIX =
  "set a valid key with `pulumi config set --secret clouddb:apiKey <key>` (or the CLOUDDB_API_KEY environment variable)";
const URL_FIX =
  "check clouddb:apiUrl (`pulumi config set clouddb:apiUrl <url>`) or CLOUDDB_API_URL, and that this machine can reach it";

/** A finding for a read that failed; undefined for failures that say nothing about the configuration (5xx, 429). */
function explain(err: unknown, apiUrl: string, { property, what, fix }: Subject): Finding {
  if (isConfigError(err)) return { property: "", reason: err.message };
  // An argument no request can carry (an id that is not one) says nothing about the configuration.
  if (isUsageError(err)) return undefined;
  if (!isApiError(err)) throw err;
  const said = (status: string) =>
    `(${status}${err.requestId === undefined ? "" : `, request id ${err.requestId}`})`;
  if (isNetworkError(err)) {
    return {
      property: "",
      reason: `the API at ${apiUrl} could not be reached ${said(err.networkCode)}: ${URL_FIX}`,
    };
  }
  if (isUnauthorized(err)) {
    return { property: "", reason: `the API refused the API key ${said("401 Unauthorized")}: ${KEY_FIX}` };
  }
  if (isNotFound(err) && property !== "") {
    return { property, reason: `${what} was not found with this API key ${said("404 Not Found")}: ${fix}` };
  }
  if (isForbidden(err)) {
    return { property, reason: `this API key may not use ${what} ${said("403 Forbidden")}: ${fix}` };
  }
  return undefined;
}

export const PROJECT_ROLES_FIX =
  "Use the personal API key of an admin of the project's organization, or the organization's API key, for this " +
  "stack (`pulumi config set --secret clouddb:apiKey <key>`, or CLOUDDB_API_KEY).";
