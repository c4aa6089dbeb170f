using System.Collections.Generic;
using Pulumi;
using CloudDb = PulumiCloudDb.CloudDb;

return await Deployment.RunAsync(() =>
{
    var config = new Config();
    var replica = new CloudDb.Endpoint("replica", new CloudDb.EndpointArgs
    {
        ProjectId = config.Require("projectId"),
        BranchId = config.Require("branchId"),
        Type = CloudDb.EndpointType.Read_only,
        AutoscalingLimitMinCu = 0.25,
        AutoscalingLimitMaxCu = 2,
    });

    return new Dictionary<string, object?>
    {
        ["host"] = replica.Host,
        // Through the connection pooler: the same compute, `-pooler` in its host.
        ["pooledHost"] = replica.PooledHost,
    };
});
