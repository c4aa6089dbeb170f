import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO } from "../../emulator";
import { api, start } from "./helpers";

// The emulator's VPC endpoints beyond their statuses (contract.test.ts): the state they report
// over time, what a removal does to the projects restricted to them, and that they survive a
// restart with a state file (docs/api-rules.md §10).

const O = `/organizations/${DEMO.orgId}/vpc/region/aws-us-east-2/vpc_endpoints`;
const V = `/projects/${DEMO.orgProjectId}/vpc_endpoints`;

describe("emulator: VPC endpoints", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "clouddb-vpc-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("reports an endpoint new until a second after its assignment, then accepted; relabelling keeps its state", async () => {
    const emu = await start();
    try {
      const admin = api(emu, DEMO.personalKey);
      assert.equal((await admin.post(`${O}/vpce-1`, { label: "a" })).status, 200);
      assert.equal((await admin.get(`${O}/vpce-1`)).body.state, "new");
      emu.control.advance(999);
      assert.equal((await admin.get(`${O}/vpce-1`)).body.state, "new");
      emu.control.advance(1);
      assert.equal((await admin.post(`${O}/vpce-1`, { label: "b" })).status, 200);
      const details = (await admin.get(`${O}/vpce-1`)).body;
      assert.deepEqual([details.state, details.label], ["accepted", "b"]);
    } finally {
      await emu.stop();
    }
  });

  it("lifts the restrictions of the organization's projects to an endpoint it removes", async () => {
    const emu = await start();
    try {
      const admin = api(emu, DEMO.orgKey);
      await admin.post(`${O}/vpce-2`, { label: "" });
      assert.equal((await admin.post(`${V}/vpce-2`, { label: "only" })).status, 200);
      assert.equal((await admin.get(`${O}/vpce-2`)).body.num_restricted_projects, 1);
      assert.equal((await admin.delete(`${O}/vpce-2`)).status, 200);
      assert.deepEqual((await admin.get(V)).body.endpoints, []);
    } finally {
      await emu.stop();
    }
  });

  it("keeps assignments, restrictions and removals across a restart with a state file", async () => {
    const file = join(dir, "state.json");
    let emu = await start({ stateFile: file });
    let admin = api(emu, DEMO.personalKey);
    await admin.post(`${O}/vpce-kept`, { label: "kept" });
    await admin.post(`${V}/vpce-kept`, { label: "only" });
    await admin.post(`${O}/vpce-gone`, { label: "" });
    await admin.delete(`${O}/vpce-gone`);
    await emu.stop();

    emu = await start({ stateFile: file, seed: "empty" });
    try {
      admin = api(emu, DEMO.personalKey);
      assert.deepEqual((await admin.get(O)).body.endpoints, [
        { vpc_endpoint_id: "vpce-kept", label: "kept" },
      ]);
      assert.deepEqual((await admin.get(V)).body.endpoints, [
        { vpc_endpoint_id: "vpce-kept", label: "only" },
      ]);
      assert.equal((await admin.post(`${O}/vpce-gone`, { label: "" })).status, 409, "a removal is for good");
    } finally {
      await emu.stop();
    }
  });
});
