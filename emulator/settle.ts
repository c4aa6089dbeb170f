import type { EmulatorContext } from "./context";
import { expireBranches } from "./families/branches";
import { settleSnapshots } from "./families/snapshots";

// Bringing the state up to the clock touches several families, so it sits above them: the request
// hook and the control call it; no family does.

/** Brings the state up to the clock: the platform's scheduled operations, expired branches, then snapshots. */
export function settle(ctx: EmulatorContext): void {
  ctx.engine.catchUp();
  expireBranches(ctx);
  settleSnapshots(ctx);
}
