// A Python and a YAML program under the real Pulumi engine, through the language hosts
// tools/pulumi-cli/build.sh builds and the `pulumi` SDK in the venv tools/pulumi-cli/python-sdk.sh
// makes: `pulumi up` runs each program, `pulumi stack output` returns what it computed from the
// stack's config (a secret stored encrypted), `pulumi destroy` leaves the stack empty.
import * as assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { languagePath, type ProgramLanguage } from "./support/languages";
import { fixture, programStack } from "./support/programStack";
import { changesOf, collect, type E2eStack, isEncryptedSecret } from "./support/stack";

interface StateResource {
  type: string;
  outputs?: Record<string, unknown>;
}

const resourcesIn = (rawState: string): StateResource[] =>
  (JSON.parse(rawState) as { checkpoint: { latest?: { resources?: StateResource[] } } }).checkpoint.latest
    ?.resources ?? [];

for (const language of ["python", "yaml"] as const satisfies ProgramLanguage[]) {
  describe(`e2e: a ${language} program under the real Pulumi engine`, function () {
    this.timeout(10 * 60 * 1000);
    const token = randomBytes(8).toString("hex");
    let e2e: E2eStack;

    before(async () => {
      e2e = await programStack({
        copyOf: fixture(`${language}-program`),
        config: { token },
        env: { PATH: languagePath(language) },
      });
    });
    after(async () => e2e?.dispose());

    it("runs the program on `up` and returns the outputs it computed from config", async () => {
      const result = await e2e.stack.up(collect(e2e.output));
      assert.equal(changesOf(result).create, 1, `only the stack is created:\n${e2e.output.join("\n")}`);
      const outputs = await e2e.stack.outputs();
      assert.deepEqual(
        Object.fromEntries(Object.entries(outputs).map(([name, output]) => [name, output.value])),
        {
          greeting: `hello ${token}`,
          encoded: Buffer.from(token).toString("base64"),
          sealed: `sealed-${token}`,
          language,
        },
      );
      assert.equal(outputs.sealed?.secret, true, "the program's secret output is a secret");
      assert.equal(outputs.greeting?.secret, false);
    });

    it("stores the secret output encrypted, nowhere in the state in plain text", () => {
      const stack = resourcesIn(e2e.rawState()).find((r) => r.type === "pulumi:pulumi:Stack");
      assert.ok(isEncryptedSecret(stack?.outputs?.sealed), JSON.stringify(stack?.outputs?.sealed));
      assert.equal(stack?.outputs?.greeting, `hello ${token}`);
      assert.ok(!e2e.rawState().includes(`sealed-${token}`), "the secret's value is not in the state file");
    });

    it("is a no-change on a second `up` and leaves an empty stack after `destroy`", async () => {
      const again = await e2e.stack.up(collect(e2e.output));
      assert.deepEqual(changesOf(again), { same: 1 }, e2e.output.join("\n"));
      const destroyed = await e2e.stack.destroy(collect(e2e.output));
      assert.equal(changesOf(destroyed).delete, 1, e2e.output.join("\n"));
      assert.deepEqual(resourcesIn(e2e.rawState()), []);
      assert.deepEqual(await e2e.stack.outputs(), {});
    });
  });
}
