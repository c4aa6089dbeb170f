// A preview environment: the database one pull request's app runs against. One stack per pull
// request (the workflow next to this file names it `pr-<number>`):
//   - a branch of the project's default branch with its schema and none of its rows,
//   - an expiry, so a forgotten preview deletes itself,
//   - a role and a database owned by it for the app,
//   - DATABASE_URL, a secret output: `pulumi stack output --show-secrets DATABASE_URL`.
import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

const config = new pulumi.Config();
const projectId = config.require("projectId");
const pullRequest = config.require("pullRequest");
const expiresInDays = config.getNumber("expiresInDays") ?? 7;

const branch = new clouddb.Branch("preview", {
  projectId,
  name: `preview/pr-${pullRequest}`,
  initSource: "schema-only",
  ttl: `${expiresInDays}d`,
  endpoints: [{ type: "read_write" }],
});

const role = new clouddb.Role("app", { projectId, branchId: branch.branchId, name: "app" });

const database = new clouddb.Database("app", {
  projectId,
  branchId: branch.branchId,
  name: "app",
  ownerName: role.name,
});

const connection = clouddb.getConnectionUriOutput({
  projectId,
  branchId: branch.branchId,
  databaseName: database.name,
  roleName: role.name,
});

export const branchId = branch.branchId;
export const expiresAt = branch.expiresAt;
export const DATABASE_URL = connection.uri;
