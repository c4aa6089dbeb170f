package myproject;

import com.pulumi.Pulumi;
import io.github.pulumiclouddb.clouddb.Endpoint;
import io.github.pulumiclouddb.clouddb.EndpointArgs;
import io.github.pulumiclouddb.clouddb.enums.EndpointType;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var replica = new Endpoint("replica", EndpointArgs.builder()
                .projectId(ctx.config().require("projectId"))
                .branchId(ctx.config().require("branchId"))
                .type(EndpointType.Read_only)
                .autoscalingLimitMinCu(0.25)
                .autoscalingLimitMaxCu(2.0)
                .build());
            ctx.export("host", replica.host());
            // Through the connection pooler: the same compute, `-pooler` in its host.
            ctx.export("pooledHost", replica.pooledHost());
        });
    }
}
