import { z } from "zod";
import type { CloudDbClient, CredentialIssued, CredentialMeta, CredentialSecret } from "../client";
import { NotFoundError } from "../client/errors";
import { adoptInput, idInput, optionalTrigger, requiredId } from "./inputs/common";
import { adoptLive } from "./lifecycle/adoption";
import { declaredInputs } from "./lifecycle/check";
import { defineResource, type Same } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import { markedLabel, markedName } from "./lifecycle/owner";
import {
  CREDENTIAL,
  CREDENTIAL_SCOPE,
  type CredentialInputs,
  type CredentialOutputs,
} from "./public/credential";

export type { CredentialInputs, CredentialOutputs } from "./public/credential";

// ---------------------------------------------------------------- inputs

/** The longest label the API stores. */
const NAME_MAX = 256;

/** Inputs as the provider sees them. */
export const CredentialInputsSchema = z.object({
  projectId: requiredId("projectId", "the project of the branch"),
  branchId: idInput("branchId", "branch", "the branch the credential is anchored to"),
  name: z
    .string({ error: "name must be a string" })
    .max(NAME_MAX, `name is at most ${NAME_MAX} characters`)
    .refine((name) => name.trim() !== "", "name must not be blank: give a label or leave name out")
    .optional(),
  scopes: z
    .array(
      z.enum(CREDENTIAL_SCOPE.enum, { error: `each scope is one of ${CREDENTIAL_SCOPE.enum.join(", ")}` }),
      {
        error: `scopes is required: a list of ${CREDENTIAL_SCOPE.enum.join(", ")}`,
      },
    )
    .min(1, `scopes needs at least one of ${CREDENTIAL_SCOPE.enum.join(", ")}`)
    .max(16, "scopes holds at most 16 entries"),
  rotationTrigger: optionalTrigger("rotationTrigger"),
  adoptExisting: adoptInput("credential (its token id, nak_live_...)"),
});

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof CredentialInputsSchema>, CredentialInputs>;

// ---------------------------------------------------------------- API calls

/**
 * A branch's scoped service credential (docs/api-rules.md §25). Issued with one POST, whose answer
 * carries its secrets; the service keeps them, so a credential this resource made can be found again
 * by the mark in its label and its secrets revealed, after a killed run or a lost answer alike. It
 * cannot be edited: every change, `rotationTrigger` included, issues a new credential before the old
 * one is revoked. The service's own rotation is not used for that: it ends the old secrets at once
 * and a retry after a lost answer ends the new ones too, where create-before-revoke keeps a working
 * credential at every moment. Deleting revokes it; the service keeps it listed as revoked.
 */
export const credentialDefinition = defineResource<CredentialInputs, CredentialOutputs>(CREDENTIAL, {
  inputs: CredentialInputsSchema,
  id: (outs) => outs.tokenId,
  // A revoked credential cannot be brought back: a destroy that would then be refused at the branch revokes nothing.
  onBranch: ({ projectId, branchId }) => ({ projectId, branchId }),

  /** Issues the credential, labelled with the mark of its create key. */
  async create({ client, createKey }, inputs) {
    const issued = await client.createCredential(inputs.projectId, inputs.branchId, {
      name: storedName(inputs.name, createKey),
      scopes: inputs.scopes,
      principal_type: "user",
    });
    return outputsOf(inputs, issued, issued);
  },

  /** A credential a killed run issued for this resource carries its mark: it is taken, with its secrets revealed. */
  findOwn: ({ client }, inputs, key) => marked(client, inputs, key),

  /** The create's answer was lost: the credential it issued, if any, carries the mark; it is taken the same way. */
  findLost: ({ client, createKey }, inputs) =>
    createKey === undefined ? Promise.resolve(undefined) : marked(client, inputs, createKey),

  /** Takes the branch's live credential `tokenId`; its label and scopes must be the declared ones. */
  async adopt(step, inputs, tokenId): Promise<CredentialOutputs> {
    const live = await existing(step.client, inputs, tokenId);
    return adoptLive(credentialDefinition, step, inputs, tokenId, live);
  },

  /** The branch's live credential `tokenId`, with its secrets revealed. */
  readExisting: ({ client }, inputs, tokenId) => existing(client, inputs, tokenId),

  /** The credential from the branch's list; revoked (here or elsewhere) it is gone. The secrets come from the state. */
  async read({ client }, id, props) {
    if (props === undefined) return undefined;
    const found = (await client.listCredentials(props.projectId, props.branchId)).find(
      (c) => c.token_id === id,
    );
    if (found === undefined || found.revoked_at !== undefined) return undefined;
    return { ...props, lastUsedAt: found.last_used_at ?? null, createdAt: found.created_at };
  },

  /** Revokes the credential. */
  async remove({ client }, id, props) {
    await client.revokeCredential(props.projectId, props.branchId, id);
  },
});

