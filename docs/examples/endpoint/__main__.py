import pulumi
import pulumi_clouddb as clouddb

config = pulumi.Config()
replica = clouddb.Endpoint(
    "replica",
    project_id=config.require("projectId"),
    branch_id=config.require("branchId"),
    type="read_only",
    autoscaling_limit_min_cu=0.25,
    autoscaling_limit_max_cu=2,
)

pulumi.export("host", replica.host)
# Through the connection pooler: the same compute, `-pooler` in its host.
pulumi.export("pooledHost", replica.pooled_host)
