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
 * It also checks what the inputs name that the key can read, where a missing one would fail the `up`
 * (a resource's `finds`): a region the service offers (`GET /regions`), a snapshot to restore from (the
 * project's snapshots), and for a change only an organization's administrators make (a member's role,
 * an invitation, the spending limit) that the key is theirs or the organization's own; for a member's
 * project role, that the key is not one that can never set it (a project-scoped key, a plain member's);
 * for a move to another organization that the key may give the project away (an admin of the old
 * one); it says when a project to adopt is a deleted one the create recovers; it finds an object on
 * a branch the inputs name (a trigger's bucket, a domain's function) unless this run declares it. A
 * kind may bring a rule of its own that reads the service (a `rule` find): a point of an anonymized
 * branch's history not known to be masked, say.
 * Not a VPC endpoint a restriction names: a program assigns it in the same run
 * with a literal id (the engine passes a planned create's inputs on as its outputs at preview).
 */
import { isDeepStrictEqual } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import {
  type CloudDbClient,
  isApiError,
  isConfigError,
  isForbidden,
  isNetworkError,
  isNotFound,
  isUnauthorized,
  isUsageError,
  keyFingerprint,
  resolveConfig,
} from "../../client";
import { hostLine } from "../host/progress";
import { clientFromSettings, providerSettings } from "../host/settings";
import { declaredInputs, isUnknown } from "./check";
import { forgetDeclared, isDeclared } from "./declared";
import { type CommonInputs, compact } from "./define";

/** What a resource needs of the account, read from its inputs. */
interface Needs {
  projectId?: string;
  orgId?: string;
  /** The organization whose administrators alone can delete the object (see `adminOf` in `define.ts`). */
  adminOf?: string;
  /** Objects the inputs name that must exist for the `up` to work. */
  finds?: readonly Find[];
}

/** An object the inputs name, to find at preview; `property` is the input that names it. */
export type Find =
  | { kind: "region"; property: string; regionId: string; orgId?: string | undefined }
  | { kind: "snapshot"; property: string; projectId: string; snapshotId: string }
  /** A change only the organization's administrators make: `what` names it (`set its spending limit`). */
  | { kind: "governance"; property: string; orgId: string; what: string }
  /** A member's role on the project, which its organization's or the project's admins set. */
  | { kind: "projectRoles"; property: string; projectId: string }
  | { kind: "transfer"; property: string; fromOrgId: string; toOrgId: string; fix: string }
  | { kind: "recoverable"; property: string; projectId: string; orgId?: string | undefined }
  /**
   * An object on a branch the inputs name (a trigger's bucket, a domain's function): there when this
   * run declares it (`declared.ts`) or `exists` reads it; `fix` says what to do when it is neither.
   */
  | {
      kind: "onBranch";
      property: string;
      noun: string;
      projectId: string;
      branchId: string;
      name: string;
      exists: (client: CloudDbClient) => Promise<boolean>;
      fix: string;
    }
  /**
   * A rule of the kind's own that reads the service: `read` gives the reason to refuse, or undefined;
   * `key` names the read (made once per process), `about` what it reads (for a failed read's message).
   */
  | {
      kind: "rule";
      property: string;
      key: string;
      about: string;
      read: (client: CloudDbClient) => Promise<string | undefined>;
    };

/** A failed check: the input it is about (none for the credential itself) and what to do. */
type Finding = pulumi.dynamic.CheckFailure | undefined;

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
  return (
    find !== undefined &&
    Object.values(find).every((value) => value === undefined || (value !== "" && !isUnknown(value)))
  );
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
  for (const find of needs.finds ?? []) reads.push(findAt(find, credential, apiUrl));
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

/** The input a read is about, how messages name its object, and what to do when the key cannot use it. */
interface Subject {
  property: string;
  what: string;
  fix: string;
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

/** The finding of one {@link Find}: undefined when the object is there (or the read says nothing). */
function findAt(find: Find, credential: string, apiUrl: string): Promise<Finding> {
  const { property } = find;
  const missing = (reason: string): Finding => ({ property, reason });
  switch (find.kind) {
    case "region":
      return once(
        `${credential} region ${find.orgId ?? ""} ${find.regionId}`,
        apiUrl,
        async (client) => {
          const regions = (await client.listRegions({ orgId: find.orgId })).map((r) => r.region_id);
          if (regions.includes(find.regionId)) return undefined;
          return missing(
            `${property}: the service offers no region ${find.regionId}${find.orgId === undefined ? "" : ` to organization ${find.orgId}`}: ` +
              `use one of ${regions.join(", ")} (getRegions lists them)`,
          );
        },
        { property, what: "the regions", fix: KEY_FIX },
      );
    case "snapshot":
      return once(
        `${credential} snapshot ${find.projectId} ${find.snapshotId}`,
        apiUrl,
        async (client) => {
          const snapshots = await client.listSnapshots(find.projectId);
          if (snapshots.some((s) => s.id === find.snapshotId)) return undefined;
          return missing(
            `${property}: project ${find.projectId} has no snapshot ${find.snapshotId}: a branch is restored from a ` +
              "snapshot of its own project; check the id (`neonctl snapshots list` lists them), or take one with a Snapshot " +
              "and pass its snapshotId output",
          );
        },
        { property: "projectId", what: `project ${find.projectId}`, fix: PROJECT_FIX },
      );
    case "governance":
      return once(
        `${credential} governs ${find.orgId}`,
        apiUrl,
        (client) => governanceFinding(client, find),
        { property, what: `the members of organization ${find.orgId}`, fix: GOVERNANCE_FIX },
      );
    case "projectRoles":
      return once(
        `${credential} project roles ${find.projectId}`,
        apiUrl,
        (client) => projectRolesFinding(client, find),
        { property, what: `the members of project ${find.projectId}`, fix: PROJECT_ROLES_FIX },
      );
    case "recoverable":
      return once(
        `${credential} recoverable ${find.orgId ?? ""} ${find.projectId}`,
        apiUrl,
        (client) => recoverableNote(client, find).catch(() => undefined),
        { property, what: `project ${find.projectId}`, fix: PROJECT_FIX },
      );
    case "onBranch": {
      const { noun, projectId, branchId, name, fix } = find;
      if (isDeclared(noun, projectId, branchId, name)) return Promise.resolve(undefined);
      return once(
        `${credential} ${noun} ${projectId} ${branchId} ${name}`,
        apiUrl,
        async (client) =>
          (await find.exists(client))
            ? undefined
            : missing(
                `${property}: branch ${branchId} of project ${projectId} has no ${noun} ${JSON.stringify(name)}, ` +
                  `and this program declares none: ${fix}`,
              ),
        { property: "branchId", what: `branch ${branchId} of project ${projectId}`, fix: BRANCH_FIX },
      );
    }
    case "rule":
      return once(
        `${credential} rule ${find.key}`,
        apiUrl,
        async (client) => {
          const reason = await find.read(client);
          return reason === undefined ? undefined : missing(reason);
        },
        { property, what: find.about, fix: PROJECT_FIX },
      );
    case "transfer":
      return once(
        `${credential} transfer ${find.fromOrgId} ${find.toOrgId}`,
        apiUrl,
        (client) => transferFinding(client, find),
        { property, what: `the members of organization ${find.fromOrgId}`, fix: find.fix },
      );
  }
}

/**
 * Says at preview that adopting project `projectId` recovers it, when it is deleted and still
 * recoverable (listed with `recoverable=true` in its organization, or the key's own account). Never
 * a finding: a project the listing misses is still recovered by the create, when it can be.
 */
async function recoverableNote(
  client: CloudDbClient,
  { projectId, orgId }: Extract<Find, { kind: "recoverable" }>,
): Promise<Finding> {
  const live = await client.getProject(projectId).then(
    () => true,
    (err: unknown) => {
      if (isNotFound(err)) return false;
      throw err;
    },
  );
  if (live) return undefined;
  for await (const project of client.listProjects({ recoverable: true, orgId, search: projectId })) {
    if (project.id !== projectId) continue;
    hostLine(
      `project ${projectId}: it was deleted and can still be recovered (for 7 days after its deletion): ` +
        "the create recovers it, with its branches and computes, and adopts it",
    );
    break;
  }
  return undefined;
}

/**
 * A finding unless the key can move a project out of `fromOrgId` into `toOrgId` on its own: only a
 * user's personal key acts in two organizations, and only an admin gives a project away (the
 * organization read of `orgId` already checks the key can use the new one).
 */
async function transferFinding(
  client: CloudDbClient,
  find: Extract<Find, { kind: "transfer" }>,
): Promise<Finding> {
  const { property, fromOrgId, toOrgId, fix } = find;
  const move = `moving the project from organization ${fromOrgId} to organization ${toOrgId}`;
  const me = await client.getCurrentUser().catch((err: unknown) => {
    if (isForbidden(err)) return undefined;
    throw err;
  });
  if (me === undefined) {
    return {
      property,
      reason:
        `${move} takes a user's personal API key, and this is an organization's or a project's own key, ` +
        `which acts in one organization only. ${fix}`,
    };
  }
  const role = (await client.listOrgMembers(fromOrgId)).find((m) => m.member.user_id === me.id)?.member.role;
  if (role === "admin") return undefined;
  const who =
    role === undefined ? "a user who is not a member" : `a user whose role is ${JSON.stringify(role)}`;
  return {
    property,
    reason: `${move} takes an admin of organization ${fromOrgId}, and this API key belongs to ${who} of it. ${fix}`,
  };
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
async function callerRole(
  client: CloudDbClient,
  orgId: string,
): Promise<{ role: string | undefined } | undefined> {
  const me = await client.getCurrentUser().catch((err: unknown) => {
    if (isForbidden(err)) return undefined;
    throw err;
  });
  if (me === undefined) return undefined;
  return { role: (await client.listOrgMembers(orgId)).find((m) => m.member.user_id === me.id)?.member.role };
}

/** How a finding names the key's user by their role. */
function describeRole(role: string | undefined): string {
  return role === undefined ? "a user who is not a member" : `a user whose role is ${JSON.stringify(role)}`;
}

/**
 * A finding unless the key may govern the organization: the organization's own key, or an
 * administrator's personal key. A key `GET /users/me` refuses is not a personal key, and one that
 * reads the organization (checked first, by `orgId`) and is not personal is the organization's own
 * key, since a project-scoped key cannot act on the organization.
 */
async function governanceFinding(
  client: CloudDbClient,
  find: Extract<Find, { kind: "governance" }>,
): Promise<Finding> {
  const caller = await callerRole(client, find.orgId);
  if (caller === undefined || caller.role === "admin") return undefined;
  const who = describeRole(caller.role);
  return {
    property: find.property,
    reason:
      `this API key belongs to ${who} of organization ${find.orgId}, and only its admins (or the organization's own ` +
      `API key) ${find.what}: the up would fail with 403. ${GOVERNANCE_FIX}`,
  };
}

/**
 * A finding unless the key may set the project's member roles (docs/api-rules.md §20): the project
 * must be an organization's, and the key its organization's own, or the personal key of an
 * organization admin or of a member holding ADMIN on the project. A key `GET /users/me` refuses is
 * the organization's key when it reads the organization's members, and a project-scoped key, which
 * can never set roles, when it does not.
 */
async function projectRolesFinding(
  client: CloudDbClient,
  find: Extract<Find, { kind: "projectRoles" }>,
): Promise<Finding> {
  const { property, projectId } = find;
  const orgId = (await client.getProject(projectId)).org_id;
  if (orgId === undefined || orgId === null) {
    return {
      property,
      reason: `project ${projectId} is a personal project, and only an organization's projects have members with roles`,
    };
  }
  const me = await client.getCurrentUser().catch((err: unknown) => {
    if (isForbidden(err)) return undefined;
    throw err;
  });
  if (me === undefined) {
    const orgKey = await client.listOrgMembers(orgId).then(
      () => true,
      (err: unknown) => {
        if (isForbidden(err)) return false;
        throw err;
      },
    );
    if (orgKey) return undefined;
    return {
      property,
      reason: `this is a project-scoped API key, which can never set members' roles on project ${projectId}. ${PROJECT_ROLES_FIX}`,
    };
  }
  const mine = (await client.listProjectMembers(projectId)).find((m) => m.user_id === me.id);
  if (mine?.effective_project_permission === "ADMIN") return undefined;
  return {
    property,
    reason:
      `this API key belongs to ${mine === undefined ? "a user with no permission on the project" : describeRole(mine.org_role)} of organization ${orgId}, without ADMIN on project ` +
      `${projectId}, and only the organization's admins, its own API key and the project's admins set members' ` +
      `roles there: the up would fail with 403. ${PROJECT_ROLES_FIX}`,
  };
}

const BRANCH_FIX = "check projectId and branchId, or use a key that can use the project";
const PROJECT_FIX =
  "check projectId, or use a key that can use the project (a key of its owner or organization, or one scoped to it)";
const ADMIN_FIX =
  "Use the personal API key of an admin of the organization for this stack " +
  "(`pulumi config set --secret clouddb:apiKey <key>`, or CLOUDDB_API_KEY).";
const GOVERNANCE_FIX =
  "Use the personal API key of an admin of the organization, or the organization's API key, for this stack " +
  "(`pulumi config set --secret clouddb:apiKey <key>`, or CLOUDDB_API_KEY).";
const KEY_FIX =
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

const PROJECT_ROLES_FIX =
  "Use the personal API key of an admin of the project's organization, or the organization's API key, for this " +
  "stack (`pulumi config set --secret clouddb:apiKey <key>`, or CLOUDDB_API_KEY).";
