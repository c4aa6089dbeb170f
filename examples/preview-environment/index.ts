// A preview environment: the database one pull request's app runs against. One stack per pull
// request (the workflow next to this file names it `pr-<number>`):
//   - a branch of the project's default branch with its databases and their schema, none of their
//     rows; or, with `data: anonymized`, their rows with the columns of `maskingRules` masked
//     (production's data without its personal data); or, with `data: full`, their rows as they are,
//   - an expiry, so a forgotten preview deletes itself,
//   - a role of the app's own on it, made before the branch's compute: a role made on a branch
//     that has one starts an operation on it (see docs/api-rules.md), one made before starts none,
//   - the compute (an Endpoint), which depends on the role,
//   - DATABASE_URL, a secret output: that role on the branch's copy of `databaseName`
//     (`pulumi stack output --show-secrets DATABASE_URL`),
//   - the rest of the app's backend on the same branch: Auth (a branch made from one with Auth
//     starts with its settings, so the preview signs users in as production is configured; its own
//     keys are secret outputs), the Data API on that database, checking the branch's Auth tokens
//     (its URL an output), a bucket for the app's uploads (presigned URLs move the objects; a
//     preview's uploads go with it, so `forceDestroy` is on), and the app's API, a function deployed
//     from `api/` next to this file with those settings as its (secret) environment, its URL an
//     output.
// No object here is given a name the API cannot mark as this stack's: the role's, the bucket's and
// the function's are generated, so a run cancelled in the middle of any create is finished by the
// next `pulumi up`, with no step.
import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

const config = new pulumi.Config();
const projectId = config.require("projectId");
const pullRequest = config.require("pullRequest");
const expiresInDays = config.getNumber("expiresInDays") ?? 7;
// The default branch's database the app uses: the branch holds a copy of its schema.
const databaseName = config.get("databaseName") ?? "neondb";
// What the preview's data is: `schema-only` (no rows), `anonymized` or `full` (the default branch's rows).
const data = config.get("data") ?? "schema-only";
const initSources: Record<string, clouddb.InitSource> = {
  "schema-only": "schema-only",
  anonymized: "anonymized",
  full: "parent-data",
};
const initSource = initSources[data];
if (initSource === undefined) throw new Error(`data is schema-only, anonymized or full, not ${data}`);
// With `data: anonymized`, the columns masked, e.g. (Pulumi.<stack>.yaml)
//   maskingRules: [{ databaseName: neondb, tableName: users, columnName: email, maskingFunction: "anon.fake_email()" }]
const maskingRules = config.getObject<clouddb.MaskingRule[]>("maskingRules");

const branch = new clouddb.Branch("preview", {
  projectId,
  name: `preview/pr-${pullRequest}`,
  initSource,
  ...(initSource === "anonymized" ? { maskingRules: maskingRules ?? [] } : {}),
  ttl: `${expiresInDays}d`,
  // No endpoints here: the compute is the Endpoint below, made once the role exists.
});

// No `name`: the name is generated (`app_` and a mark of this stack), the same on every run, and
// DATABASE_URL carries it. Like every role the API creates, it reads and writes every table.
const role = new clouddb.Role("app", { projectId, branchId: branch.branchId });

// The branch's read_write compute. Made after the role, so the role's create has no compute to
// reconfigure and the branch runs two operations in all: create_branch, then start_compute.
const compute = new clouddb.Endpoint(
  "compute",
  { projectId, branchId: branch.branchId },
  { dependsOn: [role] },
);

// `role.name` and `compute.endpointId` are outputs, so the lookup runs once both exist; at preview,
// a role or compute still to be created makes DATABASE_URL unknown until `up` creates it.
const connection = clouddb.getConnectionUriOutput({
  projectId,
  branchId: branch.branchId,
  endpointId: compute.endpointId,
  databaseName,
  roleName: role.name,
});

// Auth on the preview's branch. No settings declared: the branch starts with the default branch's
// (trusted domains, OAuth providers, email), and what a program does not declare stays as it is.
// Declare one (e.g. `trustedDomains`) to give previews a setting of their own.
const auth = new clouddb.BranchAuth("auth", { projectId, branchId: branch.branchId, databaseName });

// The Data API serves the branch's read_write compute and checks tokens of the branch's Auth, so it
// is made once both exist.
const dataApi = new clouddb.DataApi(
  "data-api",
  { projectId, branchId: branch.branchId, databaseName },
  { dependsOn: [compute, auth] },
);

// The app's uploads. No `name`: a generated one carries this stack's mark, so a run cancelled
// during its create takes it back. The branch starts with the parent's buckets too (see
// docs/api-rules.md); this one is the preview's own.
const uploads = new clouddb.Bucket("uploads", { projectId, branchId: branch.branchId, forceDestroy: true });

// The app's API: the files of `api/` (a path from this folder, where Pulumi runs the program),
// deployed again when one changes, and each time a setting below does (a new DATABASE_URL after
// the role is made again). No `slug`: a generated one carries this stack's mark, as the bucket's
// name does. The environment is a secret: DATABASE_URL's password is in it.
const api = new clouddb.Function("api", {
  projectId,
  branchId: branch.branchId,
  source: "api",
  environment: {
    DATABASE_URL: connection.uri,
    AUTH_JWKS_URL: auth.jwksUrl,
    DATA_API_URL: dataApi.url,
    BUCKET: uploads.name,
  },
});

export const branchId = branch.branchId;
export const expiresAt = branch.expiresAt;
export const roleName = role.name;
export const DATABASE_URL = connection.uri;
export const AUTH_BASE_URL = auth.baseUrl;
export const AUTH_JWKS_URL = auth.jwksUrl;
// Secret outputs: `pulumi stack output --show-secrets AUTH_SECRET_KEY`.
export const AUTH_PUBLISHABLE_KEY = auth.pubClientKey;
export const AUTH_SECRET_KEY = auth.secretServerKey;
export const DATA_API_URL = dataApi.url;
export const BUCKET = uploads.name;
export const API_URL = api.invocationUrl;
