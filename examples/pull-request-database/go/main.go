// A pull request's database as one resource: ../typescript/index.ts in Go. The SDK asks the
// engine for the component, which the provider plugin makes with its children.
package main

import (
	"github.com/pulumi-clouddb/pulumi-clouddb/sdk/go/clouddb"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		// The default branch's database the app uses; the preview's is a copy of its schema.
		databaseName := cfg.Get("databaseName")
		if databaseName == "" {
			databaseName = "neondb"
		}
		preview, err := clouddb.NewPreviewEnvironment(ctx, "preview", &clouddb.PreviewEnvironmentArgs{
			ProjectId:    pulumi.String(cfg.Require("projectId")),
			Name:         pulumi.String("preview/pr-" + cfg.Require("pullRequest")),
			Ttl:          pulumi.String("72h"),
			DatabaseName: pulumi.String(databaseName),
			Migrations:   pulumi.String("migrations"),
			Runtime:      &clouddb.PreviewRuntimeArgs{Name: pulumi.String("app")},
		})
		if err != nil {
			return err
		}
		ctx.Export("branchId", preview.BranchId)
		ctx.Export("host", preview.Host)
		ctx.Export("expiresAt", preview.ExpiresAt)
		ctx.Export("appliedMigrations", preview.AppliedMigrations)
		ctx.Export("schemaDiff", preview.SchemaDiff)
		// Secrets: `pulumi stack output --show-secrets runtimeUri`.
		ctx.Export("runtimeUri", preview.RuntimeUri)
		ctx.Export("migrationUri", preview.MigrationUri)
		return nil
	})
}
