/**
 * `clouddb from-terraform <state> [--out <file>]`: writes the Pulumi import file of a Terraform or
 * OpenTofu state of the `neon` providers (to `--out`, else stdout) and lists on stderr what it left
 * out, with why. Exit 0 when every managed resource was mapped, 10 when some were left out (the
 * file holds the rest), 1 when nothing could be written.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fromTerraformState, StateFormatError } from "./fromTerraform";

/** Exit codes: all mapped, some left out, a failure. */
export const EXIT = { mapped: 0, leftOut: 10, failed: 1 } as const;

/** The usage line every argument error ends with. */
export const USAGE = "usage: clouddb from-terraform <terraform.tfstate> [--out <import.json>]";

/** Where a run writes. */
interface Io {
  out: (text: string) => void;
  err: (line: string) => void;
}

/** Runs the command on its arguments (after `from-terraform`); answers the exit code. */
export function fromTerraform(args: readonly string[], io: Io): number {
  let statePath: string | undefined;
  let outPath: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--out" || arg.startsWith("--out=")) {
      outPath = arg === "--out" ? args[++i] : arg.slice("--out=".length);
      if (outPath === undefined || outPath === "") {
        io.err(`--out needs a file. ${USAGE}`);
        return EXIT.failed;
      }
    } else if (arg.startsWith("--") || statePath !== undefined) {
      io.err(`unknown argument "${arg}". ${USAGE}`);
      return EXIT.failed;
    } else statePath = arg;
  }
  if (statePath === undefined) {
    io.err(`give the state file (\`terraform state pull > terraform.tfstate\`). ${USAGE}`);
    return EXIT.failed;
  }
  let conversion: ReturnType<typeof fromTerraformState>;
  try {
    conversion = fromTerraformState(JSON.parse(readFileSync(statePath, "utf8")));
  } catch (err) {
    const why =
      err instanceof StateFormatError || err instanceof SyntaxError
        ? (err as Error).message
        : (err as NodeJS.ErrnoException).code === "ENOENT"
          ? "no such file"
          : (err as Error).message;
    io.err(`reading the state ${statePath} failed: ${why}`);
    return EXIT.failed;
  }
  const file = `${JSON.stringify({ resources: conversion.resources }, null, 2)}\n`;
  try {
    if (outPath === undefined) io.out(file);
    else writeFileSync(outPath, file);
  } catch (err) {
    io.err(`writing ${outPath} failed: ${(err as Error).message}: give --out a writable path`);
    return EXIT.failed;
  }
  for (const { address, why } of conversion.unmapped) io.err(`left out ${address}: ${why}`);
  io.err(
    `${conversion.resources.length} resources to import${outPath === undefined ? "" : ` in ${outPath}`}` +
      (conversion.unmapped.length === 0 ? "" : `; ${conversion.unmapped.length} left out (above)`) +
      ": run `pulumi import --file <it>` in the stack's program folder",
  );
  return conversion.unmapped.length === 0 ? EXIT.mapped : EXIT.leftOut;
}
