using System.Collections.Generic;
using Pulumi;
using CloudDb = PulumiCloudDb.CloudDb;

return await Deployment.RunAsync(() =>
{
    var config = new Config();
    var app = new CloudDb.Role("app", new CloudDb.RoleArgs
    {
        ProjectId = config.Require("projectId"),
        BranchId = config.Require("branchId"),
        PasswordResetTrigger = "2026-11", // change it to reset the password
    });

    return new Dictionary<string, object?>
    {
        ["roleName"] = app.Name,
        ["password"] = app.Password, // a secret
    };
});
