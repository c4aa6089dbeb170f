/**
 * The one lifecycle of every resource: turns a `ResourceDefinition` into the methods of a Pulumi
 * dynamic provider. Written once here: validation, diff from the change table, adoption, recording
 * partial failures, resuming pending operations, refresh dropping what is gone, delete counting
 * what is gone as done, the delete guard, and explaining refusals. Loaded only in the provider
 * process (through the kinds' table, `methodsTable.ts`), so it may hold the client.
 */
import {
  type ApiError,
  isApiError,
  isBadRequest,
  isConflict,
  isNotFound,
  mayHaveChanged,
} from "../../client/errors";
import { isResourceError, ResourceError, unfinished } from "../errors";
import { withCurrentKey } from "../host/currentKey";
import { hostLine } from "../host/progress";
import { clientFromSettings, configure, deadlineFrom } from "../host/settings";
import { importIdShape } from "../public/declare";
import { branchDeclared, branchDeleteBlock } from "./branchDelete";
import { checkInputs, declaredInputs } from "./check";
import { recordDeclared } from "./declared";
import {
  type CommonInputs,
  type CommonState,
  labelOf,
  type Refusal,
  type ResourceDefinition,
  type Step,
} from "./define";
import { diffInputs, updatedState } from "./diff";
import type { ResourceMethods } from "./lazyProvider";
import {
  CREATE_KEY,
  createKeyFor,
  GIVEN,
  generatedName,
  generatedSlug,
  givenInputs,
  OWNER,
  tookOwn,
  wasTakenOwn,
} from "./owner";
import { settlePending } from "./pending";
import { preflighted } from "./preflight";

