import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

const config = new pulumi.Config();
const replica = new clouddb.Endpoint("replica", {
  projectId: config.require("projectId"),
  branchId: config.require("branchId"),
  type: "read_only",
  autoscalingLimitMinCu: 0.25,
  autoscalingLimitMaxCu: 2,
});

export const host = replica.host;
// Through the connection pooler: the same compute, `-pooler` in its host.
export const pooledHost = replica.pooledHost;
