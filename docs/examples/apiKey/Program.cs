using System.Collections.Generic;
using Pulumi;
using CloudDb = PulumiCloudDb.CloudDb;

return await Deployment.RunAsync(() =>
{
    var ci = new CloudDb.ApiKey("ci", new CloudDb.ApiKeyArgs
    {
        Name = "ci-pipeline",
        RotationTrigger = "2026-11", // change it to rotate: the new key is made before the old one is revoked
    });

    return new Dictionary<string, object?>
    {
        ["ciKey"] = ci.Key, // a secret
    };
});
