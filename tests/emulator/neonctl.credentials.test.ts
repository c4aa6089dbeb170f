import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { useNeonctl } from "./neonctl-harness";

// The official CLI's `credentials` commands and its `functions domains` commands (the custom
// domains of a branch), unchanged, against the emulator: a credential issued, listed without its
// secrets, revealed, rotated in place and revoked; a domain registered for a function, listed and
// deleted; what the service refuses, refused. The CLI has no AI gateway command.

const where = ["--project-id", DEMO.projectId, "--branch", DEMO.branchId];

describe("the official CLI (neonctl): credentials and functions domains", function () {
  this.timeout(120_000);
  const cli = useNeonctl({ clock: "manual" });
  const { neonctl, ok } = cli;
  const branch = () => cli.emu.control.dumpState().branches.find((b) => b.id === DEMO.branchId);

  it("credentials create, list, reveal, rotate (same id, new secrets) and revoke", async () => {
    const issued = await ok(
      "credentials",
      "create",
      ...where,
      "--name",
      "uploads",
      "--scope",
      "storage:read",
      "--scope",
      "storage:write",
    );
    assert.match(issued.token_id, /^nak_live_[0-9a-f]{32}$/);
    assert.match(issued.s3_secret_access_key, /^nsk_live_[0-9a-f]{64}$/);
    assert.deepEqual(issued.scopes, ["storage:read", "storage:write"]);
    const listed = await ok("credentials", "list", ...where);
    assert.deepEqual(
      listed.map((c: { token_id: string; name: string }) => [c.token_id, c.name]),
      [[issued.token_id, "uploads"]],
    );
    assert.ok(!JSON.stringify(listed).includes(issued.api_token), "a listing carries no secret");
    const revealed = await ok("credentials", "reveal", issued.token_id, ...where);
    assert.equal(revealed.api_token, issued.api_token);
    const rotated = await ok("credentials", "rotate", issued.token_id, ...where);
    assert.equal(rotated.token_id, issued.token_id, "a rotation keeps the id");
    assert.notEqual(rotated.api_token, issued.api_token);
    assert.notEqual(rotated.s3_secret_access_key, issued.s3_secret_access_key);
    assert.equal((await ok("credentials", "reveal", issued.token_id, ...where)).api_token, rotated.api_token);
    await ok("credentials", "revoke", issued.token_id, ...where);
    assert.ok(branch()?.credentials?.[0]?.revoked_at_ms !== undefined, "revoked, still on record");
    const gone = await neonctl("credentials", "reveal", issued.token_id, ...where);
    assert.notEqual(gone.code, 0);
    assert.match(
      gone.stderr,
      new RegExp(`Credential ${issued.token_id} not found on branch ${DEMO.branchId}`),
    );
  });

  it("functions domains register, list and delete; a domain another function holds is refused", async () => {
    const registered = await ok(
      "functions",
      "domains",
      "register",
      "Docs.Example.com",
      "--slug",
      "docs",
      ...where,
    );
    assert.equal(registered.domain, "docs.example.com");
    assert.equal(registered.entity_id, "docs");
    assert.match(registered.cname_target, new RegExp(`^${DEMO.branchId}\\.domains\\.`));
    const taken = await neonctl(
      "functions",
      "domains",
      "register",
      "docs.example.com",
      "--slug",
      "other",
      ...where,
    );
    assert.notEqual(taken.code, 0);
    assert.match(taken.stderr, /already registered/);
    const listed = await ok("functions", "domains", "list", ...where);
    assert.deepEqual(
      listed.map((d: { domain: string }) => d.domain),
      ["docs.example.com"],
    );
    await ok("functions", "domains", "delete", "docs.example.com", ...where);
    assert.deepEqual(branch()?.custom_domains, []);
    const again = await neonctl("functions", "domains", "delete", "docs.example.com", ...where);
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /Custom domain "docs\.example\.com" not found/);
  });
});
