import assert from "node:assert/strict";
import { createApiClient } from "@neondatabase/api-client";
import { DEMO, type RunningEmulator } from "../../emulator";
import { api, type Json, start } from "./helpers";

// The shared preload libraries a project can enable: those built for its Postgres version.

describe("available preload libraries", () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await start();
  });
  after(() => emu.stop());

  const names = (body: Json): string[] => body.libraries.map((l: Json) => l.library_name);

  it("lists the libraries of the project's Postgres version, the default one marked", async () => {
    const http = api(emu, DEMO.personalKey);
    const v17 = await http.get(`/projects/${DEMO.projectId}/available_preload_libraries`);
    assert.equal(v17.status, 200, v17.text);
    assert.ok(names(v17.body).includes("rag_bge_small_en_v15"));
    assert.deepEqual(
      v17.body.libraries.filter((l: Json) => l.is_default).map((l: Json) => l.library_name),
      ["pg_stat_statements"],
    );
    const made = await http.post("/projects", { project: { name: "older", pg_version: 14 } });
    assert.equal(made.status, 201, made.text);
    const v14 = await http.get(`/projects/${made.body.project.id}/available_preload_libraries`);
    assert.deepEqual(names(v14.body), [
      "pg_stat_statements",
      "timescaledb",
      "pg_cron",
      "pg_partman_bgw",
      "pgaudit",
    ]);
  });

  it("answers only those who may read the project, and the official client unchanged", async () => {
    const member = await api(emu, DEMO.memberPersonalKey).get(
      `/projects/${DEMO.projectId}/available_preload_libraries`,
    );
    assert.equal(member.status, 403);
    const missing = await api(emu, DEMO.personalKey).get(
      "/projects/no-such-project-1234/available_preload_libraries",
    );
    assert.equal(missing.status, 404);
    const client = createApiClient({ apiKey: DEMO.personalKey, baseURL: emu.url });
    const { data } = await client.getAvailablePreloadLibraries(DEMO.projectId);
    assert.deepEqual(
      (data.libraries ?? []).map((l) => l.library_name),
      names(
        (await api(emu, DEMO.personalKey).get(`/projects/${DEMO.projectId}/available_preload_libraries`))
          .body,
      ),
    );
  });
});
