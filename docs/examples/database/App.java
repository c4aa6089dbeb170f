package myproject;

import com.pulumi.Pulumi;
import io.github.pulumiclouddb.clouddb.Database;
import io.github.pulumiclouddb.clouddb.DatabaseArgs;
import io.github.pulumiclouddb.clouddb.Role;
import io.github.pulumiclouddb.clouddb.RoleArgs;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var projectId = ctx.config().require("projectId");
            var branchId = ctx.config().require("branchId");
            var owner = new Role("orders-owner", RoleArgs.builder()
                .projectId(projectId)
                .branchId(branchId)
                .build());
            var orders = new Database("orders", DatabaseArgs.builder()
                .projectId(projectId)
                .branchId(branchId)
                .ownerName(owner.name())
                .build());
            ctx.export("databaseName", orders.name());
        });
    }
}
