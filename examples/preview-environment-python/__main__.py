"""The preview environment of ../preview-environment/, in Python, through the provider plugin.

One stack per pull request (see README.md next to this file):
  - a branch of the project's default branch with its databases and their schema, none of their
    rows (or, with `data: anonymized`, their rows with the columns of `maskingRules` masked; with
    `data: full`, their rows as they are), and an expiry, so a forgotten preview deletes itself,
  - a role of the app's own on it, its name generated (a run cancelled during any create is
    finished by the next `pulumi up`, with no step), made before the branch's compute: a role made
    on a branch that has one starts an operation on it (see docs/api-rules.md), one made before
    starts none,
  - the compute (an Endpoint), which depends on the role,
  - DATABASE_URL, a secret output: that role on the branch's copy of `databaseName`.
"""
import pulumi
import pulumi_clouddb as clouddb

config = pulumi.Config()
project_id = config.require("projectId")
pull_request = config.require("pullRequest")
expires_in_days = config.get_int("expiresInDays") or 7
# The default branch's database the app uses: the branch holds a copy of its schema.
database_name = config.get("databaseName") or "neondb"
# What the preview's data is: schema-only (no rows), anonymized or full (the default branch's rows).
data = config.get("data") or "schema-only"
init_sources = {"schema-only": "schema-only", "anonymized": "anonymized", "full": "parent-data"}
if data not in init_sources:
    raise ValueError(f"data is schema-only, anonymized or full, not {data}")
# With data: anonymized, the columns masked, e.g. (Pulumi.<stack>.yaml)
#   maskingRules: [{databaseName: neondb, tableName: users, columnName: email, maskingFunction: "anon.fake_email()"}]
masking_rules = config.get_object("maskingRules") or []

branch = clouddb.Branch(
    "preview",
    project_id=project_id,
    name=f"preview/pr-{pull_request}",
    init_source=init_sources[data],
    masking_rules=(
        [
            clouddb.MaskingRuleArgs(
                database_name=rule["databaseName"],
                schema_name=rule.get("schemaName"),
                table_name=rule["tableName"],
                column_name=rule["columnName"],
                masking_function=rule.get("maskingFunction"),
                masking_value=rule.get("maskingValue"),
            )
            for rule in masking_rules
        ]
        if data == "anonymized"
        else None
    ),
    ttl=f"{expires_in_days}d",
    # No endpoints here: the compute is the Endpoint below, made once the role exists.
)

# No name: it is generated (`app_` and a mark of this stack), the same on every run.
role = clouddb.Role("app", project_id=project_id, branch_id=branch.branch_id)

# The branch's read_write compute, made after the role: the branch runs two operations in all,
# create_branch then start_compute.
compute = clouddb.Endpoint(
    "compute",
    project_id=project_id,
    branch_id=branch.branch_id,
    opts=pulumi.ResourceOptions(depends_on=[role]),
)

# Runs once the role and the compute exist: at preview, one still to be created makes it unknown.
connection = clouddb.get_connection_uri_output(
    project_id=project_id,
    branch_id=branch.branch_id,
    endpoint_id=compute.endpoint_id,
    database_name=database_name,
    role_name=role.name,
)

pulumi.export("branchId", branch.branch_id)
pulumi.export("expiresAt", branch.expires_at)
pulumi.export("roleName", role.name)
pulumi.export("DATABASE_URL", connection.uri)
