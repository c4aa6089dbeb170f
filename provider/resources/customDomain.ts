import { z } from "zod";
import type { CustomDomain as ApiDomain, CloudDbClient } from "../client";
import { NotFoundError } from "../client/errors";
import { idInput, requiredId } from "./inputs/common";
import { functionFind } from "./inputs/onBranch";
import { declaredInputs } from "./lifecycle/check";
import { defineResource, type Same } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import { CUSTOM_DOMAIN, type CustomDomainInputs, type CustomDomainOutputs } from "./public/customDomain";

export type { CustomDomainInputs, CustomDomainOutputs } from "./public/customDomain";

// ---------------------------------------------------------------- inputs

/** A host name: dot-separated labels of letters, digits and inner hyphens, at least two of them. */
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/** The domain as the service keeps it: lower case, without a final dot. */
const normal = (domain: string) => domain.trim().toLowerCase().replace(/\.$/, "");

/** The kinds of entity the service routes a domain to (docs/api-rules.md §25; another is refused with 400). */
const ENTITY_TYPE_VALUES = ["function"] as const;
const ENTITY_TYPES = ENTITY_TYPE_VALUES.map((t) => JSON.stringify(t)).join(" or ");

/** Inputs as the provider sees them. */
export const CustomDomainInputsSchema = z.object({
  projectId: requiredId("projectId", "the project of the branch"),
  branchId: idInput("branchId", "branch", "the branch the domain is registered on"),
  domain: z
    .string({ error: "domain is required: a domain you own, such as app.example.com" })
    .refine((d) => HOST.test(normal(d)), {
      error: (issue) =>
        `domain must be a host name such as app.example.com, not ${JSON.stringify(issue.input)}`,
      abort: true,
    })
    // No top-level domain is all digits: such a name is an IPv4 address, which no CNAME record can point.
    .refine((d) => !/(^|\.)\d+$/.test(normal(d)), {
      error: (issue) =>
        `domain must be a domain name you own, such as app.example.com, not the IP address ${JSON.stringify(issue.input)}: ` +
        "the service routes a name whose CNAME record points at cnameTarget",
    }),
  entityType: requiredId("entityType", `what the domain routes to: ${ENTITY_TYPES}`).refine(
    (type) => (ENTITY_TYPE_VALUES as readonly string[]).includes(type),
    {
      error: (issue) =>
        `entityType must be ${ENTITY_TYPES}, not ${JSON.stringify(issue.input)}: a domain routes to a function ` +
        "of the branch (the only kind of entity the service takes today), named by its slug in entityId",
    },
  ),
  entityId: requiredId("entityId", "the entity the domain routes to (a function's slug)"),
});

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof CustomDomainInputsSchema>, CustomDomainInputs>;

// ---------------------------------------------------------------- API calls

/**
 * A custom domain on a branch (docs/api-rules.md §25). Registered with one POST, which the service
 * treats as done when the domain is already registered for the same entity: a create after a killed
 * run, or after a lost answer, registers it again and gets the same domain, so no mark is needed.
 * Nothing can be edited. A new domain is registered before the old one is removed; the same domain
 * for another entity is removed first, as the service lets a domain route to one entity only.
 */
export const customDomainDefinition = defineResource<CustomDomainInputs, CustomDomainOutputs>(CUSTOM_DOMAIN, {
  inputs: CustomDomainInputsSchema,
  same: { domain: (news, olds) => typeof olds === "string" && normal(news) === normal(olds) },
  id: (outs) => `${outs.projectId}/${outs.branchId}/${outs.domain}`,
  onBranch: ({ projectId, branchId }) => ({ projectId, branchId }),
  deleteBeforeReplace: (olds, news) => olds.domain === normal(news.domain),
  /** The function the domain routes to: one the branch lacks would leave the domain routing nowhere. */
  finds: (inputs, olds) => [
    inputs.entityType !== "function" ||
    (inputs.entityId === olds.entityId && inputs.branchId === olds.branchId)
      ? undefined
      : functionFind(inputs, "entityId", inputs.entityId),
  ],

  async create({ client }, inputs) {
    const made = await client.registerCustomDomain(inputs.projectId, inputs.branchId, {
      domain: normal(inputs.domain),
      entity_type: inputs.entityType,
      entity_id: inputs.entityId,
    });
    return outputsOf(inputs, made);
  },

  /** The branch's domain `domain`, as the state would record it. */
  async readExisting({ client }, inputs, domain) {
    const found = await find(client, inputs.projectId, inputs.branchId, domain);
    if (found === undefined) {
      throw new NotFoundError(
        `branch ${inputs.branchId} of project ${inputs.projectId} has no custom domain ${domain}: give one its custom-domains list shows`,
      );
    }
    return outputsOf(
      { ...inputs, domain: found.domain, entityType: found.entity_type, entityId: found.entity_id },
      found,
    );
  },

  /** The domain from the branch's list, with where its checks stand; removed elsewhere it is gone. */
  async read({ client }, _id, props) {
    if (props === undefined) return undefined;
    const found = await find(client, props.projectId, props.branchId, props.domain);
    return found === undefined
      ? undefined
      : outputsOf({ ...props, entityType: found.entity_type, entityId: found.entity_id }, found);
  },

  async remove({ client }, _id, props) {
    await client.deleteCustomDomain(props.projectId, props.branchId, props.domain);
  },
});

/** The branch's custom domain `domain`, if registered. */
async function find(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
  domain: string,
): Promise<ApiDomain | undefined> {
  const domains = await client.listCustomDomains(projectId, branchId);
  return domains.find((d) => d.domain === normal(domain));
}

function outputsOf(inputs: CustomDomainInputs, domain: ApiDomain): CustomDomainOutputs {
  return {
    ...declaredInputs<CustomDomainInputs>(CustomDomainInputsSchema, inputs),
    projectId: inputs.projectId,
    branchId: inputs.branchId,
    domain: domain.domain,
    entityType: domain.entity_type,
    entityId: domain.entity_id,
    cnameTarget: domain.cname_target,
    ...(domain.status === undefined ? {} : { status: domain.status }),
    ...(domain.dns_status === undefined ? {} : { dnsStatus: domain.dns_status }),
    ...(domain.binding_status === undefined ? {} : { bindingStatus: domain.binding_status }),
    ...(domain.status_reason === undefined ? {} : { statusReason: domain.status_reason }),
  };
}

// The provider's methods, which the kinds' table (`methodsTable.ts`) serves.
export const { configure, check, diff, create, read, update, remove } =
  providerMethods(customDomainDefinition);
