// A pull request's database as one resource: one stack per pull request (`pr-<number>`).
// `PreviewEnvironment` makes, as children the preview shows one by one:
//   - a branch of the project's default branch with the schema of its databases and none of their
//     rows, which deletes itself when `ttl` runs out (a forgotten preview costs nothing for long),
//   - the database's owner, and the branch's compute after it (so the role starts no operation),
//   - the `.sql` files of `migrations/` applied in name order, each once, recorded with its sha256:
//     a file added runs alone on the next `up`, a file edited after it ran is refused at preview,
//   - `app`, the role the application runs as: it reads and writes rows and cannot CREATE, ALTER
//     or DROP anything, through the pooler (`runtimeUri`, a secret),
//   - `schemaDiff`: what the migrations changed against the parent, for the pull request's comment.
// `pulumi stack output --show-secrets runtimeUri` gives the application its DATABASE_URL.
import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

const config = new pulumi.Config();
const preview = new clouddb.PreviewEnvironment("preview", {
  projectId: config.require("projectId"),
  name: `preview/pr-${config.require("pullRequest")}`,
  ttl: "72h",
  // The default branch's database the app uses; the preview's is a copy of its schema.
  databaseName: config.get("databaseName") ?? "neondb",
  migrations: "migrations",
  runtime: { name: "app" },
});

export const branchId = preview.branchId;
export const host = preview.host;
export const expiresAt = preview.expiresAt;
export const appliedMigrations = preview.appliedMigrations;
export const schemaDiff = preview.schemaDiff;
// Secrets: `pulumi stack output --show-secrets runtimeUri`.
export const runtimeUri = preview.runtimeUri;
export const migrationUri = preview.migrationUri;
