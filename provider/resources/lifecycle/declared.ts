/**
 * The objects on a branch this run declares, by noun and name: a `Bucket` or `Function` whose check
 * passed in this process. At preview, a planned create is not made yet, though the engine passes its
 * inputs on as its outputs, so a `Trigger` given `bucket.name` sees a known name the branch does
 * not have yet: a find (`preflight.ts`, `onBranch`) asks here first and looks no further for an object
 * the run is about to make. The engine checks a resource only once the inputs it takes from another
 * are resolved, so a dependent's check always comes after its dependency's. One provider process
 * serves every resource of a run, so the record lives on `globalThis`, shared by every module copy.
 */

const DECLARED = Symbol.for("pulumi-clouddb.declaredOnBranch");
type Holder = { [DECLARED]?: Set<string> };

function declared(): Set<string> {
  const holder = globalThis as Holder;
  holder[DECLARED] ??= new Set();
  return holder[DECLARED];
}

/** The record's key of `noun` named `name` on the branch. */
function keyOf(noun: string, projectId: string, branchId: string, name: string): string {
  return JSON.stringify([noun, projectId, branchId, name]);
}

/**
 * Records the object valid inputs `inputs` of a `noun` declare, when they name it on a branch: its
 * `name`, or its `slug` (a function's). Inputs naming no branch or no name are not recorded.
 */
export function recordDeclared(noun: string, inputs: object): void {
  const { projectId, branchId, name, slug } = inputs as Record<string, unknown>;
  const named = typeof slug === "string" ? slug : name;
  if (typeof projectId !== "string" || typeof branchId !== "string" || typeof named !== "string") return;
  declared().add(keyOf(noun, projectId, branchId, named));
}

/** Whether this run declares a `noun` named `name` on the branch (see {@link recordDeclared}). */
export function isDeclared(noun: string, projectId: string, branchId: string, name: string): boolean {
  return declared().has(keyOf(noun, projectId, branchId, name));
}

/** Forgets every declared object (tests that run several programs in one process). */
export function forgetDeclared(): void {
  declared().clear();
}
