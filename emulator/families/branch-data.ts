import type { ObjectStore } from "../object-store";
import type { BranchData, BranchRecord } from "../records";

// What each family keeps on a branch, and what becomes of it when the branch is copied, preserved,
// restored or deleted. A family declares its fields on `BranchData` (records.ts) by declaration
// merging and registers each here with `holdOnBranch` when its module loads; the branches family
// calls this registry and names no family's data. A deleted branch stays a tombstone that keeps
// its data (a recovery brings it back) unless a family's `onDelete` says otherwise. The object
// store's sweep counts the blobs every family names, on live and deleted branches alike.

/** The value a family keeps in its field of a branch, when the branch has one. */
export type Held<K extends keyof BranchData> = NonNullable<BranchData[K]>;

/** How a child branch is made from its parent. */
export interface ChildCopy {
  /** When the child is made. */
  now: number;
  /** The child takes its parent's schema only: no data, no parent link (`init_source: schema-only`). */
  schemaOnly: boolean;
}

/** What loading a state an older emulator wrote can use to bring a field up to date. */
export interface StateUpgrade {
  /** The object store beside the state file, where bytes the state once held inline now go. */
  objects: ObjectStore;
}

/** One family's field of a branch and what each change of the branch does to it. */
export interface BranchHolding<K extends keyof BranchData> {
  /** The field of the branch record the family keeps. */
  field: K;
  /** What a child starts with from its parent's value (undefined: nothing); false: a child starts without it. */
  toChild: false | ((value: Held<K>, copy: ChildCopy) => Held<K> | undefined);
  /** Whether the branch a restore preserves under a new name keeps a copy of it (false: it stays with the branch alone). */
  preserved: boolean;
  /** What is left of it on a branch whose data a restore replaced (undefined: nothing); absent: it is kept as it is. */
  onRestore?: (value: Held<K>) => Held<K> | undefined;
  /** What is left of it on a deleted branch (undefined: nothing); absent: it is kept for a recovery. */
  onDelete?: (value: Held<K>) => Held<K> | undefined;
  /** The object-store blobs it names, which the store's sweep keeps. */
  blobs?: (value: Held<K>) => Iterable<string>;
  /** The value as this emulator keeps it, from one an older emulator saved; undefined when it is already current. */
  upgrade?: (value: unknown, load: StateUpgrade) => Held<K> | undefined;
}

/** The registered holdings by field; a holding's `K` is erased once registered. */
// biome-ignore lint/suspicious/noExplicitAny: each entry is typed by its own field when registered
const HOLDINGS = new Map<string, BranchHolding<any>>();

/** A branch record as its fields by name, for the fields a holding names. */
const fieldsOf = (branch: BranchRecord) => branch as unknown as Record<string, unknown>;

/** Sets a field, or removes it for undefined (the records keep no undefined fields). */
function put(branch: BranchRecord, field: string, value: unknown): void {
  if (value === undefined) delete fieldsOf(branch)[field];
  else fieldsOf(branch)[field] = value;
}

/** Registers a family's field of a branch; throws when another holding has the field already. */
export function holdOnBranch<K extends keyof BranchData>(holding: BranchHolding<K>): void {
  if (HOLDINGS.has(holding.field)) throw new Error(`branch field ${holding.field} is registered twice`);
  HOLDINGS.set(holding.field, holding);
}

/** The fields registered so far. */
export function heldFields(): string[] {
  return [...HOLDINGS.keys()];
}

/** Gives a new child branch what each family hands down from its parent. */
export function copyToChild(parent: BranchRecord, child: BranchRecord, copy: ChildCopy): void {
  for (const [field, holding] of HOLDINGS) {
    const value = fieldsOf(parent)[field];
    if (value !== undefined && holding.toChild !== false) put(child, field, holding.toChild(value, copy));
  }
}

/** Removes from a copy of a branch, preserved by a restore, what stays with the branch alone. */
export function keepPreserved(preserved: BranchRecord): void {
  for (const [field, holding] of HOLDINGS) if (!holding.preserved) put(preserved, field, undefined);
}

/** Applies each family's rule to a branch whose data a restore just replaced. */
export function afterRestore(branch: BranchRecord): void {
  for (const [field, holding] of HOLDINGS) {
    const value = fieldsOf(branch)[field];
    if (value !== undefined && holding.onRestore !== undefined) put(branch, field, holding.onRestore(value));
  }
}

/** Applies each family's rule to a branch just deleted. */
export function afterDelete(branch: BranchRecord): void {
  for (const [field, holding] of HOLDINGS) {
    const value = fieldsOf(branch)[field];
    if (value !== undefined && holding.onDelete !== undefined) put(branch, field, holding.onDelete(value));
  }
}

/** The blobs the branches' data names, every family's (live and deleted branches: either may be read again). */
export function blobsInUse(branches: Iterable<BranchRecord>): Set<string> {
  const used = new Set<string>();
  for (const branch of branches) {
    for (const [field, holding] of HOLDINGS) {
      const value = fieldsOf(branch)[field];
      if (value !== undefined && holding.blobs !== undefined)
        for (const blob of holding.blobs(value)) used.add(blob);
    }
  }
  return used;
}

/** Forgets every blob of the object store no branch names any more. */
export function sweepBlobs(branches: Iterable<BranchRecord>, objects: ObjectStore): void {
  objects.sweep(blobsInUse(branches));
}

/** Brings the branches of a loaded state up to date; true when any field changed (the state should be saved). */
export function upgradeBranches(branches: Iterable<BranchRecord>, load: StateUpgrade): boolean {
  let changed = false;
  for (const branch of branches) {
    for (const [field, holding] of HOLDINGS) {
      const value = fieldsOf(branch)[field];
      if (value === undefined || holding.upgrade === undefined) continue;
      const upgraded = holding.upgrade(value, load);
      if (upgraded === undefined) continue;
      put(branch, field, upgraded);
      changed = true;
    }
  }
  return changed;
}
