/**
 * Input rules more than one resource takes, each written once: ids and names, optional texts, and the
 * lifecycle inputs (`adoptExisting`, `deleteProtection`, `timeouts`). Every message names the input
 * and what to give instead.
 */
import { z } from "zod";

/** A required id (or name) of what the resource belongs to: `${property} is required: ${what}`. */
export function requiredId(property: string, what: string) {
  const message = `${property} is required: ${what}`;
  return z.string({ error: message }).min(1, message);
}

/** The project of the branch an object is on (a compute, a role, a database). */
export const ProjectOfBranchInput = requiredId("projectId", "the project of the branch");

/** An optional id: non-empty when set; `message` says what it is and what leaving it out does. */
export function optionalId(message: string) {
  return z.string({ error: message }).min(1, message).optional();
}

/** A name: non-blank and at most `max` characters; `blank` says what to do when it is missing or blank. */
export function nameInput(max: number, blank: string) {
  return z.string({ error: blank }).superRefine((name, ctx) => {
    if (name.trim() === "") ctx.addIssue({ code: "custom", message: blank });
    else if (name.length > max) {
      ctx.addIssue({
        code: "custom",
        message: `name is ${name.length} characters; the API accepts at most ${max}: shorten it`,
      });
    }
  });
}

/** The optional name of an object the API names when it is left out (a project, a branch). */
export const GeneratedNameInput = nameInput(
  256,
  "name must be a non-empty string; omit it for a generated name",
).optional();

/** Postgres identifiers (role and database names) are at most this many bytes. */
const POSTGRES_NAME_BYTES = 63;

/** The optional name of a Postgres role or database: not blank, at most 63 bytes; left out, one is generated. */
export function postgresNameInput(noun: "role" | "database") {
  return z
    .string({ error: `name must be a Postgres ${noun} name; omit it for a generated one` })
    .refine((name) => name.trim() !== "", "name must not be blank; omit it for a generated one")
    .refine((name) => Buffer.byteLength(name) <= POSTGRES_NAME_BYTES, {
      error: (issue) =>
        `name is ${Buffer.byteLength(String(issue.input))} bytes; Postgres ${noun} names are at most ${POSTGRES_NAME_BYTES}: shorten it`,
    })
    .optional();
}

/** An optional string that must not be empty when set. */
export function optionalText(property: string) {
  return optionalId(`${property} must be a non-empty string when set; remove it or give a value`);
}

/** A label: any string, empty included (what the API stores when none is given). */
export const LabelInput = z.string({ error: "label must be a string" }).optional();

const SECONDS = "timeouts are positive numbers of seconds";

/** The `timeouts` input every resource with operation waits takes. */
export const TimeoutsInput = z
  .object({
    create: z.number({ error: SECONDS }).positive(SECONDS).optional(),
    update: z.number({ error: SECONDS }).positive(SECONDS).optional(),
    delete: z.number({ error: SECONDS }).positive(SECONDS).optional(),
  })
  .optional();

/** An optional true-or-false input named `name`. */
export function optionalFlag(name: string) {
  return z.boolean({ error: `${name} must be true or false` }).optional();
}

/** The `deleteProtection` input. */
export const DeleteProtectionInput = optionalFlag("deleteProtection");

/** The `adoptExisting` input: an existing object's id. */
export function adoptInput(noun: string) {
  return z
    .string({ error: `adoptExisting must be the id of an existing ${noun}` })
    .min(1, `adoptExisting must be the id of an existing ${noun}; remove it to create a new ${noun}`)
    .optional();
}
