/**
 * Checks at `check` time that the stack's configuration can do what a planned create or update needs:
 * a key is set, the API URL is well formed and reachable, the API accepts the key, and the key can use
 * the project or organization the inputs name. `check` is the only method Pulumi calls for a planned
 * create during `pulumi preview` (a dynamic provider gets no preview `create`), so without this those
 * mistakes would pass the preview and fail the `up`.
 *
 * One cheap read per credential and per project or organization, shared by every resource of the
 * process (Pulumi runs one provider process per command): `GET /projects/{id}`,
 * `GET /organizations/{id}`, or one project of `GET /projects` when the inputs name neither. An
 * unchanged resource is not checked, so a preview with no changes makes no request.
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
  keyFingerprint,
  resolveConfig,
} from "../../client";
import { declaredInputs, isUnknown } from "./check";
import { type CommonInputs, compact } from "./define";
import { providerClient, providerSettings } from "./settings";

/** What a resource needs of the account, read from its inputs. */
interface Needs {
  projectId?: string;
  orgId?: string;
}

/** A failed check: the input it is about (none for the credential itself) and what to do. */
type Finding = pulumi.dynamic.CheckFailure | undefined;

const MEMO = Symbol.for("pulumi-clouddb.preflight");
type Holder = { [MEMO]?: Map<string, Promise<Finding>> };

function memo(): Map<string, Promise<Finding>> {
  const holder = globalThis as Holder;
  holder[MEMO] ??= new Map();
  return holder[MEMO];
}

/** Forgets every check made in this process (tests that change the API under the same URL and key). */
export function forgetPreflight(): void {
  memo().clear();
}

/**
 * `result` (a check's outcome) with the configuration findings added, when `news` plans a create
 * (`olds` is empty) or an update (the declared inputs changed) and the inputs are otherwise valid.
 */
export async function preflighted<I extends CommonInputs>(
  schema: z.ZodObject<z.ZodRawShape>,
  olds: I,
  result: pulumi.dynamic.CheckResult<I>,
): Promise<pulumi.dynamic.CheckResult<I>> {
  if ((result.failures?.length ?? 0) > 0 || result.inputs === undefined) return result;
  const planned =
    Object.keys(olds).length === 0 || !isDeepStrictEqual(declaredInputs(schema, olds), result.inputs);
  if (!planned) return result;
  const findings = await preflight(needsOf(result.inputs));
  return findings.length === 0 ? result : { inputs: result.inputs, failures: findings };
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
      once(`${credential} project ${projectId}`, apiUrl, (client) => client.getProject(projectId), {
        property: "projectId",
        what: `project ${projectId}`,
        fix: "check projectId, or use a key that can use the project (a key of its owner or organization, or one scoped to it)",
      }),
    );
  }
  if (orgId !== undefined) {
    reads.push(
      once(`${credential} org ${orgId}`, apiUrl, (client) => client.getOrganization(orgId), {
        property: "orgId",
        what: `organization ${orgId}`,
        fix: "check orgId, or use a key of a member of that organization",
      }),
    );
  }
  if (reads.length === 0) {
    reads.push(
      once(credential, apiUrl, firstProject, { property: "", what: "this account's projects", fix: KEY_FIX }),
    );
  }
  const findings = (await Promise.all(reads)).filter((f) => f !== undefined);
  return [...new Map(findings.map((f) => [f.reason, f])).values()];
}

/** The input a read is about, how messages name its object, and what to do when the key cannot use it. */
interface Subject {
  property: string;
  what: string;
  fix: string;
}

/** The finding of `read`, made once per `key` in the process. */
function once(
  key: string,
  apiUrl: string,
  read: (client: CloudDbClient) => Promise<unknown>,
  subject: Subject,
): Promise<Finding> {
  const known = memo();
  let finding = known.get(key);
  if (finding === undefined) {
    finding = read(providerClient()).then(
      () => undefined,
      (err: unknown) => explain(err, apiUrl, subject),
    );
    known.set(key, finding);
  }
  return finding;
}

/** Reads one project of the account: enough to learn whether the API takes the key. */
async function firstProject(client: CloudDbClient): Promise<void> {
  for await (const _ of client.listProjects({ limit: 1, maxItems: 1 })) break;
}

const KEY_FIX =
  "set a valid key with `pulumi config set --secret clouddb:apiKey <key>` (or the CLOUDDB_API_KEY environment variable)";
const URL_FIX =
  "check clouddb:apiUrl (`pulumi config set clouddb:apiUrl <url>`) or CLOUDDB_API_URL, and that this machine can reach it";

/** A finding for a read that failed; undefined for failures that say nothing about the configuration (5xx, 429). */
function explain(err: unknown, apiUrl: string, { property, what, fix }: Subject): Finding {
  if (isConfigError(err)) return { property: "", reason: err.message };
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
