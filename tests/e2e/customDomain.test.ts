// Custom domains on a branch through the real engine (docs/api-rules.md §25). In TypeScript: `up`
// killed (SIGKILL of the CLI and the provider) after the service registered the domain and before its
// answer reached the provider; the next unattended `up` registers it again and gets the same domain,
// so the branch has it once; then a preview and a refresh with no change, a new domain (nothing
// changes in place: it replaces, the new one registered before the old one is removed), and a destroy
// that leaves no domain. In YAML through the provider plugin: one registered outside Pulumi imported,
// another declared as it is taken by `up`; destroy removes both.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator } from "../../emulator";
import { createClient } from "../../provider/client";
import { call } from "../emulator/helpers";
import { type Declared, declareResources, useCrashFixture } from "./support/crashFixture";
import { nextRun, upKilledThenRerun } from "./support/kill";
import { useDemoBranchYaml } from "./support/programStack";
import { assertNothingToChange, changesOf, collect, mutatingRequests } from "./support/stack";

const P = DEMO.projectId;
const B = DEMO.branchId;
const REGISTER = "POST /projects/{project_id}/branches/{branch_id}/custom-domains";
const REMOVE = "DELETE /projects/{project_id}/branches/{branch_id}/custom-domains/{domain}";

/** Makes the branch's functions `slugs`, which the domains route to (a slug the branch lacks is refused at preview). */
async function functionsOn(emulator: RunningEmulator, slugs: readonly string[]): Promise<void> {
  const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
  for (const slug of slugs)
    await client.deployFunction(P, B, slug, { zip: Buffer.from("PK\u0003\u0004 site") });
}

/** The branch's custom domains and what each routes to, as the emulator holds them. */
const domains = (emulator: RunningEmulator) =>
  (emulator.control.dumpState().branches.find((b) => b.id === B)?.custom_domains ?? []).map(
    (d) => `${d.domain} -> ${d.entity_id}`,
  );

describe("e2e: a custom domain converges after a killed create, is replaced by a new one, and destroy leaves none", function () {
  this.timeout(8 * 60 * 1000);
  const suite = useCrashFixture("crash-custom-domain");
  const declared = (domain: string): Declared[] => [
    {
      kind: "CustomDomain",
      res: "site",
      args: { projectId: P, branchId: B, domain, entityType: "function", entityId: "web" },
    },
  ];

  it("kills up once the domain is registered and its answer held; the next up gets the same domain, registered once", async () => {
    const { emulator, e2e } = suite;
    await functionsOn(emulator, ["web"]);
    await declareResources(e2e, declared("App.Example.com"));
    emulator.control.failNext(REGISTER, { holdMs: 60_000 });
    await upKilledThenRerun(e2e, { killWhen: () => domains(emulator).length === 1, killAfterMs: 300 }, () =>
      emulator.control.clearFaults(),
    );
    assert.deepEqual(domains(emulator), ["app.example.com -> web"]);
  });

  it("previews and refreshes with no change; nothing updates in place, so a new domain replaces it, registered before the old is removed", async () => {
    const { emulator, e2e } = suite;
    await assertNothingToChange(emulator, e2e, 2);
    await declareResources(e2e, declared("www.example.com"));
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changesOf(up).replace, 1, e2e.output.join("\n"));
    assert.deepEqual(
      mutatingRequests(emulator).map((r) => r.route),
      [REGISTER, REMOVE],
    );
    assert.deepEqual(domains(emulator), ["www.example.com -> web"]);
  });

  it("destroy removes it: the branch has no custom domain", async () => {
    const { emulator, e2e } = suite;
    const run = await nextRun(e2e, "destroy");
    assert.equal(run.code, 0, run.output);
    assert.deepEqual(domains(emulator), []);
  });
});

describe("e2e: custom domains imported and taken into a YAML program through the plugin", function () {
  this.timeout(8 * 60 * 1000);
  const suite = useDemoBranchYaml("custom-domain-yaml");

  it("imports one, takes the other on up with the same registration; previews and refreshes with no change; destroy removes both", async () => {
    const { emulator, e2e } = suite;
    await functionsOn(emulator, ["docs", "web"]);
    for (const [domain, entity_id] of [
      ["docs.example.com", "docs"],
      ["app.example.com", "web"],
    ]) {
      const made = await call(emulator.url, "POST", `/projects/${P}/branches/${B}/custom-domains`, {
        key: DEMO.personalKey,
        body: { domain, entity_type: "function", entity_id },
      });
      assert.ok(made.status < 300, made.text);
    }
    const imported = await e2e.stack.import({
      resources: [{ type: "clouddb:index:CustomDomain", name: "docs", id: `${P}/${B}/docs.example.com` }],
      generateCode: false,
      ...collect(e2e.output),
    });
    assert.equal(imported.summary.resourceChanges?.import, 1, e2e.output.join("\n"));
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changesOf(up).create, 1, e2e.output.join("\n"));
    assert.deepEqual(domains(emulator), ["docs.example.com -> docs", "app.example.com -> web"], "no other");
    assert.match(String(up.outputs.appCnameTarget?.value), new RegExp(`^${B}\\.domains\\.`));

    await assertNothingToChange(emulator, e2e, 3);
    await e2e.stack.destroy(collect(e2e.output));
    assert.deepEqual(domains(emulator), []);
  });
});
