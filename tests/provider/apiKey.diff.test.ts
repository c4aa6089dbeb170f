import assert from "node:assert/strict";
import { apiKeyDefinition } from "../../provider/resources/apiKey";
import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import {
  type ApiKeyInputs,
  type ApiKeyOutputs,
  apiKeyProvider,
} from "../../provider/resources/public/apiKey";
import { PROVIDER_TEXT } from "./support";

// One test per row of apiKeyDefinition.changes. diff never calls the API (no client is configured here).

const OLDS: ApiKeyOutputs = {
  name: "ci",
  orgId: "org-quiet-forest-27188409",
  projectId: "winter-boat-25988145",
  rotationTrigger: "r1",
  keyId: 7,
  key: `napi_${"k".repeat(64)}`,
  kind: "project",
  createdAt: "2025-11-20T10:00:00Z",
  createdBy: "user-1",
  lastUsedAt: null,
  lastUsedFromAddr: null,
  revoked: false,
};

function same(): ApiKeyInputs {
  return {
    name: OLDS.name,
    orgId: OLDS.orgId!,
    projectId: OLDS.projectId!,
    rotationTrigger: OLDS.rotationTrigger!,
    __provider: PROVIDER_TEXT,
  } as ApiKeyInputs;
}

const ROW_CASES: Record<keyof typeof apiKeyDefinition.changes, Partial<ApiKeyInputs>> = {
  name: { name: "ci-2" },
  orgId: { orgId: "org-other-00000000" },
  projectId: { projectId: "hidden-river-50598307" },
  rotationTrigger: { rotationTrigger: "r2" },
};

describe("ApiKey diff (apiKeyDefinition.changes)", () => {
  const diff = (news: ApiKeyInputs) => apiKeyProvider.diff!(String(OLDS.keyId), OLDS, news);

  it("has a test case for every row of the table", () => {
    assert.deepEqual(Object.keys(ROW_CASES).sort(), Object.keys(apiKeyDefinition.changes).sort());
  });

  it("reports no change for the same inputs", async () => {
    assert.deepEqual(await diff(same()), { changes: false, replaces: [], deleteBeforeReplace: false });
  });

  for (const [input, change] of Object.entries(apiKeyDefinition.changes)) {
    it(`${change}s on a change of ${input}, creating the new key before revoking the old`, async () => {
      const result = await diff({ ...same(), ...ROW_CASES[input as keyof typeof apiKeyDefinition.changes] });
      assert.deepEqual(result, { changes: true, replaces: [input], deleteBeforeReplace: false });
    });
  }

  it("replaces when an input is removed (the key's kind changes)", async () => {
    const news = same();
    delete news.rotationTrigger;
    assert.deepEqual((await diff(news)).replaces, ["rotationTrigger"]);
  });

  it("replaces when an input is not known yet during preview", async () => {
    assert.deepEqual((await diff({ ...same(), name: UNKNOWN })).replaces, ["name"]);
  });
});
