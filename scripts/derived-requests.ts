// The shapes scripts/derive-openapi.ts and scripts/derive-sdk-contract.ts both derive and read:
// a route's request schemas, the artifact of them, and a file of its TypeScript types.

type Obj = Record<string, unknown>;

/** One route's request schemas. */
export interface DerivedOperation {
  params: Obj;
  query: Obj;
  body?: Obj;
  bodyRequired: boolean;
}

/** The artifact: ajv-ready schemas keyed by "METHOD /template". */
export interface DerivedRequests {
  $id: string;
  source: string;
  operations: Record<string, DerivedOperation>;
  components: { schemas: Record<string, Obj> };
}

/** A file of the artifact's TypeScript types, and how its reader sees a request. */
export interface TypesArtifact {
  /** Where the file is written. */
  path: string;
  /** The file's first line and the doc of its `Requests`. */
  header: string;
  doc: string;
  /**
   * The reader gets path parameters and query with their defaults filled in (the emulator's
   * validator does that), so a property with a default is always present.
   */
  defaultsApplied: boolean;
  /** The reader sends the request as JSON, which leaves an `undefined` property out: an optional one may be `undefined`. */
  undefinedWhenOptional: boolean;
  /**
   * The reader may send a value the document does not list: a string enum offers the listed values
   * and takes any string (the service adds values before the document lists them, and judges them).
   */
  openEnums: boolean;
}