/** The provider methods of `definition`, as the kinds' table serves them. */
export function providerMethods<I extends CommonInputs, O extends CommonState>(
  definition: ResourceDefinition<I, O>,
): ResourceMethods<I, O> {
  const { noun } = definition;
  /**
   * A step's client and deadline; the client uses `apiKey` when given (see `host/currentKey.ts`). The
   * client carries the step's deadline, so every request of the step (reads, key creates and
   * revokes, waits past 429s) is bounded by it, not only the calls that pass it themselves.
   */
  const step = (seconds: number | undefined, apiKey?: string): Step => {
    const deadline = deadlineFrom(seconds);
    return {
      client: clientFromSettings(apiKey === undefined ? { deadline } : { apiKey, deadline }),
      deadline,
    };
  };
  const where = (id: string, props: CommonState) =>
    `${labelOf(noun, id, props)}${props.projectId === undefined ? "" : ` in project ${props.projectId}`}`;

  async function adopt(
    take: NonNullable<typeof definition.adopt>,
    inputs: I,
    id: string,
    apiKey: string | undefined,
  ): Promise<O> {
    try {
      return await take(step(inputs.timeouts?.create, apiKey), inputs, id);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      throw new ResourceError(
        "NotAdoptable",
        `adoptExisting: ${noun} ${id} was not found${inputs.projectId === undefined ? "" : ` in project ${inputs.projectId}`}; ` +
          `check both ids, or remove adoptExisting to create a new ${noun}`,
        err,
      );
    }
  }

  /**
   * After `settlePending` found that the operation making the object failed (an `Unmade` error):
   * deletes what is left, so that nothing unusable stays and no later create takes it for its own,
   * and throws saying so and the one command that makes it anew. Other errors pass through.
   */
  async function deleteUnmade(current: Step, id: string, olds: O, err: unknown): Promise<never> {
    if (!isResourceError(err) || err.kind !== "Unmade") throw err;
    await definition.remove(current, id, olds).catch((gone: unknown) => {
      if (!isNotFound(gone)) throw gone;
    });
    throw new ResourceError(
      "Unmade",
      `${err.message}, so the ${noun} was never made: it was deleted. Run \`pulumi up --refresh\`: the ` +
        `refresh drops it from the state and the up creates it anew.`,
      err,
    );
  }

  return {
    configure,

    /**
     * Validates inputs before anything is sent; every failure says what to change. When a create or
     * an update is planned, also checks the key, URL, project and organization (see `preflight.ts`).
     * Adds the create key (see `owner.ts`), and the generated name of an unnamed object when the
     * resource generates names: the one it already has, else one from the URN and the key.
     */
    async check(olds, news) {
      const valid = checkInputs(definition.inputs, news);
      const refused =
        Object.keys(olds).length === 0 && valid.failures === undefined && valid.inputs !== undefined
          ? definition.refuseAtCreate?.(valid.inputs)
          : undefined;
      const refusedOrValid = refused === undefined ? valid : { inputs: news, failures: [refused] };
      const inspected =
        refusedOrValid.failures === undefined && refusedOrValid.inputs !== undefined
          ? definition.inspect?.(refusedOrValid.inputs, olds)
          : undefined;
      const checked =
        inspected === undefined
          ? refusedOrValid
          : inspected.failures.length > 0
            ? { inputs: news, failures: [...inspected.failures] }
            : { inputs: { ...refusedOrValid.inputs, ...inspected.derived } as I };
      const note =
        Object.keys(olds).length === 0 && checked.failures === undefined && checked.inputs !== undefined
          ? definition.noteAtCreate?.(checked.inputs)
          : undefined;
      if (note !== undefined) hostLine(`${noun}: ${note}`);
      const key = createKeyFor(olds as Record<string, unknown>, news as Record<string, unknown>);
      const finds =
        definition.finds === undefined ? undefined : (inputs: I) => definition.finds?.(inputs, olds) ?? [];
      // What passes is recorded as declared by this run, for the finds of the resources that name it.
      const declaring = (result: Awaited<ReturnType<typeof preflighted<I>>>) => {
        if ((result.failures ?? []).length === 0 && result.inputs !== undefined)
          recordDeclared(noun, result.inputs);
        return result;
      };
      if (key === undefined || (checked.failures ?? []).length > 0) {
        return declaring(await preflighted(definition.inputs, olds, checked, definition.adminOf, finds));
      }
      const owner = news[OWNER];
      const inputs: Record<string, unknown> = {
        ...checked.inputs,
        [CREATE_KEY]: key,
        ...(definition.marksStack === true && typeof owner === "string" ? { [OWNER]: owner } : {}),
      };
      const field = definition.generatesName === "slug" ? "slug" : "name";
      if (definition.generatesName !== undefined && inputs[field] === undefined) {
        const had = (olds as Record<string, unknown>)[field];
        if (typeof had === "string") inputs[field] = had;
        else if (typeof owner === "string")
          inputs[field] = (field === "slug" ? generatedSlug : generatedName)(owner, key);
      }
      // Judged with the generated name in: an unnamed object whose stored inputs hold the name it got is unchanged.
      return declaring(
        await preflighted(
          definition.inputs,
          olds,
          { ...checked, inputs: inputs as I },
          definition.adminOf,
          finds,
        ),
      );
    },

    /** Applies the change table after the definition's review (see `review`); makes no API call. */
    async diff(id, olds, news) {
      const note = definition.review?.(olds, news);
      // A line for the user: the preview shows it (see `host/progress.ts`, `hostLine`).
      if (note !== undefined) hostLine(`${labelOf(noun, id, olds)}: ${note}`);
      const result = diffInputs(definition, olds, news);
      if (
        definition.isBranch === true &&
        olds.projectId !== undefined &&
        (result.replaces ?? []).length === 0
      ) {
        branchDeclared(olds.projectId, id);
      }
      return result;
    },

    /**
     * Creates the object (or adopts `adoptExisting`) and waits for it. When the object was made but a
     * later step failed, throws a partial failure so Pulumi records it; when the answer was lost,
     * lets the resource find (or undo) what the create made, never re-sending it.
     */
    create: (inputs) =>
      withCurrentKey(`creating the ${noun}`, async (apiKey) => {
        const recorded = (outs: O) => ({ id: definition.id(outs), outs: withBookkeeping(outs, inputs) });
        if (inputs.adoptExisting !== undefined && definition.adopt !== undefined) {
          return recorded(await adopt(definition.adopt, inputs, inputs.adoptExisting, apiKey));
        }
        const key = inputs[CREATE_KEY];
        const current = { ...step(inputs.timeouts?.create, apiKey), createKey: key, owner: inputs[OWNER] };
        // An interrupted run may have made this very object already: take it, never make a second one.
        const own = key === undefined ? undefined : await definition.findOwn?.(current, inputs, key);
        if (own !== undefined) {
          tookOwn(noun, definition.id(own));
          return recorded(own);
        }
        const startedAt = Date.now();
        try {
          return recorded(await definition.create(current, inputs));
        } catch (err) {
          const made = isApiError(err) ? definition.created?.(inputs, err.response) : undefined;
          if (made !== undefined) {
            throw unfinished(noun, definition.id(made), inputs, withBookkeeping(made, inputs), err);
          }
          if (mayHaveChanged(err) && definition.findLost !== undefined) {
            const found = await definition.findLost(current, inputs, startedAt, err);
            if (found !== undefined) return recorded(found);
          }
          throw err;
        }
      }),

    /**
     * Refresh: the object as it is now, with the inputs it stands for; gone -> empty id, so Pulumi
     * drops it. Without a state (`pulumi import`), `id` is the import id (see `importing`), and the
     * answer carries the object's own id.
     */
    async read(id, props) {
      let outs: O | undefined;
      const existing = definition.readExisting;
      try {
        outs = await withCurrentKey(`reading ${where(id, props ?? {})}`, (apiKey) =>
          props === undefined && existing !== undefined
            ? importing(definition, existing, step(undefined, apiKey), id)
            : definition.read(step(undefined, apiKey), id, props),
        );
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      if (outs === undefined) return { id: "" };
      // Pulumi types refresh's inputs as the outputs type; they are the inputs the outputs stand for.
      const inputs = refreshedInputs(definition, outs) as unknown as O;
      // The object's own id: after a restore outside the stack, that of the branch that carries it now.
      return { id: definition.id(outs), props: outs, inputs };
    },

    /** Finishes waits an earlier run left pending, then applies the `update` rows in place. */
    update: (id, olds, news) =>
      withCurrentKey(`updating ${where(id, olds)}`, async (apiKey) => {
        const current = step(news.timeouts?.update, apiKey);
        const rules = { survives: definition.survives, madeBy: definition.madeBy, urn: news[OWNER] };
        await settlePending(current, noun, id, olds, rules).catch((err) =>
          deleteUnmade(current, id, olds, err),
        );
        const outs = updatedState(definition, olds, news);
        const updated =
          definition.update === undefined ? outs : await definition.update(current, id, outs, olds, news);
        return { outs: withBookkeeping(updated, news, olds[CREATE_KEY]) };
      }),

    /** Deletes the object and waits; already gone counts as done; a refusal says why and what to do. */
    async remove(id, props) {
      if (props.deleteProtection === true) {
        throw new ResourceError(
          "DeleteRefused",
          `${where(id, props)} has deleteProtection: set deleteProtection: false and run \`pulumi up\` first, then delete it`,
        );
      }
      if (wasTakenOwn(noun, id)) {
        // The replacement created in this run is this very object: deleting it would delete that too.
        console.log(
          `${where(id, props)} is kept, not deleted: its replacement, created in this run, is this same object ` +
            "(Pulumi checked the replacement without the state of the object it replaces, as it does for " +
            "`pulumi up --replace` and tainted resources, and the object carries the resource's create key).",
        );
        return;
      }
      let current = step(props.timeouts?.delete);
      const on = definition.onBranch?.(props);
      if (on !== undefined) {
        const block = await branchDeleteBlock(current.client, on.projectId, on.branchId).catch(
          () => undefined,
        );
        if (block !== undefined) {
          throw new ResourceError("DeleteRefused", `${where(id, props)} is not deleted: ${block}.`);
        }
      }
      try {
        await withCurrentKey(`deleting ${where(id, props)}`, (apiKey) => {
          current = step(props.timeouts?.delete, apiKey);
          return definition.remove(current, id, props);
        });
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isBadRequest(err) && !isConflict(err)) throw err;
        const refusal = await definition.refusal?.(current, id, props, err).catch(() => undefined);
        throw new ResourceError("DeleteRefused", refusalMessage(where(id, props), err, refusal), err);
      }
    },
  };
}

