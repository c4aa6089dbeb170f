/**
 * Which marked branches no live stack owns: the rules of `clouddb sweep`, over the project's
 * branches and what the backend says of the stacks their marks name.
 */
import type { Branch } from "../client";
import { STACK_MARKS } from "../resources/lifecycle/owner";
import type { BackendStack, HeldBranches } from "./stacks";

/** A branch carrying a stack's mark, with what the mark says. */
export interface MarkedBranch {
  branch: Branch;
  project: string;
  stack: string;
  createdAt: string | undefined;
  pullRequest: string | undefined;
}

/** Why no stack owns a branch. */
export type SweepReason = "stack-gone" | "not-held" | "expired";

/** A branch the sweep found, and why. */
export interface Finding extends MarkedBranch {
  reason: SweepReason;
  /** The reason as a sentence for the table. */
  why: string;
}

/**
 * The branches of a listing that carry a stack's mark (project and stack in their annotation). The
 * project's default branch and protected branches are never among them, whatever they carry.
 */
export function markedBranches(
  branches: readonly Branch[],
  annotations: ReadonlyMap<string, Readonly<Record<string, string>>>,
): MarkedBranch[] {
  return branches.flatMap((branch) => {
    const mark = annotations.get(branch.id) ?? {};
    const project = mark[STACK_MARKS.project];
    const stack = mark[STACK_MARKS.stack];
    if (project === undefined || stack === undefined || branch.default || branch.protected === true)
      return [];
    return [
      {
        branch,
        project,
        stack,
        createdAt: mark[STACK_MARKS.createdAt],
        pullRequest: mark[STACK_MARKS.pullRequest],
      },
    ];
  });
}

/** The stacks of the backend a mark may name: the same stack, of the same project where the backend names projects. */
export function stacksOf(marked: MarkedBranch, stacks: readonly BackendStack[]): BackendStack[] {
  return stacks.filter(
    (s) => s.stack === marked.stack && (s.project === undefined || s.project === marked.project),
  );
}

/**
 * The marked branches no live stack owns, judged at `now` (epoch ms): (c) its expiry has passed,
 * else (a) no stack of the backend is the mark's, else (b) none of those stacks holds the branch
 * (`held` reads a stack's state). A stack cut off with an operation pending on a Branch keeps its
 * branches: its next run may take back one it never recorded.
 */
export async function findUnowned(
  marked: readonly MarkedBranch[],
  now: number,
  stacks: readonly BackendStack[],
  held: (stackName: string) => Promise<HeldBranches>,
): Promise<Finding[]> {
  const found: Finding[] = [];
  for (const m of marked) {
    const expiresAt =
      m.branch.expires_at === undefined || m.branch.expires_at === null
        ? NaN
        : Date.parse(m.branch.expires_at);
    const owner = `${m.project}/${m.stack}`;
    if (expiresAt <= now) {
      found.push({
        ...m,
        reason: "expired",
        why: `expired at ${m.branch.expires_at}, not deleted by the service yet`,
      });
      continue;
    }
    const candidates = stacksOf(m, stacks);
    if (candidates.length === 0) {
      found.push({ ...m, reason: "stack-gone", why: `stack ${owner} is gone from the backend` });
      continue;
    }
    let owned = false;
    for (const s of candidates) {
      const state = await held(s.name);
      if (state.unsettled || state.ids.has(m.branch.id)) owned = true;
    }
    if (!owned) found.push({ ...m, reason: "not-held", why: `stack ${owner} no longer holds it` });
  }
  return found;
}

/**
 * `found` in the order to delete them: a child branch before its parent, so no delete is refused for
 * a child the sweep deletes too.
 */
export function deleteOrder<T extends { branch: Branch }>(found: readonly T[], all: readonly Branch[]): T[] {
  const parents = new Map(all.map((b) => [b.id, b.parent_id ?? undefined]));
  const depth = (id: string): number => {
    let d = 0;
    for (let at = parents.get(id); at !== undefined && d < all.length; at = parents.get(at)) d++;
    return d;
  };
  return [...found].sort((a, b) => depth(b.branch.id) - depth(a.branch.id));
}
