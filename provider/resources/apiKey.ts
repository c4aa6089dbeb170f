import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type {
  ApiKeyCreated,
  CloudDbClient,
  OrgApiKeyCreated,
  OrgApiKeyListItem,
  SharedReads,
} from "../client";
import { declaredInputs, nameInput, optionalText } from "./lifecycle/check";
import { type CommonState, compact, createdSince, defineResource } from "./lifecycle/define";
import { messageOf, ResourceError } from "./lifecycle/errors";
import { lazyProvider } from "./lifecycle/lazyProvider";
import { moduleRef } from "./lifecycle/moduleRef";
import { markOf } from "./lifecycle/owner";
import { ownerInput, seedOutputs, withSecrets } from "./lifecycle/props";

// ---------------------------------------------------------------- inputs

/** Inputs as the provider sees them. The kind follows from them: no `orgId` is a personal key. */
export const ApiKeyInputsSchema = z
  .object({
    name: nameInput(64, "name is required: give the key a descriptive name (1-64 characters)"),
    orgId: optionalText("orgId"),
    projectId: optionalText("projectId"),
    rotationTrigger: optionalText("rotationTrigger"),
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

/** The plain inputs as the provider sees them. */
export type ApiKeyInputs = z.infer<typeof ApiKeyInputsSchema>;

/** Keys cannot be edited: every input picks the object, so any change creates a new key first. */
export const API_KEY_CHANGES = {
  name: "replace",
  orgId: "replace",
  projectId: "replace",
  rotationTrigger: "replace",
} as const;

// ---------------------------------------------------------------- outputs

/** Which of the three kinds of key this is. */
export type ApiKeyKind = "personal" | "organization" | "project";

/** Everything the state records of a key (inputs included). `key` is a Pulumi secret. */
export interface ApiKeyOutputs extends ApiKeyInputs {
  keyId: number;
  key: string;
  kind: ApiKeyKind;
  createdAt: string | null;
  createdBy: string | null;
  lastUsedAt: string | null;
  lastUsedFromAddr: string | null;
  revoked: boolean;
}

// ---------------------------------------------------------------- API calls

/** An API key's lifecycle: create through the path for its kind, refresh from its owner's list, revoke. */
export const apiKeyDefinition = defineResource<ApiKeyInputs, ApiKeyOutputs>({
  noun: "API key",
  inputs: ApiKeyInputsSchema,
  changes: API_KEY_CHANGES,
  secrets: ["key"],
  id: (outs) => String(outs.keyId),

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
   * the create makes a new one. A key without the mark is never touched.
   */
  async findOwn({ client }, inputs, key) {
    const marked = storedName(inputs.name, key);
    const orphans = (await listKeys(client.shared, inputs)).filter((k) => k.name === marked);
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
    const found = (await listKeys(client.shared, props)).find((k) => k.id === Number(id));
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
  if (key === undefined) return name;
  const mark = ` #${markOf(key)}`;
  return `${name.slice(0, KEY_NAME_MAX - mark.length)}${mark}`;
}

/** The create key the state records (see `lifecycle/owner.ts`). */
function createKeyOf(props: ApiKeyOutputs): string | undefined {
  const key = (props as CommonState).__createKey;
  return typeof key === "string" ? key : undefined;
}

function kindOf(inputs: Pick<ApiKeyInputs, "orgId" | "projectId">): ApiKeyKind {
  if (inputs.orgId === undefined) return "personal";
  return inputs.projectId === undefined ? "organization" : "project";
}

/** The keys of the owner `of` names: the caller's personal keys, or the organization's. */
async function listKeys(
  client: SharedReads | CloudDbClient,
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

// ---------------------------------------------------------------- resource

/** Inputs of an {@link ApiKey}. */
export interface ApiKeyArgs {
  /** Descriptive name, 1 to 64 characters. Changing it rotates the key (keys cannot be edited). */
  name: pulumi.Input<string>;
  /** Organization id: with it the key is an organization key (admins only), or project-scoped with `projectId`. */
  orgId?: pulumi.Input<string>;
  /** Organization-owned project the key is limited to (member-level access). Requires `orgId`. */
  projectId?: pulumi.Input<string>;
  /** Any string; changing it rotates the key: a new key is created first, then the old one revoked. */
  rotationTrigger?: pulumi.Input<string>;
}

/** The dynamic provider of {@link ApiKey}: it loads `apiKeyMethods` when called (see `lazyProvider`). */
export const apiKeyProvider: pulumi.dynamic.ResourceProvider<ApiKeyInputs, ApiKeyOutputs> = lazyProvider(
  moduleRef(require.resolve("./apiKeyMethods")),
);

/**
 * An API key of the Cloud Database Control API: personal (no `orgId`), organization (`orgId`) or
 * project-scoped (`orgId` + `projectId`). Deleting it revokes it. The token is returned once by
 * the API and kept in the state as a secret (`key`).
 */
export class ApiKey extends pulumi.dynamic.Resource {
  /** The key's numeric id (used to revoke it). */
  declare readonly keyId: pulumi.Output<number>;
  /** The token, `napi_...`: a Pulumi secret. */
  declare readonly key: pulumi.Output<string>;
  /** The name given at creation. */
  declare readonly name: pulumi.Output<string>;
  /** `personal`, `organization` or `project`. */
  declare readonly kind: pulumi.Output<ApiKeyKind>;
  /** The organization of an organization or project-scoped key. */
  declare readonly orgId: pulumi.Output<string | undefined>;
  /** The project of a project-scoped key. */
  declare readonly projectId: pulumi.Output<string | undefined>;
  /** The value that last rotated the key. */
  declare readonly rotationTrigger: pulumi.Output<string | undefined>;
  /** Creation time, ISO 8601 UTC. */
  declare readonly createdAt: pulumi.Output<string | null>;
  /** The user who created the key. */
  declare readonly createdBy: pulumi.Output<string | null>;
  /** Last use, as of the last create or refresh. */
  declare readonly lastUsedAt: pulumi.Output<string | null>;
  /** Address of the last use, as of the last create or refresh. */
  declare readonly lastUsedFromAddr: pulumi.Output<string | null>;
  /** Whether the key is revoked (a revoked key leaves the state on refresh). */
  declare readonly revoked: pulumi.Output<boolean>;

  constructor(name: string, args: ApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
    const props = {
      ...seedOutputs<ApiKeyOutputs>(args, [
        "keyId",
        "key",
        "name",
        "kind",
        "orgId",
        "projectId",
        "rotationTrigger",
        "createdAt",
        "createdBy",
        "lastUsedAt",
        "lastUsedFromAddr",
        "revoked",
      ]),
      ...ownerInput(name, "ApiKey", opts),
    };
    super(apiKeyProvider, name, props, withSecrets(opts, apiKeyDefinition.secrets), "clouddb", "ApiKey");
  }
}
