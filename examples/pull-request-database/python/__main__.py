"""A pull request's database as one resource: ../typescript/index.ts in Python. The SDK's class asks
the engine for the component, which the provider plugin makes with its children."""
import pulumi
import pulumi_clouddb as clouddb

config = pulumi.Config()
pull_request = config.require("pullRequest")
preview = clouddb.PreviewEnvironment(
    "preview",
    project_id=config.require("projectId"),
    name=f"preview/pr-{pull_request}",
    ttl="72h",
    # The default branch's database the app uses; the preview's is a copy of its schema.
    database_name=config.get("databaseName") or "neondb",
    migrations="migrations",
    runtime=clouddb.PreviewRuntimeArgs(name="app"),
)

pulumi.export("branchId", preview.branch_id)
pulumi.export("host", preview.host)
pulumi.export("expiresAt", preview.expires_at)
pulumi.export("appliedMigrations", preview.applied_migrations)
pulumi.export("schemaDiff", preview.schema_diff)
# Secrets: `pulumi stack output --show-secrets runtimeUri`.
pulumi.export("runtimeUri", preview.runtime_uri)
pulumi.export("migrationUri", preview.migration_uri)
