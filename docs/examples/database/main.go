package main

import (
	"github.com/pulumi-clouddb/pulumi-clouddb/sdk/go/clouddb"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		projectId := pulumi.String(config.Require(ctx, "projectId"))
		branchId := pulumi.String(config.Require(ctx, "branchId"))
		owner, err := clouddb.NewRole(ctx, "orders-owner", &clouddb.RoleArgs{
			ProjectId: projectId,
			BranchId:  branchId,
		})
		if err != nil {
			return err
		}
		orders, err := clouddb.NewDatabase(ctx, "orders", &clouddb.DatabaseArgs{
			ProjectId: projectId,
			BranchId:  branchId,
			OwnerName: owner.Name,
		})
		if err != nil {
			return err
		}
		ctx.Export("databaseName", orders.Name)
		return nil
	})
}
