// Benchmark 12: the provider's start, spawn to the port line the engine waits for, of the three
// processes that can serve a program: Pulumi's dynamic-provider host (`pulumi-resource-pulumi-nodejs`,
// for the Node.js package's dynamic resources), the npm package's plugin (`bin/pulumi-resource-clouddb`,
// run by `node`), and the plugin binary `npm run release` builds (Node.js's single-executable
// application, linux-amd64). Alternated in one run, so all three see the same load.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { archiveName, buildPluginArchives } from "../scripts/release/plugin";
import { packageVersion } from "../scripts/release/sea";
import { unpackBinary } from "../tests/release/support";
import { spawnToPortMs } from "./plugin";
import { scenarioProject } from "./support/engine";
import { fmt, median, secs, type Table } from "./support/stats";

const SIDES = ["dynamic host", "npm plugin (node)", "plugin binary"] as const;
type Side = (typeof SIDES)[number];

/** Benchmark 12 as a table. */
export async function benchPluginStart(opts: { runs: number; log: (line: string) => void }): Promise<Table> {
  const cwd = scenarioProject();
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-bench-binary-"));
  try {
    await buildPluginArchives(out);
    const binary = unpackBinary(
      path.join(out, archiveName(packageVersion(), { os: "linux", arch: "amd64" })),
    );
    const PATH = `${path.join(cwd, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`;
    const command: Record<Side, string> = {
      "dynamic host": "pulumi-resource-pulumi-nodejs",
      "npm plugin (node)": "pulumi-resource-clouddb",
      "plugin binary": binary,
    };
    const starts: Record<Side, number[]> = {
      "dynamic host": [],
      "npm plugin (node)": [],
      "plugin binary": [],
    };
    for (let i = 0; i < opts.runs; i++) {
      for (const side of SIDES)
        starts[side].push(await spawnToPortMs(command[side], cwd, { ...process.env, PATH }));
      opts.log(
        `  run ${i + 1}/${opts.runs}: ${SIDES.map((s) => `${s} ${secs(starts[s].at(-1)!)}`).join(", ")}`,
      );
    }
    fs.rmSync(path.dirname(binary), { recursive: true, force: true });
    const of = (side: Side) => median(starts[side]);
    const [dynamic, npm, bin] = [of("dynamic host"), of("npm plugin (node)"), of("plugin binary")];
    return {
      title: `12. Provider start, spawn to port — median of ${opts.runs}`,
      header: ["process", "start", "vs the npm plugin", "vs the dynamic host", "target"],
      rows: [
        ["dynamic host (pulumi-resource-pulumi-nodejs)", secs(dynamic), fmt(dynamic / npm), "1.00", ""],
        ["npm plugin (node bin/pulumi-resource-clouddb)", secs(npm), "1.00", fmt(npm / dynamic), ""],
        [
          "plugin binary (single executable, linux-amd64)",
          secs(bin),
          fmt(bin / npm),
          fmt(bin / dynamic),
          bin < dynamic ? "below the dynamic host: met" : "below the dynamic host: missed",
        ],
      ],
      notes: [
        "Each process is spawned as the engine spawns it (in a program's folder, an engine address as its argument) and ended once it has printed its port.",
        "The npm plugin and the binary both print their port before loading the kinds, the functions and the client (they load on the first call).",
      ],
    };
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}
