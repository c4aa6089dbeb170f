import { DEMO } from "../../../emulator";
import { forgetPreflight } from "../../../provider/resources/lifecycle/preflight";
import { useEmulator, useTestEnv } from "./harness";

/**
 * The set-up the governance suites (an organization's kinds, a project's members) share: an
 * emulator on a manual clock and the test environment, with the preflight cache and the request log
 * cleared before each test. `org()` reads the demo organization's record; `outside` calls the API as
 * another tool would, with the demo admin's key, and expects a 200.
 */
export function useGovernanceSuite() {
  const harness = useEmulator({ clock: "manual" });
  const env = useTestEnv();
  const control = () => harness.emulator.control;
  beforeEach(() => {
    forgetPreflight();
    control().clearRequests();
  });
  return {
    harness,
    env,
    control,
    org: () =>
      control()
        .dumpState()
        .organizations.find((o) => o.id === DEMO.orgId),
    async outside(method: string, path: string, body?: unknown): Promise<void> {
      const reply = await fetch(`${harness.emulator.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${DEMO.personalKey}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (reply.status !== 200)
        throw new Error(`${method} ${path} answered ${reply.status}: ${await reply.text()}`);
    },
  };
}
