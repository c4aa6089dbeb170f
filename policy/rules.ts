import type {
  PolicyResource,
  ReportViolation,
  ResourceValidationPolicy,
  StackValidationPolicy,
} from "@pulumi/policy";
import { ttlSeconds } from "../provider/resources/expiry";

// The rules of the policy pack (index.ts). Each message says what to change in the program.

const DYNAMIC = "pulumi-nodejs:dynamic/clouddb:";
const PLUGIN = "clouddb:index:";

/** The kind of a resource of this package (`Branch`), from either type token; undefined for another package's. */
export function kindOf(type: string): string | undefined {
  if (type.startsWith(DYNAMIC)) return type.slice(DYNAMIC.length);
  if (type.startsWith(PLUGIN)) return type.slice(PLUGIN.length);
  return undefined;
}

/** What the rules read of a resource's inputs. */
type Props = Record<string, unknown>;

/** The longest expiry a preview branch may have by default: the service's own limit, 30 days. */
const MAX_TTL_HOURS = 720;

/** How long a PreviewEnvironment lives when its program gives no ttl: the component's default. */
const PREVIEW_TTL = "168h";

/**
 * The PreviewEnvironment that made `resource`, when it is one's child. The pack sees an environment's
 * outputs, not its inputs; its branch carries them (the ttl, the copy's kind, what the parent was
 * looked up from), so the rules judge the environment by its branch and name it as the program does.
 */
function environmentOf(resource: PolicyResource): PolicyResource | undefined {
  const parent = resource.parent;
  return parent !== undefined && kindOf(parent.type) === "PreviewEnvironment" ? parent : undefined;
}

/** Addresses that open a network rule to everyone. */
const OPEN = new Set(["0.0.0.0/0", "::/0", "0.0.0.0", "*"]);

const branchExpires: StackValidationPolicy = {
  name: "preview-branches-expire",
  description:
    "A branch that is not protected has an expiry (ttl or expiresAt), at most maxTtlHours away; so has a PreviewEnvironment (its ttl, 168h by default).",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: { maxTtlHours: { type: "integer", minimum: 1, default: MAX_TTL_HOURS } },
  },
  validateStack: (args, reportViolation) => {
    const maxHours = (args.getConfig<{ maxTtlHours?: number }>().maxTtlHours ?? MAX_TTL_HOURS) as number;
    for (const resource of args.resources) {
      if (kindOf(resource.type) !== "Branch") continue;
      const environment = environmentOf(resource);
      if (environment !== undefined) {
        previewExpires(environment, resource, maxHours, reportViolation);
        continue;
      }
      const props = resource.props as Props;
      // A protected branch is a long-lived one (staging, production): it is not a preview.
      if (props.protected === true) continue;
      if (props.ttl === undefined && props.expiresAt === undefined) {
        reportViolation(
          `Branch "${resource.name}" has no expiry: set ttl (e.g. "72h", at most ${maxHours}h) or expiresAt, so a forgotten preview deletes itself; or protected: true for a long-lived branch.`,
          resource.urn,
        );
        continue;
      }
      const seconds = ttlSeconds(props.ttl);
      if (seconds !== undefined && seconds > maxHours * 3600) {
        reportViolation(
          `Branch "${resource.name}" expires in ${Math.round(seconds / 3600)}h, more than the ${maxHours}h a preview may live: set a shorter ttl.`,
          resource.urn,
        );
      }
    }
  },
};

/**
 * Reports `environment` when its branch (whose ttl is the environment's, 168h when the program gives
 * none) lives longer than `maxHours`.
 */
function previewExpires(
  environment: PolicyResource,
  branch: PolicyResource,
  maxHours: number,
  reportViolation: ReportViolation,
): void {
  const seconds = ttlSeconds((branch.props as Props).ttl ?? PREVIEW_TTL);
  if (seconds === undefined || seconds <= maxHours * 3600) return;
  reportViolation(
    `PreviewEnvironment "${environment.name}" expires in ${Math.round(seconds / 3600)}h, more than the ${maxHours}h a preview may live: set a shorter ttl (without one it lives ${PREVIEW_TTL}).`,
    environment.urn,
  );
}

/** The resource a property of `resource` was computed from, when it is one of the stack's. */
const source = (resource: PolicyResource, property: string): PolicyResource | undefined =>
  resource.propertyDependencies[property]?.[0];

