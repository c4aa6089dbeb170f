package pullrequestdatabase;

import com.pulumi.Context;
import com.pulumi.Pulumi;
import io.github.pulumiclouddb.clouddb.PreviewEnvironment;
import io.github.pulumiclouddb.clouddb.PreviewEnvironmentArgs;
import io.github.pulumiclouddb.clouddb.inputs.PreviewRuntimeArgs;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A pull request's database as one resource: ../typescript/index.ts in Java, one stack per pull
 * request ({@code pr-<number>}). The SDK's class asks the engine for the component, which the
 * provider plugin makes with its children: a branch with the schema of the default branch's
 * databases and an expiry, the database's owner and the branch's compute, the {@code .sql} files of
 * {@code migrations/} applied in name order, each once, and {@code app}, the role the application
 * runs as, which reads and writes rows and cannot change the schema.
 */
public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    static void stack(Context ctx) {
        var config = ctx.config();
        var preview = new PreviewEnvironment("preview", PreviewEnvironmentArgs.builder()
            .projectId(config.require("projectId"))
            .name("preview/pr-" + config.require("pullRequest"))
            .ttl("72h")
            // The default branch's database the app uses; the preview's is a copy of its schema.
            .databaseName(config.get("databaseName").orElse("neondb"))
            // A path from this folder, where Pulumi runs the program.
            .migrations("migrations")
            .runtime(PreviewRuntimeArgs.builder().name("app").build())
            .build());

        ctx.export("branchId", preview.branchId());
        ctx.export("host", preview.host());
        ctx.export("expiresAt", preview.expiresAt());
        // A stack output holds plain values, not the SDK's output classes: each migration as a map
        // of its fields, as the other languages' outputs show it.
        ctx.export("appliedMigrations", preview.appliedMigrations().applyValue(applied -> applied.stream()
            .map(m -> Map.of("name", m.name(), "sha256", m.sha256(), "appliedAt", m.appliedAt()))
            .collect(Collectors.toList())));
        ctx.export("schemaDiff", preview.schemaDiff());
        // Secrets: `pulumi stack output --show-secrets runtimeUri`.
        ctx.export("runtimeUri", preview.runtimeUri());
        ctx.export("migrationUri", preview.migrationUri());
    }
}
