import assert from "node:assert/strict";
import { DEMO } from "../../../emulator";
import { resetRegistry } from "../../../provider/client";
import type { ProjectInputs, ProjectOutputs } from "../../../provider/resources/public/project";
import { startProxy } from "../../faults/support/proxy";
import { PROVIDER_TEXT, setEnv, useEmulator } from "./harness";

/** Project inputs as the engine passes them: named "shop", with the serialized provider alongside. */
export function projectInputs(values: Partial<ProjectInputs> = {}): ProjectInputs {
  return { name: "shop", ...values, __provider: PROVIDER_TEXT } as ProjectInputs;
}

/** The state of a project made with `values`, for diffs (no API call). */
export function projectState(values: Partial<ProjectOutputs> = {}): ProjectOutputs {
  return {
    ...projectInputs(),
    projectId: DEMO.projectId,
    name: "shop",
    regionId: "aws-us-east-2",
    pgVersion: 17,
    orgId: null,
    historyRetentionSeconds: 86400,
    defaultEndpointSettings: {
      autoscalingLimitMinCu: 0.25,
      autoscalingLimitMaxCu: 1,
      suspendTimeoutSeconds: 0,
    },
    defaultBranchId: DEMO.branchId,
    defaultEndpointId: DEMO.endpointId,
    defaultRoleName: "neondb_owner",
    defaultDatabaseName: "neondb",
    host: `${DEMO.endpointId}.example`,
    connectionUri: "postgresql://neondb_owner:secret@host/neondb",
    createdAt: "2025-01-01T00:00:00Z",
    operationIds: [],
    pendingOperationIds: [],
    ...values,
  } as ProjectOutputs;
}

/**
 * The set-up of the Project suites: one emulator, with the request log and operation scripts cleared
 * before each test. `stored` reads a project from the emulator's state; `withoutUriInAnswer` runs a
 * body with the provider behind a proxy that takes the connection strings out of a create's answer.
 */
export function useProjectSuite() {
  const harness = useEmulator();
  const control = () => harness.emulator.control;
  const stored = (id: string) =>
    control()
      .dumpState()
      .projects.find((p) => p.id === id);
  beforeEach(() => {
    control().clearRequests();
    control().clearOperationScripts();
  });
  const withoutUriInAnswer = async (body: () => Promise<void>) => {
    const proxy = await startProxy(harness.emulator.url);
    const restore = setEnv({ CLOUDDB_API_URL: proxy.url });
    try {
      resetRegistry();
      proxy.after("POST", /^\/projects$/, {
        kind: "rewrite",
        rewrite: (answer) => JSON.stringify({ ...JSON.parse(answer), connection_uris: [] }),
      });
      await body();
      assert.equal(proxy.applied, 1);
    } finally {
      restore();
      resetRegistry();
      await proxy.stop();
    }
  };
  return { harness, control, stored, withoutUriInAnswer };
}
