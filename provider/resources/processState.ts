/**
 * What a provider process remembers for the length of one engine run: the create keys of its first
 * checks, its preflight answers, its first listings, the branches it restored and the branches the
 * program declares. The engine starts a new provider process for each run; something that plays
 * several runs in one process (the lifecycle fuzzer, tests) forgets it all in between, with this.
 */
import { forgetBranchDeletes } from "./lifecycle/branchDelete";
import { forgetFirstListings } from "./lifecycle/firstListings";
import { forgetReplacementKeys } from "./lifecycle/owner";
import { forgetPreflight } from "./lifecycle/preflight";
import { forgetRestoredHere } from "./restores";

/** Forgets everything this process remembers of the current run, as a new provider process would start. */
export function forgetRun(): void {
  forgetReplacementKeys();
  forgetPreflight();
  forgetFirstListings();
  forgetBranchDeletes();
  forgetRestoredHere();
}
