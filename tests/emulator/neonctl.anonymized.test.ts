import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { call } from "./helpers";
import { useNeonctl, useNeonctlOn } from "./neonctl-harness";

// The official CLI (neonctl, unchanged) on a project with an anonymized branch: its branch list
// labels the branch "[anon]" from the mark the service puts in the branch's annotation, and lists
// the others as before (docs/api-rules.md §16).

const PROJECT = DEMO.projectId;

describe("the official CLI (neonctl): an anonymized branch in the branch list", function () {
  this.timeout(120_000);
  const cli = useNeonctl({ seed: "demo" });
  const table = useNeonctlOn(() => cli.emu, { output: "table" });

  it("labels the anonymized branch [anon] in the table, and lists it with the others in JSON", async () => {
    const made = await call(cli.emu.url, "POST", `/projects/${PROJECT}/branch_anonymized`, {
      key: DEMO.personalKey,
      body: {
        branch_create: { branch: { name: "pr-anon" } },
        masking_rules: [
          {
            database_name: "neondb",
            schema_name: "public",
            table_name: "users",
            column_name: "email",
            masking_function: "anon.fake_email()",
          },
        ],
        annotation_value: { team: "web" },
      },
    });
    assert.equal(made.status, 201, made.text);
    const listed = await cli.ok("branches", "list", "--project-id", PROJECT);
    assert.ok(listed.some((b: { name: string }) => b.name === "pr-anon"));
    const text = String(await table.ok("branches", "list", "--project-id", PROJECT));
    assert.match(text, /\[anon\] pr-anon/);
    assert.doesNotMatch(text, /\[anon\][^\n]*\bmain\b/, "the default branch is not labelled");
    const read = await call(cli.emu.url, "GET", `/projects/${PROJECT}/branches/${made.body.branch.id}`, {
      key: DEMO.personalKey,
    });
    assert.deepEqual(
      read.body.annotation.value,
      { team: "web", anonymized: "true" },
      "the request's annotation is kept",
    );
  });
});
