/**
 * What the resource declarations share: the types several kinds use. Like the rest of `public/`,
 * this module loads neither zod nor the client, and its declarations reach neither.
 */
import { enumOf, INTEGER, NUMBER, objectType } from "./declare";
import type { ObjectOf } from "./shapes";

/** Bounds on operation waits per step, in seconds (Pulumi's `customTimeouts` do not reach dynamic providers). */
export const TIMEOUTS_TYPE = objectType("Timeouts", {
  /** Bound on waiting for the create (or adoption) operations. */
  create: { type: NUMBER, optional: true },
  /** Bound on waiting for an update or for operations left pending by an earlier run. */
  update: { type: NUMBER, optional: true },
  /** Bound on waiting for the delete operations. */
  delete: { type: NUMBER, optional: true },
});

/** Bounds on operation waits per step, in seconds (Pulumi's `customTimeouts` do not reach dynamic providers). */
export interface Timeouts extends ObjectOf<typeof TIMEOUTS_TYPE.properties> {}

/** A compute's size and suspend timeout; a setting left out is the service's (or the project's) default. */
export const COMPUTE_SETTINGS_TYPE = objectType("ComputeSettings", {
  /** Autoscaling minimum in CU: 0.25, 0.5 or a whole number up to 56. */
  autoscalingLimitMinCu: { type: NUMBER, optional: true },
  /** Autoscaling maximum in CU, at least the minimum; an autoscaling range is at most 8 CU wide and ends at 16 CU. */
  autoscalingLimitMaxCu: { type: NUMBER, optional: true },
  /** Seconds idle before the compute suspends: -1 never, 0 the service's default, else 60-604800. */
  suspendTimeoutSeconds: { type: INTEGER, optional: true },
});

/** Compute settings in the inputs' names. */
export interface ComputeSettings extends ObjectOf<typeof COMPUTE_SETTINGS_TYPE.properties> {}

/** The two compute endpoint types; the API may add others, which the state records as it says. */
export const ENDPOINT_TYPE = enumOf("EndpointType", ["read_write", "read_only"], { open: true });

/**
 * The `timeouts` input of every kind with operation waits. Its type is written as `typeof`, so the
 * declaration files of the kinds that use it name `TIMEOUTS_TYPE` (and keep its properties' docs)
 * instead of copying it.
 */
export const TIMEOUTS_INPUT: { readonly type: typeof TIMEOUTS_TYPE; readonly change: "update" } = {
  type: TIMEOUTS_TYPE,
  change: "update",
};
