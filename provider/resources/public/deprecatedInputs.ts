/**
 * Warnings at preview for inputs the provider sends as a field the API's newest description
 * (@neon/sdk's types, see docs/architecture.md "The API contract") marks deprecated: the service
 * still takes the field, and a program that sets the input is told, once per resource, what to do
 * instead. Runs in the program's process (from the resource's constructor), so a preview shows the
 * warning on the resource before anything is sent; the resource itself is unchanged.
 */
import { DEPRECATED } from "./deprecated.gen";

/** An input sent as a deprecated field: the field's name in a request, where the derived list marks it (`Type.field`, or the field's `Type`), and, where this package offers one, its own way to do it. */
interface SentAs {
  sent: string;
  field: string;
  /** What this package offers instead, when the description's note speaks only of the API. */
  here?: string;
}

/** By kind, each input sent as a deprecated field. */
const SENT_AS: Readonly<Record<string, Readonly<Record<string, SentAs>>>> = {
  Endpoint: {
    poolerEnabled: {
      sent: "pooler_enabled",
      field: "EndpointCreateRequest.endpoint.pooler_enabled",
      here: "the Endpoint's pooledHost output is that host",
    },
    // The field's whole type is deprecated: its only value is the mode the pooler runs anyway.
    poolerMode: { sent: "pooler_mode", field: "EndpointPoolerMode" },
  },
};

/** Markdown links (`[text](url)`) as plain text: a warning is read in a terminal. */
const plain = (note: string): string => note.replace(/\[([^\]]+)\]\(([^)]+)\)/g, "$1: $2");

/** The note the derived list has for `field`; throws when the list does not (a stale entry above). */
function noteOf(field: string): string {
  const note = DEPRECATED[field];
  if (note === undefined) throw new Error(`the API's description no longer marks ${field} deprecated`);
  return note;
}

/**
 * The warnings for a resource of kind `type` given `args`: one per input that is set (to a value
 * or an output) and sent as a deprecated field. Throws when an entry names a field the derived
 * list does not mark deprecated.
 */
export function deprecatedInputWarnings(type: string, args: object): string[] {
  const inputs = SENT_AS[type] ?? {};
  const given = args as Record<string, unknown>;
  return Object.entries(inputs)
    .filter(([input]) => given[input] !== undefined)
    .map(([input, sentAs]) => `${type} input ${input} is deprecated ${reasonOf(sentAs)}`);
}

/** Why an input is deprecated and what to do instead: the API's note, and this package's way when it has one. */
function reasonOf(sentAs: SentAs): string {
  return `(the API marks ${sentAs.sent}, which it is sent as, deprecated): ${reasonText(sentAs)}`;
}

/** The API's note on the field, and this package's way when it has one. */
function reasonText({ field, here }: SentAs): string {
  const note = plain(noteOf(field)).replace(/\.?\s*$/, ".");
  return here === undefined ? note : `${note} Here, ${here}.`;
}

/**
 * The deprecation message of each deprecated input of kind `type`, for the package schema (each SDK
 * marks the input deprecated with it): the reason the preview's warning gives.
 */
export function deprecationMessages(type: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(SENT_AS[type] ?? {}).map(([input, sentAs]) => [
      input,
      `The API marks ${sentAs.sent}, which this input is sent as, deprecated: ${reasonText(sentAs)}`,
    ]),
  );
}

/** Every kind's deprecated inputs, by kind, with the field each is sent as (tests). */
export function deprecatedInputs(): Record<string, Record<string, string>> {
  return Object.fromEntries(
    Object.entries(SENT_AS).map(([type, inputs]) => [
      type,
      Object.fromEntries(Object.entries(inputs).map(([input, { field }]) => [input, field])),
    ]),
  );
}
