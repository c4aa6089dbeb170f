import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

const config = new pulumi.Config();
const preview = new clouddb.Branch("preview", {
  projectId: config.require("projectId"),
  name: "preview",
  initSource: "schema-only",
  ttl: "7d",
  endpoints: [{ type: "read_write" }],
});

export const branchId = preview.branchId;
export const databaseUrl = preview.connectionUri; // a secret
