/**
 * The one lifecycle of every resource: turns a `ResourceDefinition` into the methods of a Pulumi
 * dynamic provider. Written once here: validation, diff from the change table, adoption, recording
 * partial failures, resuming pending operations, refresh dropping what is gone, delete counting
 * what is gone as done, the delete guard, and explaining refusals. Loaded only in the provider
 * process (through a resource's `...Methods` module), so it may hold the client.
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  type ApiError,
  isApiError,
  isBadRequest,
  isConflict,
  isNotFound,
  mayHaveChanged,
} from "../../client";
import { checkInputs, declaredInputs } from "./check";
import {
  type CommonInputs,
  type CommonState,
  labelOf,
  type Refusal,
  type ResourceDefinition,
  type Step,
} from "./define";
import { diffInputs, updatedState } from "./diff";
import { ResourceError, unfinished } from "./errors";
import type { ResourceMethods } from "./lazyProvider";
import { settlePending } from "./pending";
import { preflighted } from "./preflight";
import { configure, deadlineFrom, providerClient } from "./settings";

/** The provider methods of `definition`, as a resource's `...Methods` module exports them. */
export function providerMethods<I extends CommonInputs, O extends CommonState>(
  definition: ResourceDefinition<I, O>,
): ResourceMethods<I, O> {
  const { noun } = definition;
  const step = (seconds: number | undefined): Step => ({
    client: providerClient(),
    deadline: deadlineFrom(seconds),
  });
  const where = (id: string, props: CommonState) =>
    `${labelOf(noun, id, props)}${props.projectId === undefined ? "" : ` in project ${props.projectId}`}`;

  async function adopt(
    take: NonNullable<typeof definition.adopt>,
    inputs: I,
    id: string,
  ): Promise<pulumi.dynamic.CreateResult<O>> {
    try {
      const outs = await take(step(inputs.timeouts?.create), inputs, id);
      return { id: definition.id(outs), outs };
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

  return {
    configure,

    /**
     * Validates inputs before anything is sent; every failure says what to change. When a create or
     * an update is planned, also checks the key, URL, project and organization (see `preflight.ts`).
     */
    check: async (olds, news) => preflighted(definition.inputs, olds, checkInputs(definition.inputs, news)),

    /** Applies the change table; makes no API call. */
    diff: async (_id, olds, news) => diffInputs(definition, olds, news),

    /**
     * Creates the object (or adopts `adoptExisting`) and waits for it. When the object was made but a
     * later step failed, throws a partial failure so Pulumi records it; when the answer was lost,
     * lets the resource find (or undo) what the create made, never re-sending it.
     */
    async create(inputs) {
      if (inputs.adoptExisting !== undefined && definition.adopt !== undefined) {
        return adopt(definition.adopt, inputs, inputs.adoptExisting);
      }
      const current = step(inputs.timeouts?.create);
      const startedAt = Date.now();
      try {
        const outs = await definition.create(current, inputs);
        return { id: definition.id(outs), outs };
      } catch (err) {
        const made = isApiError(err) ? definition.created?.(inputs, err.response) : undefined;
        if (made !== undefined) throw unfinished(noun, definition.id(made), inputs, made, err);
        if (mayHaveChanged(err) && definition.findLost !== undefined) {
          const found = await definition.findLost(current, inputs, startedAt, err);
          if (found !== undefined) return { id: definition.id(found), outs: found };
        }
        throw err;
      }
    },

    /** Refresh: the object as it is now, with the inputs it stands for; gone -> empty id, so Pulumi drops it. */
    async read(id, props) {
      let outs: O | undefined;
      try {
        outs = await definition.read(step(undefined), id, props);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      if (outs === undefined) return { id: "" };
      // Pulumi types refresh's inputs as the outputs type; they are the inputs the outputs stand for.
      const inputs = definition.inputsOf?.(outs) ?? declaredInputs<I>(definition.inputs, outs);
      return { id, props: outs, inputs: inputs as unknown as O };
    },

    /** Finishes waits an earlier run left pending, then applies the `update` rows in place. */
    async update(id, olds, news) {
      const current = step(news.timeouts?.update);
      await settlePending(current, noun, id, olds, definition.survives);
      const outs = updatedState(definition, olds, news);
      return {
        outs: definition.update === undefined ? outs : await definition.update(current, id, outs, olds, news),
      };
    },

    /** Deletes the object and waits; already gone counts as done; a refusal says why and what to do. */
    async remove(id, props) {
      if (props.deleteProtection === true) {
        throw new ResourceError(
          "DeleteRefused",
          `${where(id, props)} has deleteProtection: set deleteProtection: false and run \`pulumi up\` first, then delete it`,
        );
      }
      const current = step(props.timeouts?.delete);
      try {
        await definition.remove(current, id, props);
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
 * One sentence: which object, why the API refused, what to do, and the request id. When the resource
 * cannot tell why, the API's own answer stands in for the reason.
 */
function refusalMessage(where: string, err: ApiError, refusal: Refusal | undefined): string {
  if (refusal === undefined) return `${where} cannot be deleted (API: ${err.message})`;
  const id = err.requestId === undefined ? "" : ` (request id ${err.requestId})`;
  return `${where} cannot be deleted: ${refusal.why}; ${refusal.next}${id}.`;
}
