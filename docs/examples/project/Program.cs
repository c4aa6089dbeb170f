using System.Collections.Generic;
using Pulumi;
using CloudDb = PulumiCloudDb.CloudDb;

return await Deployment.RunAsync(() =>
{
    var project = new CloudDb.Project("app", new CloudDb.ProjectArgs
    {
        Name = "app",
        PgVersion = 17,
        DefaultEndpointSettings = new CloudDb.Inputs.ComputeSettingsArgs
        {
            AutoscalingLimitMinCu = 0.25,
            AutoscalingLimitMaxCu = 2,
            SuspendTimeoutSeconds = 300,
        },
        DeleteProtection = true,
    });

    return new Dictionary<string, object?>
    {
        ["defaultBranchId"] = project.DefaultBranchId,
        ["databaseUrl"] = project.ConnectionUri, // a secret
    };
});
