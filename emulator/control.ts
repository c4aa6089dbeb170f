import { orgKeyFields } from "./auth";
import type { EmulatorContext } from "./context";
import { demoSeed } from "./demo";
import { HttpError, notFound } from "./errors";
import { createKey, type NewKey, revokeKey } from "./families/api-keys";
import { checkBranchDeletable, deleteBranch } from "./families/branches";
import { addFinishedOperations, startPlatformOperation } from "./families/operations";
import { addMember, removeMember } from "./families/organizations";
import { transferProject } from "./families/projects";
import { viewOperation } from "./operations";
import { readSeedFile, type SeedFile, storeFromSeed } from "./seed";
import { settle } from "./settle";
import type { EmulatorControl, EmulatorStateView } from "./types";

/** Resolves a seed option to a seed object (reading a file when given a path). */
export function resolveSeed(seed: "demo" | "empty" | SeedFile | string): SeedFile {
  if (seed === "demo") return demoSeed();
  if (seed === "empty") return {};
  if (typeof seed === "string") return readSeedFile(seed);
  return seed;
}

/** The control surface over one emulator's context. */
export function createControl(ctx: EmulatorContext, flush: () => void): EmulatorControl {
  const { store, engine } = ctx;

  const project = (projectId: string) => {
    const p = store.projects.get(projectId);
    if (!p) throw notFound(`project ${projectId} not found`);
    return p;
  };

  return {
    requests: (filter) => ctx.log.list(filter),
    clearRequests: () => ctx.log.clear(),
    failNext: (route, response, count) => ctx.faults.add(route, response, count),
    clearFaults: () => ctx.faults.clear(),
    scriptOperations: (match, outcome) => engine.script(match, outcome),
    clearOperationScripts: () => engine.clearScripts(),

    startPlatformOperation(projectId, action, durationMs) {
      const p = project(projectId);
      settle(ctx);
      return startPlatformOperation(ctx, p, action, durationMs);
    },

    advance(ms) {
      if (!ctx.clock.advance) throw new HttpError(400, "the injected clock cannot advance");
      // The WAL is read at the time being left (sent before the clock moves): writes made so far
      // belong to it, not to the time the clock jumps to (docs/api-rules.md §9).
      void ctx.data?.noteTime();
      ctx.clock.advance(ms);
    },
    now: () => ctx.clock.now(),

    revokeApiKey(keyId) {
      const key = store.keys.get(keyId);
      if (!key) throw notFound(`API key ${keyId} not found`);
      revokeKey(ctx, key);
    },

    createApiKey({ userId, orgId, projectId, name }) {
      if (!store.users.has(userId)) throw notFound(`user ${userId} not found`);
      const fields: NewKey = {
        kind: "personal",
        name: name ?? "console-key",
        user_id: userId,
        created_at_ms: ctx.clock.now(),
      };
      if (orgId !== undefined) {
        Object.assign(fields, orgKeyFields(store, userId, orgId, projectId));
      } else if (projectId !== undefined) {
        throw new HttpError(400, "a project-scoped key needs the organization id too");
      }
      const { key, token } = createKey(ctx, fields);
      return { id: key.id, key: token };
    },

    deleteBranch(projectId, branchId) {
      const p = project(projectId);
      const branch = store.liveBranch(projectId, branchId);
      if (!branch) {
        throw notFound(`branch ${branchId} not found in project ${projectId}`);
      }
      checkBranchDeletable(ctx, p, branch);
      settle(ctx);
      return deleteBranch(ctx, p, branch, "console").map((op) => engine.view(op));
    },

    transferProject(projectId, toOrgId, toUserId) {
      transferProject(ctx, projectId, toOrgId, toUserId);
    },

    addMember: (orgId, userId, membership) => addMember(ctx, orgId, userId, membership),
    removeMember: (orgId, userId) => removeMember(ctx, orgId, userId),
    addOperations: (projectId, count) => addFinishedOperations(ctx, project(projectId), count),

    resetLimits: () => ctx.limiter?.reset(),

    seed(seed) {
      store.replaceWith(storeFromSeed(resolveSeed(seed), ctx.clock.now(), ctx.seedIds));
      engine.clearScripts();
      ctx.faults.clear();
      ctx.limiter?.reset();
      ctx.changed();
    },

    dumpState(): EmulatorStateView {
      settle(ctx);
      const now = ctx.clock.now();
      const copy = <T>(values: Iterable<T>): T[] => structuredClone([...values]);
      return {
        now,
        users: copy(store.users.values()),
        organizations: copy(store.orgs.values()),
        projects: copy(store.projects.values()),
        branches: copy(store.branches.values()),
        endpoints: copy(store.endpoints.values()),
        apiKeys: [...store.keys.values()].map(({ token_hash: _secret, ...rest }) => structuredClone(rest)),
        operations: [...store.projectOps.values()]
          .flat()
          .map((op) => ({ ...viewOperation(op, now), initiator: op.initiator })),
        snapshots: copy(store.snapshots.values()),
      };
    },

    flush,

    caCertificate() {
      if (ctx.data === undefined) {
        throw notFound("no endpoint serves TLS: start the emulator with postgres (--postgres) for its CA");
      }
      return ctx.data.caCertificate;
    },
  };
}