/**
 * The label the API stores for a credential labelled `name` and issued with `key`: the label and
 * the key's mark (see `lifecycle/owner.ts`), or `pulumi-` and the mark for an unlabelled one.
 */
export function storedName(name: string | undefined, key: string | undefined): string | undefined {
  if (key === undefined) return name;
  return name === undefined ? markedName(key) : markedLabel(name, key, NAME_MAX);
}

/** The live credential of the branch that carries the mark of `key`, with its secrets; undefined when none does. */
async function marked(
  client: CloudDbClient,
  inputs: CredentialInputs,
  key: string,
): Promise<CredentialOutputs | undefined> {
  const label = storedName(inputs.name, key);
  const found = (await client.listCredentials(inputs.projectId, inputs.branchId)).find(
    (c) => c.name === label && c.revoked_at === undefined,
  );
  if (found === undefined) return undefined;
  const secret = await client.revealCredential(inputs.projectId, inputs.branchId, found.token_id);
  return outputsOf(inputs, found, secret);
}

/** The branch's live credential `tokenId` as the state would record it, its label the program's input. */
async function existing(
  client: CloudDbClient,
  inputs: CredentialInputs,
  tokenId: string,
): Promise<CredentialOutputs> {
  const found = (await client.listCredentials(inputs.projectId, inputs.branchId)).find(
    (c) => c.token_id === tokenId && c.revoked_at === undefined,
  );
  if (found === undefined) {
    throw new NotFoundError(
      `branch ${inputs.branchId} of project ${inputs.projectId} has no live credential ${tokenId}: give the ` +
        "token id (nak_live_...) of one its credentials list shows without revoked_at",
    );
  }
  const secret = await client.revealCredential(inputs.projectId, inputs.branchId, tokenId);
  const scopes = found.scopes.filter((s): s is CredentialInputs["scopes"][number] =>
    (CREDENTIAL_SCOPE.enum as readonly string[]).includes(s),
  );
  const { adoptExisting: _, ...rest } = inputs;
  return outputsOf(
    { ...rest, ...(found.name === undefined ? {} : { name: found.name }), scopes },
    found,
    secret,
  );
}

/** When the credential was last used, where the answer says (a listing does, an issue does not). */
const lastUse = (credential: CredentialIssued | CredentialMeta): string | undefined =>
  "last_used_at" in credential && typeof credential.last_used_at === "string"
    ? credential.last_used_at
    : undefined;

function outputsOf(
  inputs: CredentialInputs,
  credential: CredentialIssued | CredentialMeta,
  secret: CredentialSecret,
): CredentialOutputs {
  return {
    ...declaredInputs<CredentialInputs>(CredentialInputsSchema, inputs),
    projectId: inputs.projectId,
    branchId: inputs.branchId,
    tokenId: credential.token_id,
    tokenIdShort: credential.token_id_short,
    apiToken: secret.api_token,
    s3SecretAccessKey: secret.s3_secret_access_key,
    scopes: credential.scopes,
    createdAt: credential.created_at,
    lastUsedAt: lastUse(credential) ?? null,
  };
}

// The provider's methods, which the kinds' table (`methodsTable.ts`) serves.
export const { configure, check, diff, create, read, update, remove } = providerMethods(credentialDefinition);
