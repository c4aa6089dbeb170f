/**
 * How a create finds the object an interrupted run of the same resource already made.
 *
 * A killed `pulumi up` records nothing about an object whose create was under way (only a pending
 * operation, which the next run does not pass to the provider), so the next run's create would make
 * a second object. To prevent that, every resource sends its URN (`__owner`), and `check` turns it
 * into a create key (`__createKey`) that is the same on every run until an object is created with
 * it: the hash of the URN for a resource not in the state yet, the hash of the previous key
 * otherwise (so a replacement never takes the object it replaces for its own). A resource that can
 * mark its objects (a branch annotation) marks each with the key it was created with, and a create
 * first looks for an object carrying its key: one that does is provably this resource's, made by a
 * run that never recorded it. An object without the mark is never taken, whatever its name.
 * Both fields start with `__`, which Pulumi's display hides.
 */
import { createHash } from "node:crypto";

/** Input carrying the resource's URN, sent by the resource class. */
export const OWNER = "__owner";
/** Input (set by `check`) and output (the key the object was created with). */
export const CREATE_KEY = "__createKey";
/** Output: the declared inputs the program gave, so refresh reports back only those. */
export const GIVEN = "__given";

const hash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 32);

/**
 * The create key for `news` given the stored inputs `olds`: the next key after the stored one, else
 * the hash of the URN; undefined when the URN is missing or not known yet (preview).
 */
export function createKeyFor(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): string | undefined {
  const stored = olds[CREATE_KEY];
  if (typeof stored === "string" && stored !== "") return hash(`next:${stored}`);
  const owner = news[OWNER];
  return typeof owner === "string" && owner.startsWith("urn:") ? hash(`urn:${owner}`) : undefined;
}
