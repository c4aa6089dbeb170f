import type * as pulumi from "@pulumi/pulumi";
import { isNotFound, mayHaveChanged } from "../client";
import type { ApiKeyInputs, ApiKeyKind, ApiKeyOutputs } from "./apiKey";
import { compact, createdSince, isUnknown, providerClient } from "./runtime";

/** Inputs that pick the object: a change to any of them creates a new key (create-before-delete). */
const REPLACE_ON_CHANGE = ["name", "orgId", "projectId", "rotationTrigger"] as const;

const MAX_NAME = 64;

export { configure } from "./runtime";

/** Validates inputs before anything is sent; every failure says what to change. */
export async function check(
  _olds: ApiKeyInputs,
  news: ApiKeyInputs,
): Promise<pulumi.dynamic.CheckResult<ApiKeyInputs>> {
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const { name, orgId, projectId } = news;
  if (!isUnknown(name)) {
    if (typeof name !== "string" || name.trim().length === 0) {
      failures.push({
        property: "name",
        reason: "name is required: give the key a descriptive name (1-64 characters)",
      });
    } else if (name.length > MAX_NAME) {
      failures.push({
        property: "name",
        reason: `name is ${name.length} characters; the API accepts at most ${MAX_NAME}: shorten it`,
      });
    }
  }
  for (const [property, value] of [
    ["orgId", orgId],
    ["projectId", projectId],
    ["rotationTrigger", news.rotationTrigger],
  ] as const) {
    if (value !== undefined && !isUnknown(value) && (typeof value !== "string" || value === "")) {
      failures.push({
        property,
        reason: `${property} must be a non-empty string when set; remove it or give a value`,
      });
    }
  }
  if (projectId !== undefined && orgId === undefined) {
    failures.push({
      property: "projectId",
      reason:
        "a project-scoped key is created under the organization that owns the project: add orgId " +
        "(the organization's id, e.g. org-...) next to projectId, or remove projectId for a personal key",
    });
  }
  return failures.length > 0 ? { inputs: news, failures } : { inputs: inputsOf(news) };
}

/** Keys cannot be edited: any change of an identifying input replaces, creating the new key first. */
export async function diff(
  _id: string,
  olds: ApiKeyOutputs,
  news: ApiKeyInputs,
): Promise<pulumi.dynamic.DiffResult> {
  const replaces = REPLACE_ON_CHANGE.filter((k) => (olds[k] ?? null) !== (news[k] ?? null));
  return { changes: replaces.length > 0, replaces, deleteBeforeReplace: false };
}

/** Creates the key through the path for its kind and keeps the token (returned only now) in the state. */
export async function create(inputs: ApiKeyInputs): Promise<pulumi.dynamic.CreateResult<ApiKeyOutputs>> {
  const client = providerClient();
  const kind = kindOf(inputs);
  const startedAt = Date.now();
  let made: CreatedKey & { project_id?: string | undefined };
  try {
    made =
      kind === "personal"
        ? await client.createApiKey({ keyName: inputs.name })
        : await client.createOrgApiKey(inputs.orgId!, {
            keyName: inputs.name,
            ...(inputs.projectId !== undefined ? { projectId: inputs.projectId } : {}),
          });
  } catch (err) {
    if (mayHaveChanged(err)) await revokeUnreceived(inputs, kind, startedAt, err);
    throw err;
  }
  if (kind === "project" && made.project_id !== inputs.projectId) {
    // The key would act on something other than what was asked for: never keep it.
    await client.revokeOrgApiKey(inputs.orgId!, made.id);
    throw new Error(
      `the API created key ${made.id} for project ${JSON.stringify(made.project_id ?? null)} instead of ` +
        `${inputs.projectId}; it was revoked at once. Check that project ${inputs.projectId} belongs to ` +
        `organization ${inputs.orgId} and try again.`,
    );
  }
  return { id: String(made.id), outs: outputsOf(inputs, kind, made) };
}

/**
 * The create may have made a key although its response (the only place the token ever appears)
 * was lost. Such a key is useless and must not stay active: if exactly one key of this name was
 * created since the request, it is revoked and the error says so. With none or several, the
 * original error (which says the create may have happened) stands.
 */
