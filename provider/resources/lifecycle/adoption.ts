/**
 * Adopting an existing object from its live state, by the change table: an input that would replace
 * the object must already match (else adopting is refused, naming the input to fix), and the
 * in-place rows are applied with the resource's own `update`, as a later `pulumi up` would.
 */

import { ResourceError } from "../errors";
import type { CommonInputs, CommonState, ResourceDefinition, Step } from "./define";

/** Takes the object `id`, as read now (`live`), under management with `inputs`. */
export async function adoptLive<I extends CommonInputs, O extends CommonState>(
  definition: ResourceDefinition<I, O>,
  step: Step,
  inputs: I,
  id: string,
  live: O,
): Promise<O> {
  // Loaded here: resource files import this module, and a program process never adopts.
  const { diffInputs, updatedState } = require("./diff") as typeof import("./diff");
  const replaces = diffInputs(definition, live, inputs).replaces ?? [];
  if (replaces.length > 0) {
    const has = (key: string) => JSON.stringify((live as Record<string, unknown>)[key] ?? null);
    const wanted = (key: string) => JSON.stringify((inputs as Record<string, unknown>)[key] ?? null);
    throw new ResourceError(
      "NotAdoptable",
      `adoptExisting: ${definition.noun} ${id} has ${replaces.map((k) => `${k} ${has(k)}`).join(", ")}, not ` +
        `${replaces.map(wanted).join(", ")}; fix ${replaces.join(", ")} (or remove ${replaces.length > 1 ? "them" : "it"}) ` +
        `so adopting does not replace the ${definition.noun}`,
    );
  }
  const outs = updatedState(definition, live, inputs);
  return definition.update === undefined ? outs : definition.update(step, id, outs, live, inputs);
}
