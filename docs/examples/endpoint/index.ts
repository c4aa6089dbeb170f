import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

const config = new pulumi.Config();
const replica = new clouddb.Endpoint("replica", {
  projectId: config.require("projectId"),
  branchId: config.require("branchId"),
  type: "read_only",
  autoscalingLimitMinCu: 0.25,
  autoscalingLimitMaxCu: 2,
  poolerEnabled: true,
});

export const host = replica.host;
