using System.Collections.Generic;
using Pulumi;
using CloudDb = PulumiCloudDb.CloudDb;

return await Deployment.RunAsync(() =>
{
    var config = new Config();
    var owner = new CloudDb.Role("orders-owner", new CloudDb.RoleArgs
    {
        ProjectId = config.Require("projectId"),
        BranchId = config.Require("branchId"),
    });
    var orders = new CloudDb.Database("orders", new CloudDb.DatabaseArgs
    {
        ProjectId = config.Require("projectId"),
        BranchId = config.Require("branchId"),
        OwnerName = owner.Name,
    });

    return new Dictionary<string, object?>
    {
        ["databaseName"] = orders.Name,
    };
});
