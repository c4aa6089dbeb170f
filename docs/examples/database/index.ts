import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

const config = new pulumi.Config();
const projectId = config.require("projectId");
const branchId = config.require("branchId");
const owner = new clouddb.Role("orders-owner", { projectId, branchId });
const orders = new clouddb.Database("orders", { projectId, branchId, ownerName: owner.name });

export const databaseName = orders.name;
