import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import { DEMO } from "../../emulator";
import { storedName } from "../../provider/resources/credential";
import { forgetFirstListings } from "../../provider/resources/lifecycle/firstListings";
import {
  type CredentialInputs,
  type CredentialOutputs,
  credentialProvider,
} from "../../provider/resources/public/credential";
import { PROVIDER_TEXT, useEmulator } from "./support";

// A branch's scoped service credential against the emulator (docs/api-rules.md §25): issued with
// one POST and its secrets kept as outputs; refreshed from the branch's list, gone once revoked
// elsewhere; replaced by any change, create-before-revoke for a rotation; a killed run's
// credential taken with its secrets revealed; imported and adopted with its secrets.

const P = DEMO.projectId;
const B = DEMO.branchId;
const BASE = `/projects/${P}/branches/${B}/credentials`;
const URN = "urn:pulumi:dev::app::pulumi-nodejs:dynamic/clouddb:Credential::uploads";

describe("Credential against the emulator", () => {
  const harness = useEmulator({ clock: "manual" });
  const control = () => harness.emulator.control;
  beforeEach(() => control().clearRequests());

  const inputs = (values: Partial<CredentialInputs> = {}): CredentialInputs =>
    ({
      projectId: P,
      branchId: B,
      name: "uploads",
      scopes: ["storage:read", "storage:write"],
      ...values,
      __provider: PROVIDER_TEXT,
    }) as CredentialInputs;
  /** Inputs as the engine passes a new resource to `check`: with its URN. */
  const owned = (values: Partial<CredentialInputs>) =>
    ({ ...inputs(values), __owner: URN }) as CredentialInputs;
  /** The inputs `check` gives the resource (with its create key). */
  const checked = async (values: Partial<CredentialInputs> = {}) => {
    const result = await credentialProvider.check!({} as CredentialInputs, owned(values));
    assert.deepEqual(result.failures ?? [], []);
    return result.inputs as CredentialInputs;
  };
  const live = () =>
    control()
      .dumpState()
      .branches.find((b) => b.id === B)?.credentials ?? [];
  const create = async (values: Partial<CredentialInputs> = {}) => {
    const made = await credentialProvider.create(inputs(values));
    return { id: made.id, outs: made.outs as CredentialOutputs };
  };
  /** Revokes a credential as another tool would. */
  const revokeOutside = async (tokenId: string) => {
    const reply = await fetch(`${harness.emulator.url}${BASE}/${tokenId}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${DEMO.personalKey}` },
    });
    assert.equal(reply.status, 204);
  };

  it("issues the credential with one POST, its secrets as outputs, and revokes it on delete", async () => {
    const { id, outs } = await create();
    assert.equal(id, outs.tokenId);
    assert.match(outs.tokenId, /^nak_live_/);
    const stored = live().find((c) => c.token_id === id);
    assert.deepEqual(
      [outs.apiToken, outs.s3SecretAccessKey, outs.scopes, outs.name],
      [stored?.api_token, stored?.s3_secret_access_key, ["storage:read", "storage:write"], "uploads"],
    );
    assert.deepEqual(harness.writes(), [`POST ${BASE}`]);
    await credentialProvider.delete!(id, outs);
    assert.ok(live().find((c) => c.token_id === id)?.revoked_at_ms !== undefined);
    await credentialProvider.delete!(id, outs);
  });

  it("refreshes from the branch's list, keeping the secrets of the state; revoked elsewhere it is gone", async () => {
    const { id, outs } = await create();
    const read = await credentialProvider.read!(id, outs);
    assert.deepEqual(read.props, outs);
    await revokeOutside(id);
    const gone = await credentialProvider.read!(id, outs);
    assert.equal(gone.id, "", "a revoked credential leaves the state");
  });

  it("replaces on any change: a rotation issues the new credential before the old one is revoked", async () => {
    const { id, outs } = await create({ rotationTrigger: "1" });
    for (const change of [
      { rotationTrigger: "2" },
      { scopes: ["functions:invoke" as const] },
      { name: "other" },
    ]) {
      const diff = await credentialProvider.diff!(id, outs, inputs({ rotationTrigger: "1", ...change }));
      assert.deepEqual([diff.changes, diff.deleteBeforeReplace], [true, false]);
      assert.deepEqual(diff.replaces, Object.keys(change));
    }
    control().clearRequests();
    // What the engine does for the replace: create the new credential, then delete the old one.
    const fresh = await create({ rotationTrigger: "2" });
    await credentialProvider.delete!(id, outs);
    assert.deepEqual(harness.writes(), [`POST ${BASE}`, `DELETE ${BASE}/${id}`]);
    assert.notEqual(fresh.outs.apiToken, outs.apiToken);
    assert.deepEqual(
      live()
        .filter((c) => c.revoked_at_ms === undefined)
        .map((c) => c.token_id),
      [fresh.id],
    );
  });

  it("takes the credential a killed run issued, with its secrets revealed, and issues no second one", async () => {
    const news = await checked();
    const first = (await credentialProvider.create(news)).outs as CredentialOutputs;
    assert.equal(
      live().find((c) => c.token_id === first.tokenId)?.name,
      storedName("uploads", (news as unknown as Record<string, string>)["__createKey"]),
    );
    // The next run: a new provider process, whose state never heard of the first create.
    forgetFirstListings();
    control().clearRequests();
    const again = (await credentialProvider.create(news)).outs as CredentialOutputs;
    assert.deepEqual(
      [again.tokenId, again.apiToken, again.s3SecretAccessKey, again.name],
      [first.tokenId, first.apiToken, first.s3SecretAccessKey, "uploads"],
    );
    assert.deepEqual(harness.writes(), [`POST ${BASE}/${first.tokenId}/reveal`]);
  });

  it("imports a live credential with its secrets; a revoked or unknown one is not found", async () => {
    const { id, outs } = await create();
    const imported = await credentialProvider.read!(
      `${P}/${B}/${id}`,
      undefined as unknown as CredentialOutputs,
    );
    assert.deepEqual(
      [imported.id, imported.props?.apiToken, imported.props?.name, imported.props?.scopes],
      [id, outs.apiToken, "uploads", outs.scopes],
    );
    await revokeOutside(id);
    const none = await credentialProvider.read!(`${P}/${B}/${id}`, undefined as unknown as CredentialOutputs);
    assert.equal(none.id, "");
  });

  it("adopts a live credential whose label and scopes match, and refuses one whose scopes differ", async () => {
    const { id, outs } = await create();
    control().clearRequests();
    const adopted = await credentialProvider.create(inputs({ adoptExisting: id }));
    assert.deepEqual([adopted.id, (adopted.outs as CredentialOutputs).apiToken], [id, outs.apiToken]);
    assert.deepEqual(harness.writes(), [`POST ${BASE}/${id}/reveal`], "nothing issued");
    await assert.rejects(
      credentialProvider.create(inputs({ adoptExisting: id, scopes: ["functions:invoke"] })),
      /adoptExisting: credential \S+ has scopes/,
    );
  });

  it("refuses inputs the service would refuse, naming the input", async () => {
    const failures = async (values: Record<string, unknown>) =>
      (
        (await credentialProvider.check!({} as CredentialInputs, owned(values as Partial<CredentialInputs>)))
          .failures ?? []
      ).map((f: pulumi.dynamic.CheckFailure) => `${f.property}: ${f.reason}`);
    assert.match(
      (await failures({ scopes: [] })).join(),
      /scopes: scopes needs at least one of storage:read/,
    );
    assert.match((await failures({ scopes: ["storage:admin"] })).join(), /each scope is one of/);
    assert.match((await failures({ branchId: "main" })).join(), /branchId must be a branch id, br-/);
  });
});
