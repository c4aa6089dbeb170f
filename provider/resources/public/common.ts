/**
 * Types every resource's public part shares. Like the rest of `public/`, this module loads neither
 * zod nor the client, and its declarations reach neither.
 */

/** Bounds on operation waits per step, in seconds (Pulumi's `customTimeouts` do not reach dynamic providers). */
export interface Timeouts {
  /** Bound on waiting for the create (or adoption) operations. */
  create?: number | undefined;
  /** Bound on waiting for an update or for operations left pending by an earlier run. */
  update?: number | undefined;
  /** Bound on waiting for the delete operations. */
  delete?: number | undefined;
}

/** The inputs every resource with operation waits takes, as the provider sees them. */
export interface LifecycleInputs {
  /** An existing object's id (or name) to take under management instead of creating one. */
  adoptExisting?: string | undefined;
  /** When true, delete is refused until it is set back to false. */
  deleteProtection?: boolean | undefined;
  /** Bounds on operation waits, in seconds. */
  timeouts?: Timeouts | undefined;
}

/** Compute settings in the inputs' names. */
export interface ComputeSettings {
  autoscalingLimitMinCu?: number | undefined;
  autoscalingLimitMaxCu?: number | undefined;
  suspendTimeoutSeconds?: number | undefined;
}
