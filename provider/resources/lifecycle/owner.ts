/**
 * How a create finds the object an interrupted run of the same resource already made.
 *
 * A killed `pulumi up` records nothing about an object whose create was under way (only a pending
 * operation, which the next run does not pass to the provider), so the next run's create would make
 * a second object. To prevent that, every resource sends its URN (`__owner`), and `check` turns it
 * into a create key (`__createKey`) that is the same on every run until an object is created with
 * it: the hash of the URN for a resource not in the state yet; for one in the state, the key it has
 * (so a run that changes nothing leaves its state as it was: the engine rewrites a resource whose
 * checked inputs changed) and, for its replacement, the hash of that key (so a replacement never
 * takes the object it replaces for its own). A resource that can
 * mark its objects marks each with the key it was created with, and a create first looks for an
 * object carrying its key: one that does is provably this resource's, made by a run that never
 * recorded it. An object without the mark is never taken, whatever its name. The marks:
 * - a branch, and a project's default branch: the annotation `CREATED_BY`; a branch also records the
 *   name its create gave it (`CREATED_NAME`), and is taken only while it still has that name and no
 *   restore replaced it (a program renamed it since: the create takes it and renames it);
 * - a compute endpoint: its `name`, which the resource does not otherwise use (`markedName`);
 * - an API key: ` #` and a short mark after the given name (the only field a key has);
 * - a role, database, bucket or trigger left unnamed: a name generated in `check` from the resource's
 *   name and key (`generatedName`); a function left without a slug, a slug made the same way
 *   (`generatedSlug`). One the program names carries no mark: after a cut-off create its name is
 *   taken, and the error says so.
 * Both fields start with `__`, which Pulumi's display hides.
 */
import { createHash } from "node:crypto";

/** Input carrying the resource's URN, sent by the resource class. */
export const OWNER = "__owner";
/** Input (set by `check`) and output (the key the object was created with). */
export const CREATE_KEY = "__createKey";
/** Output: the declared inputs the program gave, so refresh reports back only those. */
export const GIVEN = "__given";

/** The names `GIVEN` records for a resource's checked inputs: the declared ones that have a value. */
export function givenInputs(inputs: Record<string, unknown>): string[] {
  return Object.keys(inputs).filter((k) => !k.startsWith("__") && inputs[k] !== undefined);
}

/**
 * What the provider plugin sends as a resource's outputs: its state without the create key and the
 * inputs the program gave. The engine keeps both in the resource's inputs (the checked inputs carry
 * the key, and their declared names are the given inputs) and sends those with every call that
 * gets the outputs, where `withBookkeepingFrom` puts them back. A program's SDK reads every output
 * the engine returns, for every resource of every run: these two cost a Python program 0.14 ms of
 * its CPU a resource (bench 18 in `bench/RESULTS.md`).
 */
export function withoutBookkeeping(outs: Record<string, unknown>): Record<string, unknown> {
  if (!(CREATE_KEY in outs) && !(GIVEN in outs)) return outs;
  const { [CREATE_KEY]: _key, [GIVEN]: _given, ...kept } = outs;
  return kept;
}

/**
 * A resource's outputs as the lifecycle records them: the create key and the given inputs put back
 * from `inputs` (the resource's inputs in the state) where the outputs do not carry them (see
 * `withoutBookkeeping`). Outputs that carry them (a state a dynamic resource, or an earlier plugin,
 * wrote) are taken as they are; without inputs (an import's read) the outputs are unchanged.
 */
export function withBookkeepingFrom(
  outs: Record<string, unknown>,
  inputs: Record<string, unknown>,
): Record<string, unknown> {
  if (Object.keys(inputs).length === 0) return outs;
  const key = inputs[CREATE_KEY];
  const back: Record<string, unknown> = {};
  if (!(CREATE_KEY in outs) && typeof key === "string") back[CREATE_KEY] = key;
  if (!(GIVEN in outs)) back[GIVEN] = givenInputs(inputs);
  return Object.keys(back).length === 0 ? outs : { ...outs, ...back };
}

const hash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 32);

/**
 * The stored key of each resource in the state that this process checked, by URN, whose hash is its
 * next key (taken only by a replacement's check, so not hashed on every check). The engine checks
 * a resource it replaces twice: first against its stored inputs (to diff), then, for the
 * replacement, with no stored inputs at all (so that names can be generated afresh). That second
 * check must give the replacement's key, never the URN's, which the object being replaced may carry.
 */
const storedKeys = new Map<string, string>();

/**
 * The create key for `news` given the stored inputs `olds`: the stored one, the next key after it
 * kept for a replacement's check; for a resource checked without stored inputs, that next key when
 * its first check in this process kept one (a replacement, see above), else the hash of the URN;
 * undefined when the URN is missing or not known yet (preview).
 */
export function createKeyFor(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): string | undefined {
  const owner = news[OWNER];
  const urn = typeof owner === "string" && owner.startsWith("urn:") ? owner : undefined;
  const stored = olds[CREATE_KEY];
  if (typeof stored === "string" && stored !== "") {
    if (urn !== undefined) storedKeys.set(urn, stored);
    return stored;
  }
  if (urn === undefined) return undefined;
  const replaced = storedKeys.get(urn);
  return hash(replaced === undefined ? `urn:${urn}` : `next:${replaced}`);
}

/** The create key a state records, if any (a state written before keys were recorded has none). */
export function createKeyOf(state: object): string | undefined {
  const key = (state as Record<string, unknown>)[CREATE_KEY];
  return typeof key === "string" ? key : undefined;
}

/** Forgets the keys of `createKeyFor`'s first checks (a new engine run starts a new process). */
export function forgetReplacementKeys(): void {
  storedKeys.clear();
  taken.clear();
}

