/**
 * The public part of {@link CustomDomain}: its declaration, and the class and types derived from it.
 * The definition (inputs schema, API calls) is `../customDomain.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { declareResource, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf } from "./shapes";

/** A custom domain on a branch, declared. A registration cannot be edited: every input picks the object. */
export const CUSTOM_DOMAIN = declareResource({
  type: "CustomDomain",
  noun: "custom domain",
  family: "credentials",
  importId: ["projectId", "branchId", "domain"],
  inputs: {
    /** The project of the branch. Changing it registers the domain there instead. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** The branch the domain is registered on (br-...). Changing it registers the domain there instead. */
    branchId: { type: STRING, required: true, change: "replace" },
    /** The domain, such as `app.example.com` (compared without regard to case). Changing it registers the new domain before removing the old one. */
    domain: { type: STRING, required: true, change: "replace" },
    /** The kind of entity of the branch the domain routes to: `function` is the only one the service takes today. */
    entityType: { type: STRING, required: true, change: "replace" },
    /** The entity the domain routes to: for a function, its slug. Changing it removes the domain, then registers it again. */
    entityId: { type: STRING, required: true, change: "replace" },
  },
  outputs: {
    /** The project id. */
    projectId: { type: STRING },
    /** The branch id. */
    branchId: { type: STRING },
    /** The domain as the service keeps it, in lower case. */
    domain: { type: STRING },
    /** The kind of entity the domain routes to. */
    entityType: { type: STRING },
    /** The entity the domain routes to. */
    entityId: { type: STRING },
    /** The host name the domain's CNAME record must point at (empty where the region has no custom-domain front door). */
    cnameTarget: { type: STRING },
    /** `pending`, `active` or `error` (more values may come), as of the last create or refresh. */
    status: { type: STRING, optional: true },
    /** The DNS check: `pending`, `ok`, `misconfigured`, `caa_blocked` (more may come). */
    dnsStatus: { type: STRING, optional: true },
    /** Whether the service's routing for the domain is published: `pending`, `present`, `missing`. */
    bindingStatus: { type: STRING, optional: true },
    /** What to fix when `status` is `error`. */
    statusReason: { type: STRING, optional: true },
  },
});

/** Inputs of a {@link CustomDomain}. */
export interface CustomDomainArgs extends ArgsOf<typeof CUSTOM_DOMAIN> {}

/** The plain inputs as the provider sees them. */
export interface CustomDomainInputs extends InputsOf<typeof CUSTOM_DOMAIN> {}

/** Everything the state records of a custom domain (inputs included). */
export interface CustomDomainOutputs extends StateOf<typeof CUSTOM_DOMAIN> {}

/** The dynamic provider of {@link CustomDomain}: it loads `../customDomain` when called (see `lazyProvider`). */
export const customDomainProvider: pulumi.dynamic.ResourceProvider<CustomDomainInputs, CustomDomainOutputs> =
  lazyProvider(CUSTOM_DOMAIN.type);

// The class's fields: one Output per declared output.
export interface CustomDomain extends OutputFields<typeof CUSTOM_DOMAIN> {}

/**
 * A domain you own routed to an entity of a branch (a function, by its slug). The service gives the
 * CNAME target to point the domain at; it goes live once that DNS resolves and a certificate is
 * issued on the first request (`status`). Registering a domain already registered for the same
 * entity takes it; one another entity holds is refused. Deleting it stops the routing.
 * `pulumi import` takes `<projectId>/<branchId>/<domain>`.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class CustomDomain extends DynamicResource {
  constructor(name: string, args: CustomDomainArgs, opts?: pulumi.CustomResourceOptions) {
    super(CUSTOM_DOMAIN, name, args, opts);
  }
}
