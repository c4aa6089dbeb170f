// A pull request's database as one resource: ../typescript/index.ts in C#. The SDK asks the engine
// for the component, which the provider plugin makes with its children.
using System.Collections.Generic;
using System.Linq;
using Pulumi;
using CloudDb = PulumiCloudDb.CloudDb;

return await Deployment.RunAsync(() =>
{
    var config = new Config();
    var preview = new CloudDb.PreviewEnvironment("preview", new CloudDb.PreviewEnvironmentArgs
    {
        ProjectId = config.Require("projectId"),
        Name = $"preview/pr-{config.Require("pullRequest")}",
        Ttl = "72h",
        // The default branch's database the app uses; the preview's is a copy of its schema.
        DatabaseName = config.Get("databaseName") ?? "neondb",
        Migrations = "migrations",
        Runtime = new CloudDb.Inputs.PreviewRuntimeArgs { Name = "app" },
    });

    return new Dictionary<string, object?>
    {
        ["branchId"] = preview.BranchId,
        ["host"] = preview.Host,
        ["expiresAt"] = preview.ExpiresAt,
        // A stack output holds plain values, not the SDK's output classes: each migration as a map.
        ["appliedMigrations"] = preview.AppliedMigrations.Apply(applied => applied
            .Select(m => new Dictionary<string, object?> { ["name"] = m.Name, ["sha256"] = m.Sha256, ["appliedAt"] = m.AppliedAt })
            .ToList()),
        ["schemaDiff"] = preview.SchemaDiff,
        // Secrets: `pulumi stack output --show-secrets runtimeUri`.
        ["runtimeUri"] = preview.RuntimeUri,
        ["migrationUri"] = preview.MigrationUri,
    };
});
