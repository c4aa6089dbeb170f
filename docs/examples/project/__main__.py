import pulumi
import pulumi_clouddb as clouddb

project = clouddb.Project(
    "app",
    name="app",
    pg_version=17,
    default_endpoint_settings=clouddb.ComputeSettingsArgs(
        autoscaling_limit_min_cu=0.25,
        autoscaling_limit_max_cu=2,
        suspend_timeout_seconds=300,
    ),
    delete_protection=True,
)

pulumi.export("defaultBranchId", project.default_branch_id)
pulumi.export("databaseUrl", project.connection_uri)  # a secret
