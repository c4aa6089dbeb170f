package myproject;

import com.pulumi.Pulumi;
import io.github.pulumiclouddb.clouddb.Role;
import io.github.pulumiclouddb.clouddb.RoleArgs;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var config = ctx.config();
            var app = new Role("app", RoleArgs.builder()
                .projectId(config.require("projectId"))
                .branchId(config.require("branchId"))
                .passwordResetTrigger("2026-11") // change it to reset the password
                .build());
            ctx.export("roleName", app.name());
            ctx.export("password", app.password()); // a secret
        });
    }
}
