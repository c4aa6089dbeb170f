package main

import (
	"github.com/pulumi-clouddb/pulumi-clouddb/sdk/go/clouddb"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		app, err := clouddb.NewRole(ctx, "app", &clouddb.RoleArgs{
			ProjectId:            pulumi.String(config.Require(ctx, "projectId")),
			BranchId:             pulumi.String(config.Require(ctx, "branchId")),
			PasswordResetTrigger: pulumi.String("2026-11"), // change it to reset the password
		})
		if err != nil {
			return err
		}
		ctx.Export("roleName", app.Name)
		ctx.Export("password", app.Password) // a secret
		return nil
	})
}
