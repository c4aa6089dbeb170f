package myproject;

import com.pulumi.Pulumi;
import io.github.pulumiclouddb.clouddb.Branch;
import io.github.pulumiclouddb.clouddb.BranchArgs;
import io.github.pulumiclouddb.clouddb.enums.EndpointType;
import io.github.pulumiclouddb.clouddb.enums.InitSource;
import io.github.pulumiclouddb.clouddb.inputs.BranchEndpointSpecArgs;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var preview = new Branch("preview", BranchArgs.builder()
                .projectId(ctx.config().require("projectId"))
                .name("preview")
                .initSource(InitSource.Schemaonly)
                .ttl("7d")
                .endpoints(BranchEndpointSpecArgs.builder().type(EndpointType.Read_write).build())
                .build());
            ctx.export("branchId", preview.branchId());
            ctx.export("databaseUrl", preview.connectionUri()); // a secret
        });
    }
}
