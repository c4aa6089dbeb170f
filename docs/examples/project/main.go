package main

import (
	"github.com/pulumi-clouddb/pulumi-clouddb/sdk/go/clouddb"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		project, err := clouddb.NewProject(ctx, "app", &clouddb.ProjectArgs{
			Name:      pulumi.String("app"),
			PgVersion: pulumi.Int(17),
			DefaultEndpointSettings: &clouddb.ComputeSettingsArgs{
				AutoscalingLimitMinCu: pulumi.Float64(0.25),
				AutoscalingLimitMaxCu: pulumi.Float64(2),
				SuspendTimeoutSeconds: pulumi.Int(300),
			},
			DeleteProtection: pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		ctx.Export("defaultBranchId", project.DefaultBranchId)
		ctx.Export("databaseUrl", project.ConnectionUri) // a secret
		return nil
	})
}
