import { z } from "zod";
import type {
  ApiKeyCreated,
  CachedListings,
  CloudDbClient,
  OrgApiKeyCreated,
  OrgApiKeyListItem,
} from "../client";
import { messageOf, ResourceError } from "./errors";
import { nameInput, optionalText, optionalTrigger } from "./inputs/common";
import { declaredInputs } from "./lifecycle/check";
import { compact, createdSince, defineResource, type Same } from "./lifecycle/define";
import { firstListing } from "./lifecycle/firstListings";
import { createKeyOf, markedLabel } from "./lifecycle/owner";
import { API_KEY, type ApiKeyInputs, type ApiKeyKind, type ApiKeyOutputs } from "./public/apiKey";

export type { ApiKeyInputs, ApiKeyOutputs } from "./public/apiKey";

// ---------------------------------------------------------------- inputs

/** Inputs as the provider sees them. The kind follows from them: no `orgId` is a personal key. */
export const ApiKeyInputsSchema = z
  .object({
    name: nameInput(64, "name is required: give the key a descriptive name (1-64 characters)"),
    orgId: optionalText("orgId"),
    projectId: optionalText("projectId"),
    rotationTrigger: optionalTrigger("rotationTrigger"),
  })
  .superRefine((inputs, ctx) => {
    if (inputs.projectId !== undefined && inputs.orgId === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["projectId"],
        message:
          "a project-scoped key is created under the organization that owns the project: add orgId " +
          "(the organization's id, e.g. org-...) next to projectId, or remove projectId for a personal key",
      });
    }
  });

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof ApiKeyInputsSchema>, ApiKeyInputs>;

// ---------------------------------------------------------------- API calls

/** An API key's lifecycle: create through the path for its kind, refresh from its owner's list, revoke. */
export const apiKeyDefinition = defineResource<ApiKeyInputs, ApiKeyOutputs>(API_KEY, {
  inputs: ApiKeyInputsSchema,
  id: (outs) => String(outs.keyId),
  // Any member may create a project-scoped key, but only admins revoke one (docs/api-rules.md §6).
  adminOf: (inputs) => inputs.orgId,

  /**
   * Creates the key, named with the mark of its create key, and keeps the token (returned only now)
   * in the state.
   */
  async create({ client, createKey }, inputs) {
    const kind = kindOf(inputs);
    const keyName = storedName(inputs.name, createKey);
    if (inputs.orgId === undefined) {
      return outputsOf(inputs, kind, await client.createApiKey({ keyName }));
    }
    const made: OrgApiKeyCreated = await client.createOrgApiKey(
      inputs.orgId,
      compact({ keyName, projectId: inputs.projectId }),
    );
    if (kind === "project" && made.project_id !== inputs.projectId) {
      // The key would act on something other than what was asked for: never keep it.
      await client.revokeOrgApiKey(inputs.orgId, made.id);
      throw new ResourceError(
        "UnexpectedObject",
        `the API created key ${made.id} for project ${JSON.stringify(made.project_id ?? null)} instead of ` +
          `${inputs.projectId}; it was revoked at once. Check that project ${inputs.projectId} belongs to ` +
          `organization ${inputs.orgId} and try again.`,
      );
    }
    return outputsOf(inputs, kind, made);
  },

  /**
   * A key a killed run made for this resource carries this create key's mark in its name. Its
   * token was never received and cannot be read again, so the key is useless: it is revoked, and
   * the create makes a new one. A key without the mark is never touched. The owner's keys are
   * listed once per run (`firstListing`): such a key exists before this run's first create.
   */
  async findOwn({ client }, inputs, key) {
    const marked = storedName(inputs.name, key);
    const owner = inputs.orgId === undefined ? "the user" : `organization ${inputs.orgId}`;
    const listed = await firstListing(`API keys of ${owner}`, () => listKeys(client, inputs));
    const orphans = listed.filter((k) => k.name === marked);
    for (const orphan of orphans) await revoke(client, inputs, orphan.id);
    return undefined;
  },

  /**
   * The create may have made a key although its response (the only place the token ever appears)
   * was lost. Such a key is useless and must not stay active: if exactly one key of this name was
   * created since the request, it is revoked and the error says so. With none or several, the
   * original error (which says the create may have happened) stands.
   */
  async findLost({ client, createKey }, inputs, startedAt, err) {
    const since = createdSince(startedAt);
    const name = storedName(inputs.name, createKey);
    const candidates = await listKeys(client, inputs)
      .then((keys) =>
        keys.filter(
          (k) =>
            k.name === name &&
            Date.parse(k.created_at ?? "") >= since &&
            (inputs.projectId === undefined || k.project_id === inputs.projectId),
        ),
      )
      .catch(() => []);
    const [orphan, ...others] = candidates;
    if (orphan === undefined || others.length > 0) return undefined;
    if (
      !(await revoke(client, inputs, orphan.id).then(
        () => true,
        () => false,
      ))
    )
      return undefined;
    throw new ResourceError(
      "LostAnswer",
      `${messageOf(err)} The key it made (id ${orphan.id}, "${inputs.name}") was found and revoked: its ` +
        "token was never received and cannot be read again. Run `pulumi up` again to create a new key.",
      err,
    );
  },

  /** Finds the key by id in its owner's list (revoked keys are not listed); the token comes from the state. */
  async read({ client }, id, props) {
    if (props?.keyId === undefined) {
      throw new ResourceError(
        "NotImportable",
        `cannot read API key ${id} without its state: the token is returned only at creation, so an existing ` +
          "key cannot be imported. Create a new ApiKey and revoke the old key instead.",
      );
    }
    // A refresh reads every key at once: they share one listing per owner.
    const found = (await listKeys(client.cached, props)).find((k) => k.id === Number(id));
    if (found === undefined) return undefined;
    return {
      ...props,
      // The output name is the program's: the mark is the API's copy only.
      name: found.name === storedName(props.name, createKeyOf(props)) ? props.name : found.name,
      createdAt: found.created_at ?? props.createdAt,
      createdBy: creatorId(found.created_by) ?? props.createdBy,
      lastUsedAt: found.last_used_at ?? null,
      lastUsedFromAddr: found.last_used_from_addr || null,
      revoked: false,
    };
  },

  /** Revokes the key through the path for its kind. */
  async remove({ client }, id, props) {
    await revoke(client, props, Number(id));
  },
});

