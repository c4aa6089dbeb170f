/**
 * Listings a definition's `findOwn` takes once per scope (a project's branches, an owner's API
 * keys) in a process. An object an interrupted earlier run made exists before this run's first
 * create in the scope, and every object this run makes is recorded by this run: so one listing per
 * scope serves every create's `findOwn`, instead of one per create. The engine starts a new
 * provider process for each run; tests that play several runs in one process forget in between.
 */
const listings = new Map<string, Promise<unknown>>();

/** The listing of `scope` this process took first, taking it with `list` now if there is none. */
export function firstListing<T>(scope: string, list: () => Promise<T>): Promise<T> {
  let listing = listings.get(scope) as Promise<T> | undefined;
  if (listing === undefined) {
    listing = list();
    listings.set(scope, listing);
    // A failed listing is not kept: the next create asks again.
    listing.catch(() => listings.delete(scope));
  }
  return listing;
}

/** Forgets every first listing, as a new provider process starts without them. */
export function forgetFirstListings(): void {
  listings.clear();
}
