import * as clouddb from "pulumi-clouddb";

const ci = new clouddb.ApiKey("ci", {
  name: "ci-pipeline",
  rotationTrigger: "2026-11", // change it to rotate: the new key is made before the old one is revoked
});

export const ciKey = ci.key; // a secret