async function revokeUnreceived(
  inputs: ApiKeyInputs,
  kind: ApiKeyKind,
  startedAt: number,
  err: unknown,
): Promise<void> {
  const client = providerClient();
  const since = createdSince(startedAt);
  let candidates: { id: number }[];
  try {
    const listed =
      kind === "personal" ? await client.listApiKeys() : await client.listOrgApiKeys(inputs.orgId!);
    candidates = listed.filter(
      (k) =>
        k.name === inputs.name &&
        Date.parse(k.created_at ?? "") >= since &&
        (kind !== "project" || (k as { project_id?: unknown }).project_id === inputs.projectId),
    );
  } catch {
    return;
  }
  const [orphan, ...others] = candidates;
  if (orphan === undefined || others.length > 0) return;
  try {
    if (kind === "personal") await client.revokeApiKey(orphan.id);
    else await client.revokeOrgApiKey(inputs.orgId!, orphan.id);
  } catch {
    return;
  }
  throw new Error(
    `${(err as Error).message} The key it made (id ${orphan.id}, "${inputs.name}") was found and revoked: its ` +
      "token was never received and cannot be read again. Run `pulumi up` again to create a new key.",
    { cause: err },
  );
}

/**
 * Refresh: finds the key by id in the list for its kind. Gone or revoked -> empty id, so Pulumi
 * drops it from the state; present -> fresh audit fields, the token carried forward from state.
 */
export async function read(
  id: string,
  props?: ApiKeyOutputs,
): Promise<pulumi.dynamic.ReadResult<ApiKeyOutputs>> {
  if (props === undefined || props.keyId === undefined) {
    throw new Error(
      `cannot read API key ${id} without its state: the token is returned only at creation, so an existing ` +
        "key cannot be imported. Create a new ApiKey and revoke the old key instead.",
    );
  }
  const client = providerClient();
  const keyId = Number(id);
  const listed =
    props.kind === "personal" ? await client.listApiKeys() : await client.listOrgApiKeys(props.orgId!);
  const found = listed.find((k) => k.id === keyId);
  if (found === undefined) return { id: "", props: {} as ApiKeyOutputs };
  const outs: ApiKeyOutputs = {
    ...props,
    name: found.name,
    createdAt: found.created_at ?? props.createdAt,
    createdBy: createdById(found.created_by) ?? props.createdBy,
    lastUsedAt: found.last_used_at ?? null,
    lastUsedFromAddr: found.last_used_from_addr || null,
    revoked: false,
  };
  return { id, props: outs, inputs: inputsOf(outs) as ApiKeyOutputs };
}

/** Nothing of a key can change in place; returns the full outputs so the state (and token) stay whole. */
export async function update(
  _id: string,
  olds: ApiKeyOutputs,
  news: ApiKeyInputs,
): Promise<pulumi.dynamic.UpdateResult<ApiKeyOutputs>> {
  const { name, orgId, projectId, rotationTrigger, ...rest } = olds;
  return { outs: { ...rest, ...inputsOf(news) } as ApiKeyOutputs };
}

/** Revokes the key through the path for its kind; a key already gone or revoked counts as done. */
export async function remove(id: string, props: ApiKeyOutputs): Promise<void> {
  const client = providerClient();
  const keyId = Number(id);
  try {
    if ((props.kind ?? kindOf(props)) === "personal") await client.revokeApiKey(keyId);
    else await client.revokeOrgApiKey(props.orgId!, keyId);
  } catch (err) {
    if (isNotFound(err)) return;
    throw err;
  }
}

function kindOf(inputs: Pick<ApiKeyInputs, "orgId" | "projectId">): ApiKeyKind {
  if (inputs.orgId === undefined) return "personal";
  return inputs.projectId === undefined ? "organization" : "project";
}

function inputsOf(value: ApiKeyInputs): ApiKeyInputs {
  return compact({
    name: value.name,
    orgId: value.orgId,
    projectId: value.projectId,
    rotationTrigger: value.rotationTrigger,
  });
}

interface CreatedKey {
  id: number;
  key: string;
  created_at?: string | undefined;
  created_by?: unknown;
}

function outputsOf(inputs: ApiKeyInputs, kind: ApiKeyKind, made: CreatedKey): ApiKeyOutputs {
  return {
    ...inputsOf(inputs),
    keyId: made.id,
    key: made.key,
    kind,
    createdAt: made.created_at ?? null,
    createdBy: createdById(made.created_by) ?? null,
    lastUsedAt: null,
    lastUsedFromAddr: null,
    revoked: false,
  };
}

/** `created_by` is a user id in create responses and a `{id, name}` object in lists. */
function createdById(createdBy: unknown): string | undefined {
  if (typeof createdBy === "string") return createdBy;
  if (createdBy !== null && typeof createdBy === "object" && "id" in createdBy) {
    const id = (createdBy as { id: unknown }).id;
    return typeof id === "string" ? id : undefined;
  }
  return undefined;
}
