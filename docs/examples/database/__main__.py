import pulumi
import pulumi_clouddb as clouddb

config = pulumi.Config()
project_id = config.require("projectId")
branch_id = config.require("branchId")
owner = clouddb.Role("orders-owner", project_id=project_id, branch_id=branch_id)
orders = clouddb.Database("orders", project_id=project_id, branch_id=branch_id, owner_name=owner.name)

pulumi.export("databaseName", orders.name)
