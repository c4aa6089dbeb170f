import pulumi
import pulumi_clouddb as clouddb

ci = clouddb.ApiKey(
    "ci",
    name="ci-pipeline",
    rotation_trigger="2026-11",  # change it to rotate: the new key is made before the old one is revoked
)

pulumi.export("ciKey", ci.key)  # a secret
