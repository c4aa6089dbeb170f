import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

const config = new pulumi.Config();
const app = new clouddb.Role("app", {
  projectId: config.require("projectId"),
  branchId: config.require("branchId"),
  passwordResetTrigger: "2026-11", // change it to reset the password
});

export const roleName = app.name;
export const password = app.password; // a secret
