// A Go program on the generated SDK (sdk/go): the preview environment of examples/, declared in
// Go. The suite compiles it; no Go language host can be built here to run it.
package main

import (
	"github.com/pulumi-clouddb/pulumi-clouddb/sdk/go/clouddb"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		projectID := cfg.Require("projectId")
		branch, err := clouddb.NewBranch(ctx, "preview", &clouddb.BranchArgs{
			ProjectId:  pulumi.String(projectID),
			Name:       pulumi.String("preview/pr-" + cfg.Require("pullRequest")),
			InitSource: clouddb.InitSource_SCHEMA_ONLY,
			Ttl:        pulumi.String("7d"),
			Endpoints:  clouddb.BranchEndpointSpecArray{clouddb.BranchEndpointSpecArgs{Type: clouddb.EndpointType_READ_WRITE}},
		})
		if err != nil {
			return err
		}
		role, err := clouddb.NewRole(ctx, "app", &clouddb.RoleArgs{
			ProjectId: pulumi.String(projectID),
			BranchId:  branch.BranchId,
		})
		if err != nil {
			return err
		}
		uri := clouddb.GetConnectionUriOutput(ctx, clouddb.GetConnectionUriOutputArgs{
			ProjectId:    pulumi.String(projectID),
			BranchId:     branch.BranchId,
			DatabaseName: pulumi.String("neondb"),
			RoleName:     role.Name,
		})
		ctx.Export("DATABASE_URL", uri.Uri())
		return nil
	})
}
