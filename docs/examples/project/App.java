package myproject;

import com.pulumi.Pulumi;
import io.github.pulumiclouddb.clouddb.Project;
import io.github.pulumiclouddb.clouddb.ProjectArgs;
import io.github.pulumiclouddb.clouddb.inputs.ComputeSettingsArgs;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var project = new Project("app", ProjectArgs.builder()
                .name("app")
                .pgVersion(17)
                .defaultEndpointSettings(ComputeSettingsArgs.builder()
                    .autoscalingLimitMinCu(0.25)
                    .autoscalingLimitMaxCu(2.0)
                    .suspendTimeoutSeconds(300)
                    .build())
                .deleteProtection(true)
                .build());
            ctx.export("defaultBranchId", project.defaultBranchId());
            ctx.export("databaseUrl", project.connectionUri()); // a secret
        });
    }
}
