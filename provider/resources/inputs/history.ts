/**
 * Points of a branch's history as inputs (a branch's parent point, a restore point, a snapshot's
 * point): an RFC 3339 time or an LSN, each message naming the input.
 */
import { z } from "zod";
import { isTimestamp } from "../expiry";

/** An LSN as the API writes it, `0/1F0A3B8`: two hexadecimal halves of up to 8 digits. */
const LSN = /^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/;

/** An optional RFC 3339 timestamp called `name`. */
export function timestampInput(name: string) {
  const message = `${name} must be an RFC 3339 timestamp such as 2025-06-09T18:02:16Z`;
  return z.string({ error: message }).refine(isTimestamp, message);
}

/** An optional point in the past called `name`; a later one fails with `future` (what to give instead). */
export function pastTimestampInput(name: string, future: string) {
  return timestampInput(name)
    .refine((value) => !(Date.parse(value) > Date.now()), `${name} is in the future: ${future}`)
    .optional();
}

/** An optional LSN called `name`. */
export function lsnInput(name: string) {
  const message = `${name} must be an LSN such as 0/1F0A3B8`;
  return z.string({ error: message }).regex(LSN, message).optional();
}
