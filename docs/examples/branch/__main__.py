import pulumi
import pulumi_clouddb as clouddb

config = pulumi.Config()
preview = clouddb.Branch(
    "preview",
    project_id=config.require("projectId"),
    name="preview",
    init_source="schema-only",
    ttl="7d",
    endpoints=[clouddb.BranchEndpointSpecArgs(type="read_write")],
)

pulumi.export("branchId", preview.branch_id)
pulumi.export("databaseUrl", preview.connection_uri)  # a secret
