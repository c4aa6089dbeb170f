package previewenvironment;

import com.pulumi.Context;
import com.pulumi.Pulumi;
import com.pulumi.resources.CustomResourceOptions;
import io.github.pulumiclouddb.clouddb.Branch;
import io.github.pulumiclouddb.clouddb.BranchArgs;
import io.github.pulumiclouddb.clouddb.ClouddbFunctions;
import io.github.pulumiclouddb.clouddb.Endpoint;
import io.github.pulumiclouddb.clouddb.EndpointArgs;
import io.github.pulumiclouddb.clouddb.Role;
import io.github.pulumiclouddb.clouddb.RoleArgs;
import io.github.pulumiclouddb.clouddb.enums.InitSource;
import io.github.pulumiclouddb.clouddb.inputs.GetConnectionUriArgs;

/**
 * The preview environment of ../preview-environment/, in Java, through the provider plugin.
 *
 * <p>One stack per pull request (see README.md next to this folder):
 * a branch of the project's default branch with its databases and their schema, none of their
 * rows, and an expiry, so a forgotten preview deletes itself; a role of the app's own on it, its
 * name generated (a run cancelled during any create is finished by the next {@code pulumi up},
 * with no step), made before the branch's compute: a role made on a branch that has one starts an
 * operation on it (see docs/api-rules.md), one made before starts none; the compute (an Endpoint),
 * which depends on the role; DATABASE_URL, a secret output: that role on the branch's copy of databaseName.
 */
public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    static void stack(Context ctx) {
        var config = ctx.config();
        var projectId = config.require("projectId");
        var pullRequest = config.require("pullRequest");
        var expiresInDays = config.getInteger("expiresInDays").orElse(7);
        // The default branch's database the app uses: the branch holds a copy of its schema.
        var databaseName = config.get("databaseName").orElse("neondb");

        var branch = new Branch("preview", BranchArgs.builder()
            .projectId(projectId)
            .name("preview/pr-" + pullRequest)
            .initSource(InitSource.Schemaonly)
            .ttl(expiresInDays + "d")
            // No endpoints here: the compute is the Endpoint below, made once the role exists.
            .build());

        // No name: it is generated (`app_` and a mark of this stack), the same on every run.
        var role = new Role("app", RoleArgs.builder()
            .projectId(projectId)
            .branchId(branch.branchId())
            .build());

        // The branch's read_write compute, made after the role: the branch runs two operations in
        // all, create_branch then start_compute.
        var compute = new Endpoint("compute", EndpointArgs.builder()
            .projectId(projectId)
            .branchId(branch.branchId())
            .build(), CustomResourceOptions.builder().dependsOn(role).build());

        // Runs once the role and the compute exist: at preview, one still to be created makes it
        // unknown.
        var connection = ClouddbFunctions.getConnectionUri(GetConnectionUriArgs.builder()
            .projectId(projectId)
            .branchId(branch.branchId())
            .endpointId(compute.endpointId())
            .databaseName(databaseName)
            .roleName(role.name())
            .build());

        ctx.export("branchId", branch.branchId());
        ctx.export("expiresAt", branch.expiresAt());
        ctx.export("roleName", role.name());
        ctx.export("DATABASE_URL", connection.applyValue(result -> result.uri()));
    }
}
