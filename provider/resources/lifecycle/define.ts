/**
 * What a resource file defines: its inputs schema and the API calls; the rest (its noun, how each
 * input change is applied, its secrets, its import id, the inputs the API fills in) comes from its
 * declaration. `providerMethods` (in `methods.ts`) turns a definition into Pulumi's check / diff /
 * create / read / update / delete. Beside the types it holds the few small helpers every definition
 * uses (`defineResource`, `labelOf`, `createdSince`, `compact`); it imports only types and the
 * declaration helpers of `public/declare.ts`, so loading it loads neither zod nor the client.
 */
import type { z } from "zod";
import type { ApiError, CloudDbClient } from "../../client";
import {
  type Change,
  changesOf,
  computedOf,
  type Input,
  type ResourceDeclaration,
  secretsOf,
} from "../public/declare";
import type { Find } from "./preflight";
import type { CommonInputs, CommonState } from "./state";

export type { Timeouts } from "../public/common";
export type { Change } from "../public/declare";
export type { CommonInputs, CommonState } from "./state";

/** What an API call of a resource gets: the client, and the bound on this step's operation waits. */
export interface Step {
  client: CloudDbClient;
  /** Epoch ms after which an operation wait gives up. */
  deadline: number;
  /** In a create: the key to mark the new object with, when the resource can (see `owner.ts`). */
  createKey?: string | undefined;
}

/** Why the API refused a delete, and what to do about it: two clauses of one sentence (no capital, no full stop). */
export interface Refusal {
  /** `it still has child branches (br-1)`. */
  why: string;
  /** `delete them first, or ...`. */
  next: string;
}

/** One resource, declared. `I` are its inputs (the schema's type), `O` everything its state records. */
export interface ResourceDefinition<I extends CommonInputs, O extends CommonState> {
  /** How messages name the object: `branch`, `API key` (the declaration's `noun`). */
  noun: string;
  /** Inputs, validated by `check` at preview; extra fields tolerated and dropped. */
  inputs: z.ZodObject<z.ZodRawShape>;
  /**
   * Whether `check` names an object the program left unnamed (`generatedName` in `owner.ts`), for
   * objects the API cannot mark otherwise: a retry after a killed run then asks for the same name.
   */
  generatesName?: boolean;
  /** How a change of each input is applied (one row per input, one test per row): each input's declared `change`. */
  changes: { readonly [K in keyof Required<I>]: Change };
  /**
   * Optional inputs the API fills in when left out (a generated name, the default parent), those
   * declared `computed`: leaving one out later is no opinion, the object keeps what it has.
   */
  computed?: readonly (keyof I)[];
  /**
   * Equality for inputs where plain JSON equality with the state is wrong (e.g. a list compared by
   * type); `all` holds every new input and the whole state, for an input another one governs.
   */
  same?: { readonly [K in keyof I]?: (news: I[K], olds: unknown, all: { news: I; olds: O }) => boolean };
  /** Outputs kept as Pulumi secrets, encrypted in the state (`additionalSecretOutputs`): those declared `secret`. */
  secrets?: readonly (keyof O & string)[];
  /**
   * The organization whose administrators alone can delete the object `inputs` describe, if any:
   * `check` then refuses a key that could create it but never delete it (see `preflight.ts`).
   */
  adminOf?(inputs: I): string | undefined;
  /**
   * What a planned create or update (`olds` empty for a create) names that must exist for it to work,
   * looked for at preview (see `preflight.ts`): a region, a snapshot, a VPC endpoint.
   */
  finds?(inputs: I, olds: Partial<I>): readonly (Find | undefined)[];
  /**
   * Reviews a planned change at preview (`diff`): throws a `ResourceError` for a change the service
   * cannot make, and returns a line to show for one it cannot undo; undefined when there is nothing
   * to say.
   */
  review?(olds: O, news: I): string | undefined;
  /**
   * Whether the object may differ from its state because of a change this run made elsewhere (a
   * restore of its branch): `diff` then asks for an update, which reads the object again.
   */
  stale?(olds: O): boolean;
  /**
   * A line the preview of a create shows (`check`), for what the object's delete cannot undo: the
   * engine asks the provider nothing at the preview of a destroy, so this is where it is said.
   */
  noteAtCreate?(inputs: I): string | undefined;
  /**
   * Refuses, at preview, inputs that only an existing object can take when they plan a create (a
   * restore, which acts on data the object already has): the input and what to do instead.
   */
  refuseAtCreate?(inputs: I): { property: string; reason: string } | undefined;
  /** Whether a replacement must delete the old object first (e.g. a name unique in its project). */
  deleteBeforeReplace?(olds: O, news: I): boolean;
  /** The object's id in the state, from its outputs. */
  id(outs: O): string;
  /** Creates the object and waits for it; throws the client's errors as they come. */
  create(step: Step, inputs: I): Promise<O>;
  /** The outputs of an object the create made before a later step failed (from the error's API answer). */
  created?(inputs: I, response: unknown): O | undefined;
  /**
   * A create's answer was lost after it may have taken effect: finds what it made (then returns it)
   * or undoes it (then throws); undefined when it cannot tell, so the original error stands.
   */
  findLost?(step: Step, inputs: I, startedAt: number, err: unknown): Promise<O | undefined>;
  /**
   * Finds an object an interrupted run made for this resource: one marked with `key` (see
   * `owner.ts`) and never one without the mark. Found, it finishes waiting for it and returns it.
   */
  findOwn?(step: Step, inputs: I, key: string): Promise<O | undefined>;
  /** Takes the existing object `id` under management (only when the resource declares `adoptExisting`). */
  adopt?(step: Step, inputs: I, id: string): Promise<O>;
  /** Reads the object as it is now; undefined (or the client's not-found error) when it is gone. */
  read(step: Step, id: string, props: O | undefined): Promise<O | undefined>;
  /** What an id given to `pulumi import` carries: the declaration's `importId`. */
  importId?: readonly string[];
  /**
   * Reads the existing object `id` as the state would record it, changing nothing: what `pulumi
   * import` records (with its secrets: a password, connection strings) and what adopting starts
   * from. `inputs` holds at least the fields an import id carries.
   */
  readExisting?(step: Step, inputs: I, id: string): Promise<O>;
  /** The inputs that the outputs `outs` stand for (what refresh reports). Default: the declared inputs' keys of `outs`. */
  inputsOf?(outs: O): I;
  /** Applies the in-place changes; `outs` already holds the new input values. Default: `outs` as they are. */
  update?(step: Step, id: string, outs: O, olds: O, news: I): Promise<O>;
  /**
   * The branch the object lives on (a role, a database, a compute, a backup schedule, a snapshot): its delete first checks that
   * the branch, when this run deletes it too, can be deleted (see `branchDelete.ts`).
   */
  onBranch?(props: O): { projectId: string; branchId: string };
  /**
   * Whether the object is a branch (its diff records that the program still declares it, see
   * `branchDelete.ts`).
   */
  isBranch?: boolean;
  /** Deletes the object and waits for it; the client's not-found error counts as done. */
  remove(step: Step, id: string, props: O): Promise<void>;
  /** Reads why the API refused a delete, to say what to do; undefined when the facts say nothing. */
  refusal?(step: Step, id: string, props: O, err: ApiError): Promise<Refusal | undefined>;
  /** Operation actions whose failure leaves the object usable (e.g. a compute starts again on demand). */
  survives?: ReadonlySet<string>;
  /**
   * The operation action that makes the object (`create_branch`). When an earlier run left it
   * pending and it ended cancelled or in error, the object was never made: `update` deletes it.
   */
  madeBy?: string;
}

