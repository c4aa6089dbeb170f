package myproject;

import com.pulumi.Pulumi;
import io.github.pulumiclouddb.clouddb.ApiKey;
import io.github.pulumiclouddb.clouddb.ApiKeyArgs;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var ci = new ApiKey("ci", ApiKeyArgs.builder()
                .name("ci-pipeline")
                .rotationTrigger("2026-11") // change it to rotate: the new key is made before the old one is revoked
                .build());
            ctx.export("ciKey", ci.key()); // a secret
        });
    }
}
