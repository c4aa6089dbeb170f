// GitOps preview environments: one branch and one project-scoped key per open pull request.
// The pipeline keeps the list in stack config; adding a number creates that preview, removing
// it deletes the branch and revokes the key:
//   pulumi config set --path 'pullRequests[0]' 101 && pulumi up --yes
import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

const config = new pulumi.Config();
const orgId = config.require("orgId");
const projectId = config.require("projectId");
const pullRequests = config.getObject<number[]>("pullRequests") ?? [];
// Branch previews from this branch; omit for the project's default branch.
const parentId = config.get("parentBranchId");

export const previews = Object.fromEntries(
  pullRequests.map((pr) => {
    const branch = new clouddb.Branch(`pr-${pr}`, {
      projectId,
      name: `preview/pr-${pr}`,
      ...(parentId ? { parentId } : {}),
      endpoints: [{ type: "read_write" }],
    });
    const key = new clouddb.ApiKey(`pr-${pr}`, { name: `preview-pr-${pr}`, orgId, projectId });
    return [
      `pr-${pr}`,
      {
        branchId: branch.branchId,
        host: branch.endpoints.apply((eps) => eps[0]?.host ?? null),
        keyId: key.keyId,
        key: key.key,
      },
    ];
  }),
);
