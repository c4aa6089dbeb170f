package main

import (
	"github.com/pulumi-clouddb/pulumi-clouddb/sdk/go/clouddb"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		preview, err := clouddb.NewBranch(ctx, "preview", &clouddb.BranchArgs{
			ProjectId:  pulumi.String(config.Require(ctx, "projectId")),
			Name:       pulumi.String("preview"),
			InitSource: clouddb.InitSource_SCHEMA_ONLY,
			Ttl:        pulumi.String("7d"),
			Endpoints: clouddb.BranchEndpointSpecArray{
				&clouddb.BranchEndpointSpecArgs{Type: clouddb.EndpointType_READ_WRITE},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("branchId", preview.BranchId)
		ctx.Export("databaseUrl", preview.ConnectionUri) // a secret
		return nil
	})
}
