/**
 * Objects the program names itself and the API sets with one call that assigns or relabels (a VPC
 * endpoint of an organization, a project's restriction to one): nothing marks who made one, so a
 * create reads first. Absent, the object is assigned. Present with the declared label, it is what
 * a killed run or a lost answer of this very create made (the same call would change nothing):
 * taken as it is. Present with another label, it was made elsewhere: refused, saying how to adopt it.
 */
import type { CloudDbClient } from "../../client";
import { ResourceError, unfinished } from "../errors";
import { adoptLive } from "./adoption";
import { declaredInputs } from "./check";
import type { CommonInputs, CommonState, ResourceDefinition } from "./define";

/** One assignment, as a create sees it. */
export interface Assignment<T> {
  /** How messages name the object: `VPC endpoint vpce-1 of organization org-1 in aws-us-east-2`. */
  what: string;
  /** The label the program declares (empty when left out). */
  label: string;
  /** The id `adoptExisting` takes, and the input that holds it. */
  id: string;
  idInput: string;
  /** The object as the API has it now; undefined when it is not assigned. */
  current(): Promise<T | undefined>;
  /** Its label. */
  labelOf(found: T): string;
  /** Assigns it with the declared label. */
  assign(): Promise<void>;
}

/**
 * The assignment made (or found made by this resource); throws `NameTaken` for one made elsewhere.
 * Once assigned, a read-back that fails or does not list it throws what `unread` makes of the error
 * (a partial failure that records it), so the assignment is never left out of the state.
 */
export async function assignOnce<T>(
  assignment: Assignment<T>,
  unread: (err: unknown) => Error = (err) => err as Error,
): Promise<T> {
  const found = await assignment.current();
  if (found === undefined) {
    await assignment.assign();
    let made: T | undefined;
    try {
      made = await assignment.current();
    } catch (err) {
      throw unread(err);
    }
    if (made === undefined)
      throw unread(new Error(`${assignment.what} was assigned, yet the API does not list it`));
    return made;
  }
  const label = assignment.labelOf(found);
  if (label === assignment.label) return found;
  throw new ResourceError(
    "NameTaken",
    `${assignment.what} is already assigned, with label ${JSON.stringify(label)}, not ` +
      `${JSON.stringify(assignment.label)}: it was assigned outside this stack. To manage it here, add ` +
      `adoptExisting: "${assignment.id}" and run \`pulumi up\` again (the label is then set in place), or ` +
      "`pulumi import` it; otherwise remove this resource",
  );
}

/** After a lost answer: the assignment with the declared label if it is there (the create took effect), else undefined. */
export async function assignedSince<T>(assignment: Assignment<T>): Promise<T | undefined> {
  const found = await assignment.current().catch(() => undefined);
  return found !== undefined && assignment.labelOf(found) === assignment.label ? found : undefined;
}

/** How a kind of assignment is read and recorded. */
export interface AssignmentKind<I extends CommonInputs, O extends CommonState, T> {
  /** The definition these methods belong to (read when adopting, after it is built). */
  definition(): ResourceDefinition<I, O>;
  /** The assignment `inputs` declare. */
  assignment(client: CloudDbClient, inputs: I): Assignment<T>;
  /** The state recorded for the assignment `found`. */
  outputsOf(inputs: I, found: T): O;
  /** The existing assignment `id`, as the state would record it; throws when there is none. */
  existing(client: CloudDbClient, inputs: I, id: string): Promise<O>;
}

/**
 * The create, lost-answer, adoption and import methods of an assignment's definition: a create
 * assigns once (`assignOnce`), a lost answer finds its assignment, and adopting reads the existing
 * one, whose label the definition's `update` then sets.
 */
export function assignmentMethods<I extends CommonInputs, O extends CommonState, T>(
  kind: AssignmentKind<I, O, T>,
): Pick<ResourceDefinition<I, O>, "create" | "findLost" | "adopt" | "readExisting"> {
  return {
    create: ({ client }, inputs) =>
      assignOnce(kind.assignment(client, inputs), (err) => {
        // Assigned but not read back: recorded as declared; the next `up` reads it again.
        const definition = kind.definition();
        const declared = declaredInputs<O>(definition.inputs, inputs);
        return unfinished(definition.noun, definition.id(declared), inputs, declared, err);
      }).then((found) => kind.outputsOf(inputs, found)),
    async findLost({ client }, inputs) {
      const found = await assignedSince(kind.assignment(client, inputs));
      return found === undefined ? undefined : kind.outputsOf(inputs, found);
    },
    async adopt(step, inputs, id) {
      const { id: declared, idInput } = kind.assignment(step.client, inputs);
      if (id !== declared) {
        throw new ResourceError(
          "NotAdoptable",
          `adoptExisting: ${id} is not ${idInput} ${declared}; set both to the id of the one to adopt`,
        );
      }
      return adoptLive(kind.definition(), step, inputs, id, await kind.existing(step.client, inputs, id));
    },
    readExisting: ({ client }, inputs, id) => kind.existing(client, inputs, id),
  };
}
