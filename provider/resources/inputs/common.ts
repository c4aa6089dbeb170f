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

/** The forms of the API's ids, by what they name: a prefix and the lower-case letters, digits and `-` after it. */
export const ID_FORMS = {
  branch: { prefix: "br-", example: "br-aged-sun-a1b2c3d4" },
  snapshot: { prefix: "snap-", example: "snap-quiet-meadow-a1b2c3d4" },
  endpoint: { prefix: "ep-", example: "ep-cool-leaf-a1b2c3d4" },
  organization: { prefix: "org-", example: "org-morning-bread-12345678" },
  "VPC endpoint": { prefix: "vpce-", example: "vpce-0a1b2c3d4e5f6a7b8" },
} as const;

/** Whether `id` has the form of an id of `kind` (see {@link ID_FORMS}). */
export function hasIdForm(kind: keyof typeof ID_FORMS, id: string): boolean {
  const { prefix } = ID_FORMS[kind];
  return id.startsWith(prefix) && /^[a-z0-9][a-z0-9-]*$/.test(id.slice(prefix.length));
}

/**
 * An id of a `kind` object called `property`: non-empty (else `${property} is required: ${what}`, or
 * left out when `optional` says what that does) and of the API's form for that kind.
 */
export function idInput(property: string, kind: keyof typeof ID_FORMS, what: string) {
  const { prefix, example } = ID_FORMS[kind];
  const message = `${property} is required: ${what}`;
  return z
    .string({ error: message })
    .min(1, { error: message, abort: true })
    .refine((id) => hasIdForm(kind, id), {
      error: (issue) =>
        `${property} must be ${kind === "organization" ? "an" : "a"} ${kind} id, ${prefix}… such as ${example}, ` +
        `not ${JSON.stringify(issue.input)}`,
    });
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

/** A required Postgres name (a role, a schema, a table) called `property`: at most 63 bytes. */
export function sqlNameInput(property: string, what: string) {
  return requiredId(property, what).refine((name) => Buffer.byteLength(name) <= POSTGRES_NAME_BYTES, {
    error: `${property} is longer than Postgres's ${POSTGRES_NAME_BYTES} bytes: give a shorter name`,
  });
}

/** An optional string that must not be empty when set. */
export function optionalText(property: string) {
  return optionalId(`${property} must be a non-empty string when set; remove it or give a value`);
}

/**
 * An optional trigger or mark (a build number, a date, a pull request), a string not empty when
 * set; a number is taken as its decimal text, as Pulumi YAML passes a number a stack's config holds
 * (`pulumi config set pullRequest 42`) whatever type the program declares for it.
 */
export function optionalTrigger(property: string) {
  const message = `${property} must be a non-empty string or a number when set; remove it or give a value`;
  return z
    .union([z.string({ error: message }).min(1, message), z.number({ error: message })], { error: message })
    .transform((value) => String(value))
    .optional();
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