/**
 * The existing object an import id names (`<projectId>/<branchId>` for a branch: the declaration's
 * `importId`), read with nothing changed. An id of the wrong shape is refused with the shape and an
 * example; a kind without `importId` cannot be imported at all.
 */
function importing<I extends CommonInputs, O extends CommonState>(
  definition: ResourceDefinition<I, O>,
  readExisting: NonNullable<ResourceDefinition<I, O>["readExisting"]>,
  current: Step,
  id: string,
): Promise<O> {
  const names = definition.importId ?? [];
  const parts = id.split("/");
  if (names.length === 0 || parts.length !== names.length || parts.some((part) => part === "")) {
    const shape = importIdShape(definition.noun, names);
    throw new ResourceError(
      "NotImportable",
      names.length === 0
        ? `a ${definition.noun} cannot be imported`
        : `cannot import ${definition.noun} "${id}": its import id is ${shape}, ` +
            `e.g. ${names.map(exampleOf).join("/")}`,
    );
  }
  const fields = Object.fromEntries(names.map((name, i) => [name, parts[i]]));
  return readExisting(current, fields as unknown as I, parts[parts.length - 1] as string);
}

/** An example value of an import id's field, in the API's id formats. */
function exampleOf(name: string): string {
  const examples: Record<string, string> = {
    projectId: "misty-moon-12345678",
    branchId: "br-aged-sun-a1b2c3d4",
    endpointId: "ep-cool-leaf-a1b2c3d4",
    snapshotId: "snap-quiet-meadow-a1b2c3d4",
    orgId: "org-morning-bread-12345678",
    regionId: "aws-us-east-2",
    vpcEndpointId: "vpce-0a1b2c3d4e5f6a7b8",
    permissionId: "8f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  };
  return examples[name] ?? "app";
}

/**
 * `outs` with what the lifecycle itself records: the key the object was created with (see
 * `owner.ts`) and which declared inputs the program gave (so refresh reports back only those).
 */
function withBookkeeping<I extends CommonInputs, O extends CommonState>(
  outs: O,
  inputs: I,
  key: string | undefined = inputs[CREATE_KEY],
): O {
  const { [OWNER]: _owner, ...rest } = outs as Record<string, unknown>;
  const given = givenInputs(inputs as Record<string, unknown>);
  return { ...rest, ...(key === undefined ? {} : { [CREATE_KEY]: key }), [GIVEN]: given } as O;
}

/**
 * The inputs refresh reports: the ones the program gave, with the values the object has now (so
 * drift shows and an untouched object shows none). A state recorded before `__given` existed
 * reports every declared input.
 */
function refreshedInputs<I extends CommonInputs, O extends CommonState>(
  definition: ResourceDefinition<I, O>,
  outs: O,
): Record<string, unknown> {
  const all = (definition.inputsOf?.(outs) ?? declaredInputs<I>(definition.inputs, outs)) as Record<
    string,
    unknown
  >;
  const given = outs[GIVEN];
  const key = outs[CREATE_KEY];
  const kept =
    given === undefined ? all : Object.fromEntries(given.filter((k) => k in all).map((k) => [k, all[k]]));
  return key === undefined ? kept : { ...kept, [CREATE_KEY]: key };
}

/**
 * One sentence: which object, why the API refused, what to do, and the request id. When the resource
 * cannot tell why, the API's own answer stands in for the reason.
 */
function refusalMessage(where: string, err: ApiError, refusal: Refusal | undefined): string {
  if (refusal === undefined) return `${where} cannot be deleted (API: ${err.message})`;
  const id = err.requestId === undefined ? "" : ` (request id ${err.requestId})`;
  return `${where} cannot be deleted: ${refusal.why}; ${refusal.next}${id}.`;
}
