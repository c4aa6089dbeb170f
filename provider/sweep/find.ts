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
 * A marked branch judged at `now` (epoch ms) from its mark and the backend's stacks alone: (c) its
 * expiry has passed, else (a) no stack of the backend is the mark's. Otherwise the stacks whose
 * states decide (`judgeByStates`).
 */
export function judgeByMark(
  m: MarkedBranch,
  now: number,
  stacks: readonly BackendStack[],
): Finding | BackendStack[] {
  const expiresAt =
    m.branch.expires_at === undefined || m.branch.expires_at === null ? NaN : Date.parse(m.branch.expires_at);
  if (expiresAt <= now)
    return {
      ...m,
      reason: "expired",
      why: `expired at ${m.branch.expires_at}, not deleted by the service yet`,
    };
  const candidates = stacksOf(m, stacks);
  if (candidates.length === 0)
    return { ...m, reason: "stack-gone", why: `stack ${m.project}/${m.stack} is gone from the backend` };
  return candidates;
}

/**
 * A marked branch judged by the states of the stacks its mark names: (b) none of them holds it. A
 * stack cut off with an operation pending on a Branch keeps its branches: its next run may take back
 * one it never recorded.
 */
export function judgeByStates(m: MarkedBranch, states: readonly HeldBranches[]): Finding | undefined {
  if (states.some((state) => state.unsettled || state.ids.has(m.branch.id))) return undefined;
  return { ...m, reason: "not-held", why: `stack ${m.project}/${m.stack} no longer holds it` };
}

/** The marked branches no live stack owns: those their marks decide at once, and all of them once the states are read. */
export interface Judgement {
  /** Found from the marks and the stack list alone, before any state is read. */
  atOnce: Finding[];
  /** The ids of the marked branches that wait for states. */
  undecided: Set<string>;
  /** Every finding, in the order of the marked branches, once the states are read. */
  all: Promise<Finding[]>;
}

/**
 * Judges the marked branches at `now` (epoch ms): `judgeByMark`, then `judgeByStates` over the
 * states `held` reads (all asked for at once; `held` bounds how many are read together).
 */
export function findUnowned(
  marked: readonly MarkedBranch[],
  now: number,
  stacks: readonly BackendStack[],
  held: (stackName: string) => Promise<HeldBranches>,
): Judgement {
  const judged = marked.map((m) => [m, judgeByMark(m, now, stacks)] as const);
  const atOnce = judged.flatMap(([, j]) => (Array.isArray(j) ? [] : [j]));
  const undecided = new Set(judged.flatMap(([m, j]) => (Array.isArray(j) ? [m.branch.id] : [])));
  const all = Promise.all(
    judged.map(async ([m, j]) =>
      Array.isArray(j) ? judgeByStates(m, await Promise.all(j.map((s) => held(s.name)))) : j,
    ),
  ).then((found) => found.filter((f) => f !== undefined));
  return { atOnce, undecided, all };
}

/** The ids of the branches above `id` (its parent, the parent's parent, ...), nearest first. */
function ancestorsOf(id: string, parents: ReadonlyMap<string, string | undefined>): string[] {
  const out: string[] = [];
  for (let at = parents.get(id); at !== undefined && out.length < parents.size; at = parents.get(at))
    out.push(at);
  return out;
}

/** Each branch's parent, by id. */
const parentsOf = (all: readonly Branch[]) => new Map(all.map((b) => [b.id, b.parent_id ?? undefined]));

/**
 * Of `found`, those below which no branch still waits to be judged: they can be deleted before the
 * rest is judged, as no child the sweep may yet delete is under them.
 */
export function clearBelow<T extends { branch: Branch }>(
  found: readonly T[],
  undecided: Iterable<string>,
  all: readonly Branch[],
): T[] {
  const parents = parentsOf(all);
  const above = new Set([...undecided].flatMap((id) => ancestorsOf(id, parents)));
  return found.filter((f) => !above.has(f.branch.id));
}

/**
 * `found` in the order to delete them: a child branch before its parent, so no delete is refused for
 * a child the sweep deletes too.
 */
export function deleteOrder<T extends { branch: Branch }>(found: readonly T[], all: readonly Branch[]): T[] {
  const parents = parentsOf(all);
  const depth = (id: string) => ancestorsOf(id, parents).length;
  return [...found].sort((a, b) => depth(b.branch.id) - depth(a.branch.id));
}
