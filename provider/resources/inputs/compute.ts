/**
 * Compute settings as inputs, one rule set for every resource that sizes a compute (an endpoint, a
 * branch's endpoints, a project's defaults): the sizes the service offers, the autoscaling range, the
 * suspend timeout (`docs/api-rules.md` §7), and the endpoint type. Checked at preview, so a bad size
 * fails before anything is sent, with the value to use instead.
 */
import { z } from "zod";
import { ENDPOINT_TYPES } from "../../client/schemas";
import type { ComputeSettings } from "../public/common";

export type { ComputeSettings } from "../public/common";

/** The largest fixed compute size, in CU. */
export const MAX_CU = 56;
/** The largest maximum of an autoscaling range (minimum below maximum), in CU. */
export const MAX_AUTOSCALING_CU = 16;
/** The widest autoscaling range (maximum minus minimum), in CU. */
export const MAX_AUTOSCALING_SPAN_CU = 8;
/** The suspend timeout's bounds when it is neither -1 (never) nor 0 (the service's default). */
export const SUSPEND_TIMEOUT_SECONDS = { min: 60, max: 604_800 } as const;

/** Whether `cu` is a compute size the service offers. */
export function isComputeSize(cu: number): boolean {
  return cu === 0.25 || cu === 0.5 || (Number.isInteger(cu) && cu >= 1 && cu <= MAX_CU);
}

/** The offered size closest to `cu` (ties go up), to suggest in a message. */
export function nearestComputeSize(cu: number): number {
  if (cu < 0.375) return 0.25;
  if (cu < 0.75) return 0.5;
  return Math.min(MAX_CU, Math.max(1, Math.round(cu)));
}

/** An optional compute size in CU, named `property` in messages. */
function cuInput(property: string) {
  return z
    .number({ error: `${property} must be a number of compute units (CU), e.g. 0.25, 1 or 2` })
    .refine(isComputeSize, {
      error: (issue) =>
        `${property} is ${String(issue.input)} CU; compute sizes are 0.25, 0.5 or a whole number from 1 to ${MAX_CU}: ` +
        `use ${nearestComputeSize(Number(issue.input))}`,
    })
    .optional();
}

const SUSPEND =
  `suspendTimeoutSeconds must be -1 (never suspend), 0 (the service's default) or a whole number of seconds ` +
  `from ${SUSPEND_TIMEOUT_SECONDS.min} to ${SUSPEND_TIMEOUT_SECONDS.max} (one week)`;

/** The optional `suspendTimeoutSeconds` input. */
const SuspendTimeoutInput = z
  .number({ error: SUSPEND })
  .refine(
    (t) =>
      t === -1 ||
      t === 0 ||
      (Number.isInteger(t) && t >= SUSPEND_TIMEOUT_SECONDS.min && t <= SUSPEND_TIMEOUT_SECONDS.max),
    { error: (issue) => `${SUSPEND}; got ${String(issue.input)}` },
  )
  .optional();

/**
 * The compute settings' inputs, for a resource schema to spread; {@link withComputeRange} adds the
 * rules across them.
 */
export const COMPUTE_INPUTS = {
  autoscalingLimitMinCu: cuInput("autoscalingLimitMinCu"),
  autoscalingLimitMaxCu: cuInput("autoscalingLimitMaxCu"),
  suspendTimeoutSeconds: SuspendTimeoutInput,
} satisfies Record<keyof ComputeSettings, z.ZodType>;

const TYPE = `type must be one of ${ENDPOINT_TYPES.join(", ")}`;

/**
 * A compute's type (an Endpoint's `type`, each of a Branch's `endpoints`). A plain string once
 * checked: the state records whatever type the API reports.
 */
export const EndpointTypeInput = z
  .string({ error: TYPE })
  .refine((type) => ENDPOINT_TYPES.some((known) => known === type), {
    error: (issue) => `${TYPE}, not ${JSON.stringify(issue.input)}`,
  });

/** The API's name of each compute setting. */
const API_NAMES = {
  autoscalingLimitMinCu: "autoscaling_limit_min_cu",
  autoscalingLimitMaxCu: "autoscaling_limit_max_cu",
  suspendTimeoutSeconds: "suspend_timeout_seconds",
} as const;

/** The compute settings' input names. */
export const COMPUTE_SETTINGS = Object.keys(API_NAMES) as (keyof ComputeSettings)[];

/** The settings `settings` gives, in the API's names. */
export function apiComputeSettings(settings: ComputeSettings): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of COMPUTE_SETTINGS) {
    const value = settings[key];
    if (value !== undefined) out[API_NAMES[key]] = value;
  }
  return out;
}

/** The settings an API record holds (numbers only), in the inputs' names. */
export function computeSettingsOf(api: Record<string, unknown> | null | undefined): ComputeSettings {
  const out: ComputeSettings = {};
  for (const key of COMPUTE_SETTINGS) {
    const value = api?.[API_NAMES[key]];
    if (typeof value === "number") out[key] = value;
  }
  return out;
}

/**
 * `schema`, which spreads {@link COMPUTE_INPUTS}, with the autoscaling range rules across them: min not
 * above max, an autoscaling maximum within 16 CU, a range at most 8 CU wide. Each failure names the
 * input to change. Each rule runs whenever both ends are valid sizes, even while other inputs are
 * unknown (at preview) or invalid.
 */
export function withComputeRange<S extends z.ZodObject<typeof COMPUTE_INPUTS & z.ZodRawShape>>(schema: S): S {
  const min = "autoscalingLimitMinCu";
  const max = "autoscalingLimitMaxCu";
  const ends = (value: unknown): [number, number] | undefined => {
    if (value === null || typeof value !== "object") return undefined;
    const record = value as Record<string, unknown>;
    const lo = record[min];
    const hi = record[max];
    return typeof lo === "number" && typeof hi === "number" && isComputeSize(lo) && isComputeSize(hi)
      ? [lo, hi]
      : undefined;
  };
  const rule = (
    checked: S,
    input: typeof min | typeof max,
    broken: (lo: number, hi: number) => boolean,
    message: (lo: number, hi: number) => string,
  ): S =>
    checked.refine(
      (value) => {
        const both = ends(value);
        return both === undefined || !broken(...both);
      },
      {
        path: [input],
        when: (payload) => ends(payload.value) !== undefined,
        error: (issue) => message(...(ends(issue.input) ?? [0, 0])),
      },
    ) as S;
  let checked = rule(
    schema,
    min,
    (lo, hi) => lo > hi,
    (lo, hi) => `${min} (${lo}) is above ${max} (${hi}): lower ${min} or raise ${max} to at least ${lo}`,
  );
  checked = rule(
    checked,
    max,
    (lo, hi) => lo < hi && hi > MAX_AUTOSCALING_CU,
    (lo, hi) =>
      `${max} is ${hi} CU with ${min} ${lo}: autoscaling goes up to ${MAX_AUTOSCALING_CU} CU; lower ${max} to ` +
      `${MAX_AUTOSCALING_CU}, or set both to ${hi} for a fixed size`,
  );
  return rule(
    checked,
    min,
    (lo, hi) => lo < hi && hi <= MAX_AUTOSCALING_CU && hi - lo > MAX_AUTOSCALING_SPAN_CU,
    (lo, hi) =>
      `the autoscaling range ${lo}-${hi} CU is ${hi - lo} CU wide; it may be at most ${MAX_AUTOSCALING_SPAN_CU}: ` +
      `raise ${min} to ${hi - MAX_AUTOSCALING_SPAN_CU} or lower ${max} to ${Math.floor(lo + MAX_AUTOSCALING_SPAN_CU)}`,
  );
}
