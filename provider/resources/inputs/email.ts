/**
 * Emails as inputs: a project shared with one, an organization's member or invitee named by one.
 * The API compares them without regard to case, and so do the resources.
 */
import { z } from "zod";

/** The API's bound on an email's length. */
const EMAIL_MAX = 256;

/** An email address: one `@`, something before it, a dotted domain after it, no spaces (docs/api-rules.md §11). */
export function isEmail(value: string): boolean {
  return value.length <= EMAIL_MAX && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value);
}

/** Whether two emails name the same account. */
export const sameEmail = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** The input `email`: an email address; `missing` says what it is for when it is left out. */
export function emailInput(missing: string) {
  return z.string({ error: missing }).refine(isEmail, {
    error: (issue) =>
      `email must be an email address such as ada@example.com (at most ${EMAIL_MAX} characters), not ${JSON.stringify(issue.input)}`,
  });
}