/** The longest name the API stores. */
const KEY_NAME_MAX = 64;

/**
 * The name the API stores for a key named `name` and created with `key`: the name, ` #` and the
 * key's mark (see `lifecycle/owner.ts`); a name too long for the mark is shortened here, never in
 * the outputs. Without a create key (a key made before keys were marked), the name alone.
 */
export function storedName(name: string, key: string | undefined): string {
  return markedLabel(name, key, KEY_NAME_MAX);
}

function kindOf(inputs: Pick<ApiKeyInputs, "orgId" | "projectId">): ApiKeyKind {
  if (inputs.orgId === undefined) return "personal";
  return inputs.projectId === undefined ? "organization" : "project";
}

/** The keys of the owner `of` names: the caller's personal keys, or the organization's. */
async function listKeys(
  client: CachedListings | CloudDbClient,
  of: Pick<ApiKeyInputs, "orgId">,
): Promise<readonly OrgApiKeyListItem[]> {
  return of.orgId === undefined ? client.listApiKeys() : client.listOrgApiKeys(of.orgId);
}

async function revoke(client: CloudDbClient, of: Pick<ApiKeyInputs, "orgId">, keyId: number): Promise<void> {
  if (of.orgId === undefined) await client.revokeApiKey(keyId);
  else await client.revokeOrgApiKey(of.orgId, keyId);
}

function outputsOf(inputs: ApiKeyInputs, kind: ApiKeyKind, made: ApiKeyCreated): ApiKeyOutputs {
  return {
    ...declaredInputs<ApiKeyInputs>(ApiKeyInputsSchema, inputs),
    keyId: made.id,
    key: made.key,
    kind,
    createdAt: made.created_at ?? null,
    createdBy: made.created_by ?? null,
    lastUsedAt: null,
    lastUsedFromAddr: null,
    revoked: false,
  };
}

/** `created_by` is a user id in create responses and a `{id, name}` object in lists. */
function creatorId(createdBy: OrgApiKeyListItem["created_by"]): string | undefined {
  return typeof createdBy === "string" ? createdBy : createdBy?.id;
}
