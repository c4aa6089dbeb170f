/**
 * What a kind gives `lifecycle/preflight.ts` to read at preview (its `finds`), in a module of its
 * own so that `define.ts` names the type without importing the preflight.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { CloudDbClient } from "../../client";

/**
 * A read of the service that a resource's inputs call for at preview (a kind's `finds`): made once
 * per process for each credential and `key`, it gives a finding (the input and what to do) or
 * undefined when all is well. `ids` are the values it reads by: one still unknown at preview (or
 * empty) skips it. `subject` explains a read that fails (a 403 or 404: what it reads, the input it
 * is about, what to do).
 */
export interface Find {
  key: string;
  ids: readonly unknown[];
  subject: Subject;
  read: (client: CloudDbClient) => Promise<Finding>;
}

/** A failed check: the input it is about (none for the credential itself) and what to do. */
export type Finding = pulumi.dynamic.CheckFailure | undefined;

/** The input a read is about, how messages name its object, and what to do when the key cannot use it. */
export interface Subject {
  property: string;
  what: string;
  fix: string;
}
