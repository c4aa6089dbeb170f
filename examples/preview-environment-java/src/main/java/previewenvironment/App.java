package previewenvironment;

import com.pulumi.Context;
import com.pulumi.Pulumi;
import com.pulumi.core.TypeShape;
import com.pulumi.resources.CustomResourceOptions;
import com.pulumi.core.Output;
import io.github.pulumiclouddb.clouddb.Branch;
import io.github.pulumiclouddb.clouddb.BranchArgs;
import io.github.pulumiclouddb.clouddb.BranchAuth;
import io.github.pulumiclouddb.clouddb.BranchAuthArgs;
import io.github.pulumiclouddb.clouddb.Bucket;
import io.github.pulumiclouddb.clouddb.BucketArgs;
import io.github.pulumiclouddb.clouddb.ClouddbFunctions;
import io.github.pulumiclouddb.clouddb.DataApi;
import io.github.pulumiclouddb.clouddb.DataApiArgs;
import io.github.pulumiclouddb.clouddb.Endpoint;
import io.github.pulumiclouddb.clouddb.EndpointArgs;
import io.github.pulumiclouddb.clouddb.Function;
import io.github.pulumiclouddb.clouddb.FunctionArgs;
import io.github.pulumiclouddb.clouddb.Role;
import io.github.pulumiclouddb.clouddb.RoleArgs;
import io.github.pulumiclouddb.clouddb.enums.InitSource;
import io.github.pulumiclouddb.clouddb.inputs.GetConnectionUriArgs;
import io.github.pulumiclouddb.clouddb.inputs.MaskingRuleArgs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The preview environment of ../preview-environment/, in Java, through the provider plugin.
 *
 * <p>One stack per pull request (see README.md next to this folder):
 * a branch of the project's default branch with its databases and their schema, none of their
 * rows (or, with {@code data: anonymized}, their rows with the columns of {@code maskingRules}
 * masked; with {@code data: full}, their rows as they are), and an expiry, so a forgotten preview
 * deletes itself; a role of the app's own on it, its name generated, made before the branch's
 * compute: a role made on a branch that has one starts an operation on it (see
 * docs/api-rules.md), one made before starts none; the compute (an Endpoint), which depends on the
 * role; DATABASE_URL, a secret output: that role on the branch's copy of databaseName; the rest of
 * the app's backend on the same branch: Auth (no settings declared: a branch made from one with
 * Auth starts with its settings; its own keys are secret outputs), the Data API on that database,
 * checking the branch's Auth tokens (its URL an output), a bucket for the app's uploads (a
 * preview's uploads go with it, so {@code forceDestroy} is on), and the app's API, a function
 * deployed from {@code api/} next to the pom.xml (a link to the TypeScript example's) with those
 * settings as its (secret) environment, its URL an output.
 *
 * <p>The role's name, the bucket's and the function's are generated with a mark of this stack, so
 * a run cancelled during any create is finished by the next {@code pulumi up}, with no step.
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
        // What the preview's data is: schema-only (no rows), anonymized or full (the default branch's rows).
        var data = config.get("data").orElse("schema-only");
        var initSource = Map.of(
            "schema-only", InitSource.Schemaonly,
            "anonymized", InitSource.Anonymized,
            "full", InitSource.Parentdata).get(data);
        if (initSource == null) {
            throw new IllegalArgumentException("data is schema-only, anonymized or full, not " + data);
        }

        var args = BranchArgs.builder()
            .projectId(projectId)
            .name("preview/pr-" + pullRequest)
            .initSource(initSource)
            .ttl(expiresInDays + "d");
        // No endpoints here: the compute is the Endpoint below, made once the role exists.
        if (initSource == InitSource.Anonymized) {
            // The columns masked, e.g. (Pulumi.<stack>.yaml)
            //   maskingRules: [{databaseName: neondb, tableName: users, columnName: email, maskingFunction: "anon.fake_email()"}]
            TypeShape<List<Map<String, String>>> shape = TypeShape.<List<Map<String, String>>>builder(List.class)
                .addParameter(TypeShape.map(String.class, String.class))
                .build();
            args.maskingRules(maskingRules(config.getObject("maskingRules", shape).orElse(List.of())));
        }
        var branch = new Branch("preview", args.build());

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

        var databaseUrl = connection.applyValue(result -> result.uri());

        // Auth on the preview's branch. No settings declared: the branch starts with the default
        // branch's (trusted domains, OAuth providers, email); declare one to give previews their own.
        var auth = new BranchAuth("auth", BranchAuthArgs.builder()
            .projectId(projectId)
            .branchId(branch.branchId())
            .databaseName(databaseName)
            .build());

        // The Data API serves the branch's read_write compute and checks tokens of the branch's
        // Auth, so it is made once both exist.
        var dataApi = new DataApi("data-api", DataApiArgs.builder()
            .projectId(projectId)
            .branchId(branch.branchId())
            .databaseName(databaseName)
            .build(), CustomResourceOptions.builder().dependsOn(compute, auth).build());

        // The app's uploads. No name: a generated one carries this stack's mark. The branch starts
        // with the parent's buckets too; this one is the preview's own.
        var uploads = new Bucket("uploads", BucketArgs.builder()
            .projectId(projectId)
            .branchId(branch.branchId())
            .forceDestroy(true)
            .build());

        // The app's API: the files of api/ (a path from this folder, where Pulumi runs the
        // program), deployed again when one changes or a setting below does. No slug: a generated
        // one carries this stack's mark. The environment is a secret: DATABASE_URL's password is in it.
        var environment = Output.tuple(databaseUrl, auth.jwksUrl(), dataApi.url(), uploads.name())
            .applyValue(settings -> Map.of(
                "DATABASE_URL", settings.t1,
                "AUTH_JWKS_URL", settings.t2,
                "DATA_API_URL", settings.t3,
                "BUCKET", settings.t4))
            .asSecret();
        var api = new Function("api", FunctionArgs.builder()
            .projectId(projectId)
            .branchId(branch.branchId())
            .source("api")
            .environment(environment)
            .build());

        ctx.export("branchId", branch.branchId());
        ctx.export("expiresAt", branch.expiresAt());
        ctx.export("roleName", role.name());
        ctx.export("DATABASE_URL", databaseUrl);
        ctx.export("AUTH_BASE_URL", auth.baseUrl());
        ctx.export("AUTH_JWKS_URL", auth.jwksUrl());
        // Secret outputs: `pulumi stack output --show-secrets AUTH_SECRET_KEY`.
        ctx.export("AUTH_PUBLISHABLE_KEY", auth.pubClientKey());
        ctx.export("AUTH_SECRET_KEY", auth.secretServerKey());
        ctx.export("DATA_API_URL", dataApi.url());
        ctx.export("BUCKET", uploads.name());
        ctx.export("API_URL", api.invocationUrl());
    }

    /** The rules as the config gives them ({@code databaseName}, {@code tableName}, ... of each). */
    static List<MaskingRuleArgs> maskingRules(List<Map<String, String>> rules) {
        var out = new ArrayList<MaskingRuleArgs>();
        for (var rule : rules) {
            var builder = MaskingRuleArgs.builder()
                .databaseName(rule.get("databaseName"))
                .tableName(rule.get("tableName"))
                .columnName(rule.get("columnName"));
            if (rule.get("schemaName") != null) builder.schemaName(rule.get("schemaName"));
            if (rule.get("maskingFunction") != null) builder.maskingFunction(rule.get("maskingFunction"));
            if (rule.get("maskingValue") != null) builder.maskingValue(rule.get("maskingValue"));
            out.add(builder.build());
        }
        return out;
    }
}
