import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import {
  type CustomDomainInputs,
  type CustomDomainOutputs,
  customDomainProvider,
} from "../../provider/resources/public/customDomain";
import { PROVIDER_TEXT, useEmulator } from "./support";

// A custom domain on a branch against the emulator (docs/api-rules.md §25): registered with one
// POST, its CNAME target and checks as outputs; a create after a killed run registers it again and
// gets the same domain; refreshed from the branch's list, gone once removed elsewhere; a new domain
// registered before the old one is removed, the same domain for another entity removed first;
// imported by its domain.

const P = DEMO.projectId;
const B = DEMO.branchId;
const BASE = `/projects/${P}/branches/${B}/custom-domains`;

describe("CustomDomain against the emulator", () => {
  const harness = useEmulator({ clock: "manual" });
  const control = () => harness.emulator.control;
  beforeEach(() => control().clearRequests());
  afterEach(async () => {
    for (const d of control()
      .dumpState()
      .branches.find((b) => b.id === B)?.custom_domains ?? [])
      await fetch(`${harness.emulator.url}${BASE}/${d.domain}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${DEMO.personalKey}` },
      });
  });

  const inputs = (values: Partial<CustomDomainInputs> = {}): CustomDomainInputs =>
    ({
      projectId: P,
      branchId: B,
      domain: "App.Example.com",
      entityType: "function",
      entityId: "web",
      ...values,
      __provider: PROVIDER_TEXT,
    }) as CustomDomainInputs;
  const domains = () =>
    (
      control()
        .dumpState()
        .branches.find((b) => b.id === B)?.custom_domains ?? []
    ).map((d) => [d.domain, d.entity_id]);

  it("registers with one POST, its CNAME target and checks as outputs; again (a killed run) it gets the same domain", async () => {
    const made = await customDomainProvider.create(inputs());
    const outs = made.outs as CustomDomainOutputs;
    assert.equal(made.id, `${P}/${B}/app.example.com`);
    assert.deepEqual(
      [outs.domain, outs.cnameTarget, outs.status, outs.dnsStatus],
      ["app.example.com", `${B}.domains.us-east-2.aws.clouddb.local`, "pending", "pending"],
    );
    assert.deepEqual(harness.writes(), [`POST ${BASE}`]);
    const again = await customDomainProvider.create(inputs());
    assert.equal(again.id, made.id);
    assert.deepEqual(domains(), [["app.example.com", "web"]]);
    await customDomainProvider.delete!(made.id, outs);
    assert.deepEqual(domains(), []);
  });

  it("refreshes from the branch's list; removed elsewhere it is gone", async () => {
    const made = await customDomainProvider.create(inputs());
    const outs = made.outs as CustomDomainOutputs;
    const read = (await customDomainProvider.read!(made.id, outs)).props as CustomDomainOutputs;
    assert.deepEqual(
      [read.domain, read.entityId, read.cnameTarget, read.status],
      [outs.domain, "web", outs.cnameTarget, "pending"],
    );
    await fetch(`${harness.emulator.url}${BASE}/app.example.com`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${DEMO.personalKey}` },
    });
    assert.equal((await customDomainProvider.read!(made.id, outs)).id, "");
  });

  it("replaces on any change: a new domain first, the same domain for another entity after removing it", async () => {
    const made = await customDomainProvider.create(inputs());
    const outs = made.outs as CustomDomainOutputs;
    const same = await customDomainProvider.diff!(made.id, outs, inputs({ domain: "app.example.com." }));
    assert.equal(same.changes, false, "domains compare as the service keeps them");
    const moved = await customDomainProvider.diff!(made.id, outs, inputs({ domain: "www.example.com" }));
    assert.deepEqual([moved.replaces, moved.deleteBeforeReplace], [["domain"], false]);
    const retargeted = await customDomainProvider.diff!(made.id, outs, inputs({ entityId: "api" }));
    assert.deepEqual([retargeted.replaces, retargeted.deleteBeforeReplace], [["entityId"], true]);
    await assert.rejects(customDomainProvider.create(inputs({ entityId: "api" })), /already registered/);
  });

  it("imports a domain by <projectId>/<branchId>/<domain>; an unknown one is not found", async () => {
    const made = await customDomainProvider.create(inputs());
    const imported = await customDomainProvider.read!(
      `${P}/${B}/APP.example.com`,
      undefined as unknown as CustomDomainOutputs,
    );
    assert.deepEqual([imported.id, imported.props?.entityId], [made.id, "web"]);
    const none = await customDomainProvider.read!(
      `${P}/${B}/none.example.com`,
      undefined as unknown as CustomDomainOutputs,
    );
    assert.equal(none.id, "");
  });
});
