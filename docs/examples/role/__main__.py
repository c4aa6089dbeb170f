import pulumi
import pulumi_clouddb as clouddb

config = pulumi.Config()
app = clouddb.Role(
    "app",
    project_id=config.require("projectId"),
    branch_id=config.require("branchId"),
    password_reset_trigger="2026-11",  # change it to reset the password
)

pulumi.export("roleName", app.name)
pulumi.export("password", app.password)  # a secret
