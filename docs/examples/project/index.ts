import * as clouddb from "pulumi-clouddb";

const project = new clouddb.Project("app", {
  name: "app",
  pgVersion: 17,
  defaultEndpointSettings: {
    autoscalingLimitMinCu: 0.25,
    autoscalingLimitMaxCu: 2,
    suspendTimeoutSeconds: 300,
  },
  deleteProtection: true,
});

export const defaultBranchId = project.defaultBranchId;
export const databaseUrl = project.connectionUri; // a secret