/**
 * Objects a create of this process took as its own (`findOwn`), by noun and id. The engine checks a
 * resource it replaces by `pulumi up --replace` (or a tainted one) only once, with no stored inputs,
 * so the replacement gets the URN's key: the one the object it replaces carries when that object was
 * its resource's first. Its create then takes that very object, and the engine, which records the
 * replacement under the same id, next deletes the object it replaced. `remove` keeps such an object.
 */
const taken = new Set<string>();

/** Records that a create of this process took the object `id` as its own. */
export function tookOwn(noun: string, id: string): void {
  taken.add(`${noun} ${id}`);
}

/** Whether a create of this process took the object `id` as its own (so it is in the state under a new entry). */
export function wasTakenOwn(noun: string, id: string): boolean {
  return taken.has(`${noun} ${id}`);
}

/** The annotation marking a branch (or a project's default branch) with the create key it was made with. */
export const CREATED_BY = "pulumi-clouddb.create-key";

/**
 * The annotation recording the name a branch's create gave it (set with `CREATED_BY` when the
 * program names the branch): the branch is the create's own while it keeps that name, whatever the
 * program declares since. A branch made before it, or unnamed, goes by the declared name, or its id.
 */
export const CREATED_NAME = "pulumi-clouddb.created-name";

/**
 * The annotations marking a branch (and a project's default branch) with what made it: the Pulumi
 * project and stack of the resource (from its URN), the create's time (ISO 8601) and, for a
 * preview's branch, its pull request. `clouddb sweep` finds by them the branches no stack holds any
 * more; reading and importing a branch ignore them.
 */
export const STACK_MARKS = {
  project: "pulumi-clouddb.project",
  stack: "pulumi-clouddb.stack",
  createdAt: "pulumi-clouddb.created-at",
  pullRequest: "pulumi-clouddb.pull-request",
} as const;

/** The Pulumi stack and project a resource's URN (`urn:pulumi:<stack>::<project>::<type>::<name>`) names, if it is one. */
export function stackOfUrn(urn: string): { stack: string; project: string } | undefined {
  if (!urn.startsWith("urn:pulumi:")) return undefined;
  const [stack, project, type] = urn.slice("urn:pulumi:".length).split("::");
  if (stack === undefined || stack === "" || project === undefined || project === "" || type === undefined)
    return undefined;
  return { stack, project };
}

/**
 * The annotation pairs marking an object made by the resource of URN `owner` at `at` (epoch ms),
 * with its pull request when it has one; none when `owner` is not a URN.
 */
export function stackMarksOf(
  owner: string | undefined,
  at: number,
  pullRequest?: string,
): Record<string, string> {
  const made = owner === undefined ? undefined : stackOfUrn(owner);
  if (made === undefined) return {};
  return {
    [STACK_MARKS.project]: made.project,
    [STACK_MARKS.stack]: made.stack,
    [STACK_MARKS.createdAt]: new Date(at).toISOString(),
    ...(pullRequest === undefined ? {} : { [STACK_MARKS.pullRequest]: pullRequest }),
  };
}

/** A short mark of `key`, `length` hex characters: what fits where a whole key does not. */
export function markOf(key: string, length = 10): string {
  return hash(`mark:${key}`).slice(0, length);
}

/**
 * The label the API stores for an object labelled `name` and created with `key`: the label, ` #`
 * and the key's mark, shortened to `max` characters here, never in the outputs. Without a create
 * key (an object made before it was marked), the label alone.
 */
export function markedLabel(name: string, key: string | undefined, max = Number.POSITIVE_INFINITY): string {
  if (key === undefined) return name;
  const mark = ` #${markOf(key)}`;
  return `${name.slice(0, Math.max(0, max - mark.length))}${mark}`;
}

/** The name marking an object that has a name field the resource does not use: `pulumi-` and the mark. */
export function markedName(key: string): string {
  return `pulumi-${markOf(key, 20)}`;
}

/** The Postgres identifier bound, in bytes. */
const IDENTIFIER_BYTES = 63;

/**
 * The name of an object the program left unnamed: the resource's name in the URN `owner` made a
 * valid Postgres identifier (lower case letters, digits and `_`, at most 63 bytes) and `_` with the
 * mark of `key`, so a retry after a killed run asks for the very same name and finds its object.
 */
export function generatedName(owner: string, key: string): string {
  const suffix = `_${markOf(key)}`;
  const logical = owner.slice(owner.lastIndexOf("::") + 2);
  const base = logical
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .replace(/^(?=[0-9])/, "_")
    .slice(0, IDENTIFIER_BYTES - suffix.length);
  return `${base === "" ? "pulumi" : base}${suffix}`;
}

/** The bound of a function's slug (`^[a-z0-9]{1,20}$`), in characters. */
const SLUG_CHARACTERS = 20;

/**
 * The slug of a function the program gave none: the letters and digits of the resource's name in
 * the URN `owner`, lower case, as many as fit beside the mark of `key` (10 hex characters), so a
 * retry after a killed run deploys to the very same slug and finds its function.
 */
export function generatedSlug(owner: string, key: string): string {
  const mark = markOf(key);
  const logical = owner.slice(owner.lastIndexOf("::") + 2);
  const base = logical
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "")
    .slice(0, SLUG_CHARACTERS - mark.length);
  return `${base === "" ? "fn" : base}${mark}`;
}

/** Whether `slug` was generated with `key` (see `generatedSlug`): a function of that slug is this resource's. */
export function isSlugGeneratedWith(slug: string, key: string): boolean {
  return slug.endsWith(markOf(key));
}

/** Whether `name` was generated with `key` (see `generatedName`): an object of that name is this resource's. */
export function isGeneratedWith(name: string, key: string): boolean {
  return name.endsWith(`_${markOf(key)}`);
}