const dataMasked: StackValidationPolicy = {
  name: "preview-data-masked",
  description:
    "A branch copying a protected branch's data masks it (initSource anonymized or schema-only); so does a PreviewEnvironment (data anonymized or schema-only).",
  enforcementLevel: "mandatory",
  validateStack: (args, reportViolation) => {
    for (const resource of args.resources) {
      if (kindOf(resource.type) !== "Branch") continue;
      const environment = environmentOf(resource);
      if (environment !== undefined) {
        previewMasked(environment, resource, reportViolation);
        continue;
      }
      const props = resource.props as Props;
      const copiesData = props.initSource === undefined || props.initSource === "parent-data";
      if (!copiesData) continue;
      const parent = source(resource, "parentId");
      const project = source(resource, "projectId");
      const parentProtected =
        parent !== undefined
          ? kindOf(parent.type) === "Branch" && (parent.props as Props).protected === true
          : props.parentId === undefined &&
            project !== undefined &&
            kindOf(project.type) === "Project" &&
            (project.props as Props).protectDefaultBranch === true;
      if (!parentProtected) continue;
      const from =
        parent === undefined ? `the default branch of project "${project?.name}"` : `branch "${parent.name}"`;
      reportViolation(
        `Branch "${resource.name}" copies the data of ${from}, which is protected: set initSource: "anonymized" with maskingRules for the columns that hold personal data, or "schema-only".`,
        resource.urn,
      );
    }
  },
};

/**
 * Reports `environment` when its branch copies rows as they are (`data: "data"`) from a parent the
 * stack shows protected. The parent is looked up from the environment's `parentBranch` and
 * `projectId`: when a Branch of the stack is among what it was looked up from, that branch's
 * `protected` decides; else a Project of the stack that protects its default branch does, the
 * parent being its default branch or one the program names by a plain string, which the pack
 * cannot tell apart.
 */
function previewMasked(
  environment: PolicyResource,
  branch: PolicyResource,
  reportViolation: ReportViolation,
): void {
  if ((branch.props as Props).initSource !== "parent-data") return;
  const from = branch.propertyDependencies.parentId ?? [];
  const parent = from.find((r) => kindOf(r.type) === "Branch");
  const project = from.find((r) => kindOf(r.type) === "Project");
  const parentProtected =
    parent !== undefined
      ? (parent.props as Props).protected === true
      : project !== undefined && (project.props as Props).protectDefaultBranch === true;
  if (!parentProtected) return;
  const of =
    parent !== undefined
      ? `branch "${parent.name}", which is protected`
      : `a branch of project "${project?.name}", which protects its default branch`;
  reportViolation(
    `PreviewEnvironment "${environment.name}" copies the rows of ${of}, as they are (data: "data"): set data: "anonymized" with maskingRules for the columns that hold personal data, or "schema-only".`,
    environment.urn,
  );
}

const noOpenNetwork: ResourceValidationPolicy = {
  name: "no-open-network",
  description: "No allow list lets every address in (0.0.0.0/0, ::/0).",
  enforcementLevel: "mandatory",
  validateResource: (args, reportViolation) => {
    if (kindOf(args.type) === undefined) return;
    const allowed = (args.props as Props).allowedIps;
    if (!Array.isArray(allowed)) return;
    const open = allowed.filter((ip) => typeof ip === "string" && OPEN.has(ip.trim()));
    if (open.length > 0) {
      reportViolation(
        `${kindOf(args.type)} "${args.name}" allows ${open.join(", ")} in allowedIps, which lets every address in: list the addresses or ranges that need access (a CI runner's, an office's).`,
      );
    }
  },
};

const productionProtected: ResourceValidationPolicy = {
  name: "production-protected",
  description: "A project has delete protection and a protected default branch.",
  enforcementLevel: "advisory",
  validateResource: (args, reportViolation) => {
    if (kindOf(args.type) !== "Project") return;
    const props = args.props as Props;
    const missing = [
      ...(props.deleteProtection === true ? [] : ["deleteProtection: true"]),
      ...(props.protectDefaultBranch === true ? [] : ["protectDefaultBranch: true"]),
    ];
    if (missing.length > 0) {
      reportViolation(`Project "${args.name}" is not protected: set ${missing.join(" and ")}.`);
    }
  },
};

const keysRotate: ResourceValidationPolicy = {
  name: "keys-rotate",
  description:
    "An API key has a rotation trigger, so changing it makes a new key before the old one is revoked.",
  enforcementLevel: "advisory",
  validateResource: (args, reportViolation) => {
    if (kindOf(args.type) !== "ApiKey") return;
    if ((args.props as Props).rotationTrigger === undefined) {
      reportViolation(
        `ApiKey "${args.name}" has no rotationTrigger: set one (e.g. the month, "2026-12") and change it to rotate the key.`,
      );
    }
  },
};

/** Every rule of the pack. */
export const RULES: (ResourceValidationPolicy | StackValidationPolicy)[] = [
  branchExpires,
  dataMasked,
  noOpenNetwork,
  productionProtected,
  keysRotate,
];
