/**
 * The class of {@link PreviewEnvironment}, a component: its declaration is
 * `../../components/previewEnvironment.declared.ts`, what it makes `../../components/previewEnvironment.ts`,
 * shared with the provider plugin's `Construct`, which makes the same children for every other language.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Children } from "../../components/previewEnvironment";
import { makePreviewEnvironment } from "../../components/previewEnvironment";
import type { PreviewEnvironmentArgs } from "../../components/previewEnvironment.declared";
import { PREVIEW_ENVIRONMENT } from "../../components/previewEnvironment.declared";
import { Branch } from "./branch";
import { BranchAuth } from "./branchAuth";
import { DataApi } from "./dataApi";
import { Database } from "./database";
import { Endpoint } from "./endpoint";
import { Migrations } from "./migrations";
import { Role } from "./role";
import { RoleGrants } from "./roleGrants";
import type { OutputFields } from "./shapes";

export type { PreviewEnvironmentArgs } from "../../components/previewEnvironment.declared";
export {
  PREVIEW_DATA,
  PREVIEW_ENVIRONMENT,
  PREVIEW_RUNTIME,
} from "../../components/previewEnvironment.declared";

// The class's fields: one Output per declared output.
export interface PreviewEnvironment extends OutputFields<typeof PREVIEW_ENVIRONMENT> {}

/** The children of a preview environment in a TypeScript program: this package's classes. */
const CLASSES: Children = {
  Branch: (name, args, opts) => new Branch(name, args as never, opts),
  Role: (name, args, opts) => new Role(name, args as never, opts),
  Database: (name, args, opts) => new Database(name, args as never, opts),
  Endpoint: (name, args, opts) => new Endpoint(name, args as never, opts),
  RoleGrants: (name, args, opts) => new RoleGrants(name, args as never, opts),
  BranchAuth: (name, args, opts) => new BranchAuth(name, args as never, opts),
  DataApi: (name, args, opts) => new DataApi(name, args as never, opts),
  Migrations: (name, args, opts) => new Migrations(name, args as never, opts),
};

/**
 * A pull request's database as one resource: a branch of the parent with an expiry, the database and
 * its owner, a compute made after them, migrations run once, and a runtime role that reads and
 * writes rows and cannot change the schema. The same component serves every language through the
 * provider plugin.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the fields are set from the children's outputs below.
export class PreviewEnvironment extends pulumi.ComponentResource {
  constructor(name: string, args: PreviewEnvironmentArgs, opts?: pulumi.ComponentResourceOptions) {
    super(`clouddb:index:${PREVIEW_ENVIRONMENT.type}`, name, {}, opts);
    const outputs = makePreviewEnvironment(this, name, args, CLASSES);
    Object.assign(this, outputs);
    this.registerOutputs(outputs);
  }
}
