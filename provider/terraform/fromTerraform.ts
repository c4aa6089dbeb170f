/**
 * `clouddb from-terraform`: a Terraform (or OpenTofu) state of the community `neon` providers turned
 * into a Pulumi import file, so `pulumi import --file` brings every object in under this package's
 * kinds. Each resource's import id is built from the attributes the state holds, in the shape the
 * kind's declaration gives (`importId`); what has no kind, or cannot be imported, is listed with why.
 * The state is read, never written, and no attribute but the ids reaches the import file (a state
 * holds passwords and connection strings).
 */
import { DECLARATIONS } from "../resources/public/kinds";

/** How a Terraform resource type becomes a kind: which of the kind's id parts is the resource's own `id`. */
interface Mapping {
  kind: string;
  /** The `importId` part the state keeps as the resource's `id` attribute, if any; the others are their snake_case attributes. */
  own?: string;
}

/** The `neon_*` types of the community providers that have a kind, and those that do not, with why. */
export const TERRAFORM_TYPES: Readonly<Record<string, Mapping | { unmapped: string }>> = {
  neon_project: { kind: "Project", own: "projectId" },
  neon_branch: { kind: "Branch", own: "branchId" },
  neon_endpoint: { kind: "Endpoint", own: "endpointId" },
  neon_role: { kind: "Role" },
  neon_database: { kind: "Database" },
  neon_project_permission: { kind: "ProjectPermission", own: "permissionId" },
  neon_jwks_url: { kind: "Jwks", own: "jwksId" },
  neon_vpc_endpoint_assignment: { kind: "VpcEndpoint" },
  neon_vpc_endpoint_restriction: { kind: "ProjectVpcEndpoint" },
  neon_api_key: {
    unmapped:
      "an API key's token is shown once, when it is made, so it cannot be imported: declare an ApiKey and revoke the old key once the new one is in use",
  },
  neon_org_api_key: {
    unmapped:
      "an API key's token is shown once, when it is made, so it cannot be imported: declare an ApiKey with orgId and revoke the old key once the new one is in use",
  },
};

/** One line of a Pulumi import file. */
export interface ImportEntry {
  type: string;
  name: string;
  id: string;
}

/** A state resource left out of the import file, and why. */
export interface Unmapped {
  address: string;
  why: string;
}

/** What a state turns into. */
export interface Conversion {
  resources: ImportEntry[];
  unmapped: Unmapped[];
}

/** Thrown for a file that is not a state this command reads; the message says what to give instead. */
export class StateFormatError extends Error {
  override readonly name = "StateFormatError";
}

interface StateInstance {
  index_key?: string | number;
  attributes?: Record<string, unknown>;
}

interface StateResource {
  module?: string;
  mode?: string;
  type?: string;
  name?: string;
  instances?: StateInstance[];
}

/** The package's type token of `kind`. */
const token = (kind: string) => `clouddb:index:${kind}`;

/** `projectId` → `project_id`, as the providers name their attributes. */
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The resource's address as Terraform writes it: `module.a.neon_branch.main["x"]`. */
function addressOf(resource: StateResource, instance: StateInstance): string {
  const key =
    instance.index_key === undefined
      ? ""
      : typeof instance.index_key === "number"
        ? `[${instance.index_key}]`
        : `[${JSON.stringify(instance.index_key)}]`;
  return `${resource.module === undefined ? "" : `${resource.module}.`}${resource.type}.${resource.name}${key}`;
}

/** A Pulumi resource name for the address: its module path, name and key, in the characters a name may hold. */
function pulumiName(resource: StateResource, instance: StateInstance): string {
  const parts = [
    ...(resource.module ?? "").split(".").filter((p, i) => p !== "" && i % 2 === 1),
    resource.name ?? "resource",
    ...(instance.index_key === undefined ? [] : [String(instance.index_key)]),
  ];
  return parts
    .join("-")
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** The import id of `attributes` for `mapping`, or why it cannot be made. */
function importIdOf(mapping: Mapping, attributes: Record<string, unknown>): string | { why: string } {
  const declaration = DECLARATIONS.find((d) => d.type === mapping.kind);
  const parts = declaration?.importId;
  if (parts === undefined) return { why: `${mapping.kind} cannot be imported` };
  const values: string[] = [];
  for (const part of parts) {
    const attribute = part === mapping.own ? "id" : snake(part);
    const value = attributes[attribute];
    if (typeof value !== "string" || value === "")
      return { why: `the state has no ${attribute} for it (the ${mapping.kind}'s ${part})` };
    values.push(value);
  }
  return values.join("/");
}

/**
 * The import file's entries for a state (format version 4, as Terraform 0.12+ and OpenTofu write
 * it), and what was left out. Data sources are read by the program, not imported, and are skipped.
 */
export function fromTerraformState(state: unknown): Conversion {
  const version = (state as { version?: unknown } | null)?.version;
  const resources = (state as { resources?: unknown } | null)?.resources;
  if (version !== 4 || !Array.isArray(resources)) {
    throw new StateFormatError(
      `not a Terraform state of format version 4 (${version === undefined ? "no version" : `version ${JSON.stringify(version)}`}): give the file \`terraform state pull\` or \`tofu state pull\` writes`,
    );
  }
  const conversion: Conversion = { resources: [], unmapped: [] };
  const taken = new Set<string>();
  for (const resource of resources as StateResource[]) {
    if (resource.mode !== "managed") continue;
    for (const instance of resource.instances ?? []) {
      const address = addressOf(resource, instance);
      const mapping = TERRAFORM_TYPES[resource.type ?? ""];
      if (mapping === undefined) {
        conversion.unmapped.push({
          address,
          why: `${resource.type} is not a type of the neon providers this package maps`,
        });
        continue;
      }
      if ("unmapped" in mapping) {
        conversion.unmapped.push({ address, why: mapping.unmapped });
        continue;
      }
      const id = importIdOf(mapping, instance.attributes ?? {});
      if (typeof id !== "string") {
        conversion.unmapped.push({ address, why: id.why });
        continue;
      }
      const type = token(mapping.kind);
      let name = pulumiName(resource, instance);
      for (let n = 2; taken.has(`${type}::${name}`); n++) name = `${pulumiName(resource, instance)}-${n}`;
      taken.add(`${type}::${name}`);
      conversion.resources.push({ type, name, id });
    }
  }
  return conversion;
}
