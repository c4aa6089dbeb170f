// The data sources as provider functions under the real engine: a YAML program invokes getProjects
// and getConnectionUri on the default provider and on an explicit one holding another account's
// key. Each lists its own account's projects, and the connection strings reach the program as
// secrets: encrypted in the state, never printed. Lookups find a branch by name, its read-write
// compute and a role, whose connection string the program exports; a name that is not there fails
// the preview, naming it.
import * as assert from "node:assert/strict";
import type { OutputMap } from "@pulumi/pulumi/automation";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { fixture, programStack } from "./support/programStack";
import { collect, type E2eStack, isEncryptedSecret } from "./support/stack";

/** A connection string with its password in plain text. */
const PLAIN_URI = /postgres(?:ql)?:\/\/[^:\s"]+:[^@\s"]+@/;

/** The outputs of a program's lookups: the branch found by name, its compute, their connection string (a secret). */
function assertFound({ branchId, computeHost, foundUri }: OutputMap): void {
  assert.equal(branchId?.value, DEMO.branchId, "getBranch found the branch by its name");
  assert.match(
    String(computeHost?.value),
    new RegExp(`^${DEMO.endpointId}\\.`),
    "getEndpoint found its compute",
  );
  assert.match(
    String(foundUri?.value),
    new RegExp(`@${DEMO.endpointId}\\.`),
    "the lookups' connection string",
  );
  assert.equal(foundUri?.secret, true, "the connection string is a secret output");
}

/** With a branch name the project lacks, the preview fails naming it and the branches there are; returns what it printed. */
async function previewOfMissingBranchName(e2e: E2eStack): Promise<string[]> {
  await e2e.stack.setConfig("branchName", { value: "mian" });
  const refused = await e2e.stack.preview(collect(e2e.output)).then(
    () => undefined,
    (e: Error) => e,
  );
  const printed = [...e2e.output];
  assert.ok(refused, "the preview of a missing branch name failed");
  assert.match(
    `${printed.join("\n")}\n${refused.message}`,
    /getBranch: project hidden-river-50598307 has no branch with name "mian" \(its branches: "main"\)/,
  );
  await e2e.stack.setConfig("branchName", { value: "main" });
  return printed;
}

describe("e2e: provider functions invoked from a YAML program, through the provider plugin", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 50 });
    e2e = await programStack({
      copyOf: fixture("plugin-functions-yaml"),
      emulator,
      language: "yaml",
      config: {
        apiUrl: emulator.url,
        projectId: DEMO.projectId,
        memberProjectId: DEMO.memberProjectId,
        branchName: "main",
      },
      secrets: { memberApiKey: DEMO.memberPersonalKey },
    });
  });
  after(async () => {
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("answers each provider with its account's projects and its connection strings as secrets", async () => {
    const printed: string[] = [];
    const up = await e2e.stack.up(collect(e2e.output));
    printed.push(...e2e.output);
    const log = e2e.output.join("\n");
    const ids = (value: unknown) => ((value ?? []) as { id: string }[]).map((p) => p.id);
    const { projects, memberProjects, uri, memberUri, foundUri } = up.outputs;

    assert.ok(ids(projects?.value).includes(DEMO.projectId), log);
    assert.ok(!ids(projects?.value).includes(DEMO.memberProjectId), "the default provider uses its own key");
    assert.ok(ids(memberProjects?.value).includes(DEMO.memberProjectId), log);
    assert.ok(!ids(memberProjects?.value).includes(DEMO.projectId), "the explicit provider uses its key");
    const calls = emulator.control.requests({ route: "GET /projects" });
    assert.deepEqual(
      [...new Set(calls.map((r) => r.keyId))].sort(),
      [DEMO.personalKeyId, DEMO.memberPersonalKeyId].sort(),
      "each provider listed with its own key",
    );

    assertFound(up.outputs);
    for (const [name, output] of [
      ["uri", uri],
      ["memberUri", memberUri],
      ["foundUri", foundUri],
    ] as const) {
      assert.equal(output?.secret, true, `${name} is a secret stack output`);
      assert.match(String(output?.value), PLAIN_URI, `${name} is the connection string`);
    }
    assert.notEqual(uri?.value, memberUri?.value, "each provider read its own project's connection string");

    const state = JSON.parse(e2e.rawState()) as {
      checkpoint: { latest: { resources: { type: string; outputs?: Record<string, unknown> }[] } };
    };
    const stackOutputs = state.checkpoint.latest.resources.find(
      (r) => r.type === "pulumi:pulumi:Stack",
    )?.outputs;
    assert.ok(isEncryptedSecret(stackOutputs?.uri), JSON.stringify(stackOutputs?.uri));
    assert.ok(isEncryptedSecret(stackOutputs?.memberUri), JSON.stringify(stackOutputs?.memberUri));
    assert.doesNotMatch(e2e.rawState(), PLAIN_URI, "a password is in the state in plain text");

    printed.push(...(await previewOfMissingBranchName(e2e)));

    await e2e.stack.destroy(collect(e2e.output));
    printed.push(...e2e.output);
    assert.ok(!printed.some((line) => PLAIN_URI.test(line)), "a password is in the CLI's output");
    for (const key of [DEMO.personalKey, DEMO.memberPersonalKey]) {
      assert.ok(!printed.some((line) => line.includes(key)), "a key is in the CLI's output");
    }
  });
});

describe("e2e: lookups from a Python program, through the provider plugin", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 50 });
    e2e = await programStack({
      copyOf: fixture("lookups-python"),
      emulator,
      language: "python",
      config: { projectId: DEMO.projectId, branchName: "main" },
    });
  });
  after(async () => {
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("finds the branch by name, its compute and a role, exports their connection string, and fails the preview of a name not there", async () => {
    const up = await e2e.stack.up(collect(e2e.output));
    const printed = [...e2e.output];
    assertFound(up.outputs);
    assert.doesNotMatch(e2e.rawState(), PLAIN_URI, "a password is in the state in plain text");
    printed.push(...(await previewOfMissingBranchName(e2e)));
    assert.ok(!printed.some((line) => PLAIN_URI.test(line)), "a password is in the CLI's output");
  });
});