/** What a definition takes from its declaration rather than writing it again. */
type Declared = "noun" | "changes" | "secrets" | "importId" | "computed";

/** The parts of a definition written in its file: the schema and the API calls. */
export type DefinitionParts<I extends CommonInputs, O extends CommonState> = Omit<
  ResourceDefinition<I, O>,
  Declared
>;

/**
 * Defines the kind `declaration` declares: `parts` with the noun, change table, secrets, import id
 * and computed inputs of the declaration, so none is written twice. The declaration must declare
 * every input `I` has.
 */
export function defineResource<I extends CommonInputs, O extends CommonState>(
  declaration: ResourceDeclaration & { readonly inputs: { readonly [K in keyof Required<I>]: Input } },
  parts: DefinitionParts<I, O>,
): ResourceDefinition<I, O> {
  const computed = computedOf(declaration) as (keyof I & string)[];
  return {
    ...parts,
    noun: declaration.noun,
    changes: changesOf(declaration) as ResourceDefinition<I, O>["changes"],
    secrets: secretsOf(declaration) as (keyof O & string)[],
    ...(declaration.importId === undefined ? {} : { importId: declaration.importId }),
    ...(computed.length === 0 ? {} : { computed }),
  };
}

/** `branch br-1 (dev)`: how messages name an object. */
export function labelOf(noun: string, id: string, props: { name?: string | null | undefined }): string {
  return props.name === undefined || props.name === null ? `${noun} ${id}` : `${noun} ${id} (${props.name})`;
}

/** How far the API's clock may trail ours when matching a `created_at` (which has second precision). */
const CLOCK_SKEW_MS = 2000;

/**
 * The earliest `created_at` (epoch ms) an object made by a request started at `startedAt` can
 * carry: used to find what a create made when its answer was lost, never an older object.
 */
export function createdSince(startedAt: number): number {
  return Math.floor(startedAt / 1000) * 1000 - CLOCK_SKEW_MS;
}

/** `T` with every key that may hold `undefined` made optional and `undefined`-free. */
export type Compact<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** Drops keys whose value is `undefined`: Pulumi state holds plain JSON only. */
export function compact<T extends object>(value: T): Compact<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Compact<T>;
}

/**
 * `true` when `A` and `B` are the same type (each assignable to the other), else `false`. A
 * definition checks its inputs schema against the public inputs interface with it:
 * `true satisfies Same<z.infer<typeof Schema>, Inputs>`.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
