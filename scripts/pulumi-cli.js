// Finds the Pulumi CLI for the demo and the end-to-end tests: a `pulumi` >= 3 already on PATH,
// else the one tools/pulumi-cli/build.sh builds from Go modules (once, into a cache folder).
// The dynamic-provider plugin script ships in @pulumi/pulumi; the engine must find it on PATH.

const { execFileSync, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const PLUGIN = "pulumi-resource-pulumi-nodejs";

function which(cmd, envPath) {
  for (const dir of (envPath || "").split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, cmd))) return path.join(dir, cmd);
  }
  return undefined;
}

function version(binary) {
  try {
    return execFileSync(binary, ["version"], { encoding: "utf8", env: quietEnv(process.env) }).trim();
  } catch {
    return "";
  }
}

/** Environment that keeps the CLI offline and quiet: no update checks, no plugin downloads. */
function quietEnv(env) {
  return { ...env, PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" };
}

/**
 * Returns `{ path, binary, version }`: a PATH value that has `pulumi`, its Node language host and the
 * dynamic-provider plugin, building the CLI first when none is found (progress on stderr).
 */
function ensurePulumiCli() {
  let envPath = process.env.PATH || "";
  let binary = which("pulumi", envPath);
  let v = binary ? version(binary) : "";
  if (!/^v?3\./.test(v)) {
    // build.sh answers at once from its cache, and says so on stderr when it has to build.
    const built = spawnSync("bash", [path.join(ROOT, "tools/pulumi-cli/build.sh")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    if (built.status !== 0) {
      throw new Error(
        "building the Pulumi CLI failed (see above); install Pulumi 3.x (https://www.pulumi.com/docs/install/) and put it on PATH, then try again",
      );
    }
    const bin = built.stdout.trim().split("\n").pop();
    envPath = `${bin}${path.delimiter}${envPath}`;
    binary = path.join(bin, "pulumi");
    v = version(binary);
  }
  if (!which(PLUGIN, envPath)) {
    const sdk = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [ROOT] }));
    envPath = `${sdk}${path.delimiter}${envPath}`;
  }
  return { path: envPath, binary, version: v };
}

module.exports = { ensurePulumiCli, quietEnv };
