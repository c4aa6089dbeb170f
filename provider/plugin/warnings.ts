/**
 * Warnings about a resource from the plugin's methods, sent where `main.ts` says (the engine's
 * `Log`, on the resource); none when the plugin runs without an engine address (the engine hides
 * what a resource plugin writes to stdout, so there is nowhere else to show them).
 */

type Warn = (urn: string, message: string) => void;

let writer: Warn | undefined;

/** Sets where warnings go. */
export function setWarningWriter(write: Warn | undefined): void {
  writer = write;
}

/** Warns about the resource `urn`. */
export function warnOn(urn: string, message: string): void {
  writer?.(urn, message);
}
