package main

import (
	"github.com/pulumi-clouddb/pulumi-clouddb/sdk/go/clouddb"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		replica, err := clouddb.NewEndpoint(ctx, "replica", &clouddb.EndpointArgs{
			ProjectId:             pulumi.String(config.Require(ctx, "projectId")),
			BranchId:              pulumi.String(config.Require(ctx, "branchId")),
			Type:                  clouddb.EndpointType_READ_ONLY,
			AutoscalingLimitMinCu: pulumi.Float64(0.25),
			AutoscalingLimitMaxCu: pulumi.Float64(2),
		})
		if err != nil {
			return err
		}
		ctx.Export("host", replica.Host)
		// Through the connection pooler: the same compute, `-pooler` in its host.
		ctx.Export("pooledHost", replica.PooledHost)
		return nil
	})
}
