/**
 * The policy pack of pulumi-clouddb (`pulumi preview --policy-pack <this folder>`): rules over the
 * resources of a stack, whatever language its program is in, the TypeScript package's dynamic
 * resources (`pulumi-nodejs:dynamic/clouddb:<Kind>`) and the provider plugin's
 * (`clouddb:index:<Kind>`) alike. Each rule's enforcement level is set in the pack's config as
 * Pulumi's are (`{"no-open-network": "advisory"}`); `preview-branches-expire` also takes
 * `maxTtlHours` (default 720, the service's 30 days).
 */
import { PolicyPack } from "@pulumi/policy";
import { RULES } from "./rules";

new PolicyPack("clouddb", { policies: RULES });
