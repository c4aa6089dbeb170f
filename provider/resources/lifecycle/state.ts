/**
 * The inputs and state fields the lifecycle itself reads. Types only, and free of zod and the
 * client, so the errors a program can catch (`../errors.ts`) declare nothing that reaches either.
 */
import type { Timeouts } from "../public/common";

/** Inputs the lifecycle itself understands, when a resource declares them. */
export interface CommonInputs {
  /** The project the object lives in (it names the object in messages). */
  projectId?: string | undefined;
  /** An existing object's id to take under management instead of creating one. */
  adoptExisting?: string | undefined;
  /** When true, delete is refused until it is set back to false. */
  deleteProtection?: boolean | undefined;
  timeouts?: Timeouts | undefined;
  /** The resource's URN, sent by the resource class (see `owner.ts`). */
  __owner?: string | undefined;
  /** Set by `check`: the key a new object is created with and marked by (see `owner.ts`). */
  __createKey?: string | undefined;
}

/** State fields the lifecycle reads, when a resource records them. */
export interface CommonState extends CommonInputs {
  /** The object's name (it names the object in messages). */
  name?: string | null | undefined;
  /** Operations the create started. */
  operationIds?: string[] | undefined;
  /** Operations an earlier run stopped waiting for; the next `update` waits for them. */
  pendingOperationIds?: string[] | undefined;
  /** The declared inputs the program gave (refresh reports back only those). */
  __given?: string[] | undefined;
}
