/**
 * The HTTP client (got) is an ES module loaded with `require()`. Node.js does that without a flag
 * from 22.12 (and 20.19, past its end of life); elsewhere the first API call would fail with a
 * module-format error that says nothing about what to do.
 */
export const SUPPORTED_NODE = "22.12";

/** Throws, saying what to do, when this Node.js cannot `require()` an ES module. */
export function assertSupportedNode(
  version: string = process.versions.node,
  canRequireEsm: boolean = (process.features as { require_module?: boolean }).require_module === true,
): void {
  if (canRequireEsm) return;
  throw new Error(
    `pulumi-clouddb needs Node.js ${SUPPORTED_NODE} or newer; this is Node.js ${version}, which cannot require() ` +
      "an ES module (or has it turned off). Install a current Node.js (22 LTS or 24) and run Pulumi with it on PATH.",
  );
}
