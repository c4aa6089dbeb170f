// Which family of this folder may import which (docs/architecture.md, "Imports go one way"): each
// family has a level, and a family imports only families of a lower level, never one of its own
// level or above, so no circle can form and a change to a family reaches only the levels above it.
// No family imports the layers above the families (ABOVE_FAMILIES). `npm run lint` checks every
// import of this folder against this file (scripts/check-family-imports.ts), type imports included,
// also when it goes through a module outside the folder; a family file without a level fails it.
// The table is data only: nothing in the emulator reads it at run time.

/** One level of the families: who sits there, and why there. */
export interface FamilyLevel {
  /** Why these families sit at this level: what they change, and what they need below them. */
  readonly why: string;
  /** Their file names in `emulator/families/`, without `.ts`. */
  readonly families: readonly string[];
}

/** The levels from the bottom (level 0): a family may import the families of the levels before its own. */
export const FAMILY_LEVELS: readonly FamilyLevel[] = [
  {
    why: "the registry through which each family says what it keeps on a branch and what a copy, preserve, restore or delete does to it: it imports no family, so every family may register and the branches family reaches them all through it",
    families: ["branch-data"],
  },
  {
    why: "changes only its own records, no branch or compute: the operations every compute change starts, and the account's access (organizations, members, keys, grants, VPC endpoints)",
    families: ["operations", "organizations", "api-keys", "permissions", "project-members", "vpc"],
  },
  {
    why: "computes: started, suspended and given a branch's configuration through the operations below",
    families: ["endpoints"],
  },
  {
    why: "what a branch holds: its roles and databases (whose changes reach its compute), its Auth and its services",
    families: [
      "roles",
      "databases",
      "auth",
      "buckets",
      "credentials",
      "custom-domains",
      "data-api",
      "functions",
    ],
  },
  {
    why: "branches: made with their computes and a copy of what their parent holds",
    families: ["branches"],
  },
  {
    why: "built on branches: a project with its root branch, a snapshot restored as a branch, a schema at a point of a branch's history, an anonymized branch",
    families: ["projects", "snapshots", "schemas", "anonymization"],
  },
  {
    why: "moves whole projects between accounts",
    families: ["transfers"],
  },
];

/**
 * The emulator's modules above the families, which no family may import (a folder ends with `/`):
 * they render, route, settle, seed or serve the state the families change, and import families.
 */
export const ABOVE_FAMILIES: readonly string[] = [
  "render/",
  "settle.ts",
  "routes/",
  "seed.ts",
  "control.ts",
  "server.ts",
  "start.ts",
  "cli.ts",
  "index.ts",
];
