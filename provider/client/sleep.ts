/** Promise-based delay on the global timers (so sinon fake timers drive it in tests). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
