package main

import (
	"github.com/pulumi-clouddb/pulumi-clouddb/sdk/go/clouddb"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		ci, err := clouddb.NewApiKey(ctx, "ci", &clouddb.ApiKeyArgs{
			Name:            pulumi.String("ci-pipeline"),
			RotationTrigger: pulumi.String("2026-11"), // change it to rotate: the new key is made before the old one is revoked
		})
		if err != nil {
			return err
		}
		ctx.Export("ciKey", ci.Key) // a secret
		return nil
	})
}
