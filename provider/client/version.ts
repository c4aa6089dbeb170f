/** This package's version, for the User-Agent. Found by walking up to our own package.json. */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

let cached: string | undefined;

/** The `version` of the `pulumi-clouddb` package.json above this file (source or compiled `lib/`). */
export function packageVersion(): string {
  if (cached !== undefined) return cached;
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as unknown;
      if (typeof pkg === "object" && pkg !== null && (pkg as { name?: unknown }).name === "pulumi-clouddb") {
        const version = (pkg as { version?: unknown }).version;
        cached = typeof version === "string" ? version : "0.0.0";
        return cached;
      }
    } catch {
      // No package.json here; keep walking up.
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  cached = "0.0.0";
  return cached;
}

/** `pulumi-clouddb/<version>`. */
export function userAgent(): string {
  return `pulumi-clouddb/${packageVersion()}`;
}
