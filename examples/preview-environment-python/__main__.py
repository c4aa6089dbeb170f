"""The preview environment of ../preview-environment/, in Python, through the provider plugin.

One stack per pull request (see README.md next to this file):
  - a branch of the project's default branch with its databases and their schema, none of their
    rows (or, with `data: anonymized`, their rows with the columns of `maskingRules` masked; with
    `data: full`, their rows as they are), and an expiry, so a forgotten preview deletes itself,
  - a role of the app's own on it, its name generated, made before the branch's compute: a role
    made on a branch that has one starts an operation on it (see docs/api-rules.md), one made
    before starts none,
  - the compute (an Endpoint), which depends on the role,
  - DATABASE_URL, a secret output: that role on the branch's copy of `databaseName`,
  - the rest of the app's backend on the same branch: Auth (no settings declared: a branch made
    from one with Auth starts with its settings; its own keys are secret outputs), the Data API on
    that database, checking the branch's Auth tokens (its URL an output), a bucket for the app's
    uploads (a preview's uploads go with it, so `forceDestroy` is on), and the app's API, a
    function deployed from `api/` next to this file (a link to the TypeScript example's) with
    those settings as its (secret) environment, its URL an output.
The role's name, the bucket's and the function's are generated with a mark of this stack, so a run
cancelled during any create is finished by the next `pulumi up`, with no step.
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

# Auth on the preview's branch. No settings declared: the branch starts with the default branch's
# (trusted domains, OAuth providers, email); declare one to give previews their own.
auth = clouddb.BranchAuth(
    "auth", project_id=project_id, branch_id=branch.branch_id, database_name=database_name
)

# The Data API serves the branch's read_write compute and checks tokens of the branch's Auth, so it
# is made once both exist.
data_api = clouddb.DataApi(
    "data-api",
    project_id=project_id,
    branch_id=branch.branch_id,
    database_name=database_name,
    opts=pulumi.ResourceOptions(depends_on=[compute, auth]),
)

# The app's uploads. No name: a generated one carries this stack's mark. The branch starts with the
# parent's buckets too; this one is the preview's own.
uploads = clouddb.Bucket("uploads", project_id=project_id, branch_id=branch.branch_id, force_destroy=True)

# The app's API: the files of `api/` (a path from this folder, where Pulumi runs the program),
# deployed again when one changes or a setting below does. No slug: a generated one carries this
# stack's mark. The environment is a secret: DATABASE_URL's password is in it.
api = clouddb.Function(
    "api",
    project_id=project_id,
    branch_id=branch.branch_id,
    source="api",
    environment=pulumi.Output.secret(
        {
            "DATABASE_URL": connection.uri,
            "AUTH_JWKS_URL": auth.jwks_url,
            "DATA_API_URL": data_api.url,
            "BUCKET": uploads.name,
        }
    ),
)

pulumi.export("branchId", branch.branch_id)
pulumi.export("expiresAt", branch.expires_at)
pulumi.export("roleName", role.name)
pulumi.export("DATABASE_URL", connection.uri)
pulumi.export("AUTH_BASE_URL", auth.base_url)
pulumi.export("AUTH_JWKS_URL", auth.jwks_url)
# Secret outputs: `pulumi stack output --show-secrets AUTH_SECRET_KEY`.
pulumi.export("AUTH_PUBLISHABLE_KEY", auth.pub_client_key)
pulumi.export("AUTH_SECRET_KEY", auth.secret_server_key)
pulumi.export("DATA_API_URL", data_api.url)
pulumi.export("BUCKET", uploads.name)
pulumi.export("API_URL", api.invocation_url)
