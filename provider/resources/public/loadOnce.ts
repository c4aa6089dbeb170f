/**
 * A module loaded on its first use and kept: `load` (a `require`) runs once, its result is answered
 * after. Kept rather than required again because the plugin's bundle makes each `require` of a
 * module a new object of getters over its exports, which every `Check` and `Diff` would otherwise
 * build again.
 */
export function loadOnce<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load());
}
