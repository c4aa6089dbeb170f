using System.Collections.Generic;
using Pulumi;
using CloudDb = PulumiCloudDb.CloudDb;

return await Deployment.RunAsync(() =>
{
    var config = new Config();
    var preview = new CloudDb.Branch("preview", new CloudDb.BranchArgs
    {
        ProjectId = config.Require("projectId"),
        Name = "preview",
        InitSource = CloudDb.InitSource.Schema_only,
        Ttl = "7d",
        Endpoints =
        {
            new CloudDb.Inputs.BranchEndpointSpecArgs { Type = CloudDb.EndpointType.Read_write },
        },
    });

    return new Dictionary<string, object?>
    {
        ["branchId"] = preview.BranchId,
        ["databaseUrl"] = preview.ConnectionUri, // a secret
    };
});
