// Quickstart: the three kinds of API key, a branch with two computes, a child branch, and two
// data sources. Stack config: clouddb:apiKey (secret), clouddb:apiUrl (optional), and this
// project's orgId (an organization you administer) and projectId (a project of that organization).
import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

const config = new pulumi.Config();
const orgId = config.require("orgId");
const projectId = config.require("projectId");

// A personal key for a CI system: acts on everything the key's owner can reach.
const ciKey = new clouddb.ApiKey("ci", { name: "ci-pipeline" });
// An organization key: admin-level access to every project of the organization.
const orgKey = new clouddb.ApiKey("org-automation", { name: "org-automation", orgId });
// A project-scoped key: member-level access to one project. Bump rotation to rotate it.
const appKey = new clouddb.ApiKey("app", {
  name: "app-backend",
  orgId,
  projectId,
  rotationTrigger: config.get("appKeyRotation") ?? "2026-11",
});

// A development branch with a read-write and a read-only compute.
const dev = new clouddb.Branch("dev", {
  projectId,
  name: "dev",
  endpoints: [{ type: "read_write" }, { type: "read_only" }],
});
// A child of dev: Pulumi creates it after dev and deletes it before dev.
const feature = new clouddb.Branch("dev-feature", {
  projectId,
  name: "dev-feature",
  parentId: dev.branchId,
});

export const keys = {
  ci: { id: ciKey.keyId, token: ciKey.key },
  org: { id: orgKey.keyId, token: orgKey.key },
  app: { id: appKey.keyId, token: appKey.key, project: appKey.projectId },
};
export const branches = {
  dev: { id: dev.branchId, state: dev.currentState, endpoints: dev.endpoints },
  feature: { id: feature.branchId, parent: feature.parentId },
};

// Data sources run in the program and read the same credentials.
export const organizationProjects = clouddb
  .getProjectsOutput({ orgId })
  .apply((r) => r.projects.map((p) => `${p.id} (${p.name})`));
// Read after both branches exist: the operations this program caused, newest first.
export const recentOperations = pulumi
  .all([dev.branchId, feature.branchId])
  .apply(() => clouddb.getOperations({ projectId, maxItems: 6 }))
  .apply((r) => r.operations.map((op) => `${op.action}: ${op.status}`));
