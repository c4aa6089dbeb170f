/**
 * A Branch's definition: the one object the lifecycle runs for a branch, each step with its API calls.
 * What its steps call lives beside it: `branchInputs.ts`, `branchOutputs.ts`, `branchCreate.ts`,
 * `branchFind.ts`, `branchConverge.ts`, `branchComputes.ts`, `branchRestore.ts`, `branchMessages.ts`
 * and `connection.ts`.
 */
import { isConflict } from "../client/errors";
import { BranchCreateResponseSchema } from "../client/schemas";
import {
  anonymizedAtCreate,
  apiRules,
  existingBranch,
  readAnonymizationStatus,
  sameRules,
} from "./branchAnonymize";
import { sameTypes } from "./branchComputes";
import { converge } from "./branchConverge";
import { nameHeldByOtherBranch, notAdoptable, restoredAtCreate, undoUnmade } from "./branchCreate";
import { findLostBranch, findOwnBranch, recordedParent } from "./branchFind";
import { BranchInputsSchema, INIT_SOURCES } from "./branchInputs";
import { branchRefusal, branchReview } from "./branchMessages";
import {
  baseOutputs,
  declaredOnly,
  inheritedOf,
  liveFields,
  opIds,
  outputsOf,
  refreshed,
} from "./branchOutputs";
import { knownMasked, quarantineAtRefresh } from "./branchQuarantine";
import {
  deleteScratches,
  deleteStrayScratches,
  leftScratches,
  leftScratchIds,
  sameRestore,
  withLeftScratches,
} from "./branchRestore";
import { withConnection } from "./connection";
import { sameInstant, sameTtl, wantedExpiry } from "./expiry";
import { snapshotFind } from "./finds";
import { apiComputeSettings } from "./inputs/compute";
import { compact, defineResource, labelOf } from "./lifecycle/define";
import { firstListing } from "./lifecycle/firstListings";
import { CREATED_BY, CREATED_NAME, stackMarksOf } from "./lifecycle/owner";
import { branchHistoryFinds, refuseUnmaskedRestore } from "./maskedHistory";
import { BRANCH, type BranchInputs, type BranchOutputs } from "./public/branch";
import { carrierIn, refuseReplaced, replacedByDeleted } from "./restores";

export type { BranchInputs, BranchOutputs } from "./public/branch";

/**
 * A branch's lifecycle. Create waits for every operation it starts (`create_branch`, one
 * `start_compute` per endpoint), reads the branch once more and then its connection strings, and
 * records a branch whose waits failed; names are unique per project, so a replacement that keeps
 * its name deletes first. Name, protection, expiry and compute settings change in place; a new
 * `resetTrigger` resets the branch from its parent.
 */
export const branchDefinition = defineResource<BranchInputs, BranchOutputs>(BRANCH, {
  isBranch: true,
  marksStack: true,
  inputs: BranchInputsSchema,
  same: {
    endpoints: (news, olds) => sameTypes(news ?? [], Array.isArray(olds) ? olds : []),
    protected: (news, olds) => (news ?? false) === (olds ?? false),
    // The API reports an anonymized branch's source as its parent's data: its anonymization says.
    initSource: (news, olds, { olds: all }) =>
      (news ?? "parent-data") ===
      (all.anonymizationState !== undefined ? "anonymized" : (olds ?? "parent-data")),
    maskingRules: sameRules,
    ttl: sameTtl,
    // With a ttl the recorded expiry is the ttl's: the ttl row decides.
    expiresAt: (news, olds, { news: all }) =>
      news === undefined
        ? all.ttl !== undefined || olds === null || olds === undefined
        : sameInstant(news, olds),
  },
  deleteBeforeReplace: (olds, news) =>
    news.projectId === olds.projectId && news.name !== undefined && news.name === olds.name,
  id: (outs) => outs.branchId,
  // A new branch is restored from a snapshot (`create`); it has no history of its own to restore from yet.
  refuseAtCreate: (inputs) =>
    inputs.restore === undefined || inputs.restore.snapshotId !== undefined
      ? undefined
      : {
          property: "restore",
          reason:
            `restore.${inputs.restore.timestamp !== undefined ? "timestamp" : "lsn"} restores a branch from a point of ` +
            "its own history, and this Branch is being created: a new branch has no history before it is made. " +
            "Start it from a point of its parent's history with parentTimestamp or parentLsn instead, or from a " +
            "snapshot with restore.snapshotId (docs/api-rules.md §9)",
        },
  noteAtCreate: (inputs) =>
    inputs.restore?.snapshotId === undefined
      ? undefined
      : `the create restores the new branch's data from snapshot ${inputs.restore.snapshotId}: it is made, then its ` +
        "data, roles and databases become the snapshot's (not its parent's)",
  // A restore already made is not looked for again: its snapshot may have expired since.
  // A point of an anonymized branch's history is taken only where its data is known to be masked.
  finds: (inputs, olds) => [
    ...(inputs.restore?.snapshotId === undefined || sameRestore(inputs.restore, olds.restore)
      ? []
      : [snapshotFind("restore", inputs.projectId, inputs.restore.snapshotId)]),
    ...branchHistoryFinds(inputs, olds),
  ],
  // A cancelled or failed compute operation leaves a usable branch: computes start on demand.
  survives: new Set(["start_compute", "suspend_compute"]),
  madeBy: "create_branch",

  async create({ client, deadline, createKey, owner }, inputs) {
    const expiresAt = wantedExpiry(inputs, undefined, Date.now());
    const anonymized = inputs.initSource === "anonymized";
    const branch = compact({
      name: inputs.name,
      parent_id: inputs.parentId,
      init_source: anonymized ? undefined : inputs.initSource,
      protected: inputs.protected,
      expires_at: expiresAt ?? undefined,
      parent_timestamp: inputs.parentTimestamp,
      parent_lsn: inputs.parentLsn,
    });
    const settings = apiComputeSettings(inputs);
    const request = {
      branch: Object.keys(branch).length > 0 ? branch : undefined,
      // An anonymized branch gets its computes once its data is masked (`anonymizedAtCreate`).
      endpoints: anonymized ? undefined : inputs.endpoints?.map((ep) => ({ type: ep.type, ...settings })),
    };
    const annotation_value =
      createKey === undefined
        ? undefined
        : compact({
            [CREATED_BY]: createKey,
            [CREATED_NAME]: inputs.name,
            ...stackMarksOf(owner, Date.now(), inputs.pullRequest),
          });
    const made = await (anonymized
      ? client.createAnonymizedBranch(
          inputs.projectId,
          compact({
            branch_create: compact(request),
            masking_rules: apiRules(inputs.maskingRules),
            start_anonymization: true,
            annotation_value,
          }),
          { deadline },
        )
      : client.createBranch(inputs.projectId, compact({ ...request, annotation_value }), { deadline })
    ).catch(async (err) =>
      Promise.reject(
        isConflict(err)
          ? nameHeldByOtherBranch(inputs, err)
          : await undoUnmade(client, inputs, err, deadline),
      ),
    );
    const parentId = await recordedParent(client, inputs);
    const outs = {
      ...outputsOf({ ...inputs, parentId }, made.branch, made.endpoints, opIds(made.operations)),
      inheritedDatabases: inheritedOf(made.databases),
    };
    if (anonymized) return anonymizedAtCreate({ client, deadline }, inputs, outs);
    if (inputs.restore?.snapshotId !== undefined) {
      return restoredAtCreate({ client, deadline }, made.branch.id, outs, inputs, inputs.restore);
    }
    // The branch exists and its operations finished: a failed re-read must not orphan it.
    const current = await refreshed(client, outs, made.endpoints.length > 0).catch(() => outs);
    return withConnection(client, inputs, current, made);
  },

  findOwn: findOwnBranch,

  created(inputs, response) {
    const made = BranchCreateResponseSchema.safeParse(response);
    return made.success
      ? {
          ...outputsOf(inputs, made.data.branch, made.data.endpoints, opIds(made.data.operations)),
          inheritedDatabases: inheritedOf(made.data.databases),
        }
      : undefined;
  },

  findLost: findLostBranch,

  /**
   * Takes an existing branch under management, then brings its name, protection, expiry and compute
   * settings to the declared ones in place (never its data: a reset needs a new `resetTrigger`).
   */
  async adopt(step, inputs, branchId) {
    const olds = await existingBranch(step.client, inputs, branchId);
    if (inputs.initSource === "anonymized" && olds.anonymizationState === undefined) {
      throw notAdoptable(branchId, "a branch that is not anonymized", "initSource anonymized", "initSource");
    }
    if (inputs.parentId !== undefined && inputs.parentId !== olds.parentId) {
      throw notAdoptable(branchId, `parent ${olds.parentId ?? "none"}`, inputs.parentId, "parentId");
    }
    if (inputs.endpoints !== undefined && !sameTypes(inputs.endpoints, olds.endpoints)) {
      const types = (list: { type: string }[]) => `[${list.map((ep) => ep.type).join(", ")}]`;
      const have = olds.endpoints.length > 0 ? types(olds.endpoints) : "[none]";
      throw notAdoptable(branchId, `endpoints ${have}`, types(inputs.endpoints), "endpoints");
    }
    return converge(step, branchId, { ...olds, ...baseOutputs(inputs) }, olds, inputs, false);
  },

  /** The branch as it is, with its computes and connection strings. */
  async readExisting({ client }, inputs, branchId) {
    return withConnection(client, inputs, await existingBranch(client, inputs, branchId));
  },

  async read({ client, deadline }, id, props) {
    if (props?.projectId === undefined) return undefined;
    // A refresh reads every branch at once: they share one branch and one endpoint listing per project.
    const [branches, endpoints] = await Promise.all([
      client.cached.listBranches(props.projectId),
      client.cached.listEndpoints(props.projectId),
    ]);
    // A finalized restore outside the stack gave the branch's name and computes to another branch:
    // the state follows it (a new id), keeping what the branch was created from.
    const carrier = carrierIn(branches, id);
    const branch = branches.find((b) => b.id === carrier);
    if (branch === undefined) return undefined;
    // Renamed outside: by a restore whose new branch is deleted since, this one is the data before
    // it and the stack's branch is gone (also at the end of a chain of restores: the last one's new
    // branch expired, say). Only then a second listing, with the deleted branches.
    if (branch.name !== props.name) {
      if (await replacedByDeleted(client, props.projectId, carrier, branches)) return undefined;
    }
    const own = endpoints.filter((ep) => ep.branch_id === carrier);
    const live = liveFields(branch, own, props.parentId ?? null);
    // An anonymized branch: its rules and its anonymization, changed outside or still under way. Data
    // not known masked (reset or restored outside, say) is kept from every connection until the next
    // `up` masks it: its computes are disabled, the one write of a refresh.
    let anonymization = {};
    if (props.anonymizationState !== undefined) {
      const { fields, status } = await readAnonymizationStatus(client, props.projectId, carrier);
      if (!knownMasked(status, branch.last_reset_at)) {
        await quarantineAtRefresh(client, { ...props, branchId: carrier }, own, status, deadline);
      }
      anonymization = fields;
    }
    const parentId = carrier === id ? live.parentId : props.parentId;
    // Scratch branches a killed restore of it left: recorded, so the next `up` deletes them (`stale`).
    const left = leftScratches(branches, carrier).map((b) => b.id);
    return withLeftScratches(
      {
        ...props,
        ...live,
        ...anonymization,
        parentId: parentId === null ? null : carrierIn(branches, parentId),
      },
      left,
    );
  },

  inputsOf: (outs) =>
    compact({
      projectId: outs.projectId,
      name: outs.name,
      parentId: outs.parentId ?? undefined,
      endpoints: outs.endpoints.map((ep) => ({ type: ep.type })),
      initSource:
        outs.anonymizationState !== undefined
          ? "anonymized"
          : INIT_SOURCES.find((known) => known === outs.initSource),
      maskingRules: outs.maskingRules,
      protected: outs.protected,
      expiresAt: outs.ttl === undefined ? (outs.expiresAt ?? undefined) : undefined,
      autoscalingLimitMinCu: outs.autoscalingLimitMinCu ?? undefined,
      autoscalingLimitMaxCu: outs.autoscalingLimitMaxCu ?? undefined,
      suspendTimeoutSeconds: outs.suspendTimeoutSeconds ?? undefined,
      ...declaredOnly(outs),
    }),

  /** A refresh found scratch branches a killed restore of it left: an update deletes them. */
  // Or an anonymized branch whose data is not known to be masked: an update masks it again.
  stale: (olds) =>
    leftScratchIds(olds).length > 0 ||
    (olds.anonymizationState !== undefined && olds.anonymizationState !== "anonymized"),

  review: branchReview,

  /**
   * Applies the in-place rows: one PATCH of the branch, computes added, retyped, resized or removed,
   * a reset or a restore, after deleting the scratch branches a killed restore left (unless this
   * update restores from a snapshot, which reuses them); the rest is recorded.
   */
  async update(step, id, outs, olds, news) {
    const { live, branches } = await refuseReplaced(
      step.client,
      olds.projectId,
      id,
      labelOf("branch", id, olds),
    );
    // The name and protection as they are now, not as last recorded: one changed outside since is
    // brought back to the declared one too, so the next preview shows no change.
    const now = live === undefined ? olds : { ...olds, name: live.name, protected: live.protected ?? false };
    const reset = news.resetTrigger !== undefined && news.resetTrigger !== olds.resetTrigger;
    const restore =
      news.restore !== undefined && !sameRestore(news.restore, olds.restore) ? news.restore : undefined;
    if (restore !== undefined) await refuseUnmaskedRestore(step.client, olds.projectId, id, restore);
    // A scratch branch a killed restore of this branch left is a copy no run comes back to, unless
    // this update restores from a snapshot (`scratchFor` reuses one of the same restore).
    if (restore?.snapshotId === undefined) {
      await deleteScratches(step.client, olds.projectId, id, branches, step.deadline);
    }
    return converge(step, id, withLeftScratches(outs, []), now, news, reset, restore);
  },

  /**
   * Deletes the branch, and first any scratch branch a killed restore of it left (`scratchFor`):
   * left before this run, so the project's first listing of the run (one per project) shows it.
   * A listing that fails leaves them to their expiry: the branch's own delete says what is wrong.
   * When a finalized restore outside the stack swapped in another branch, the delete follows it,
   * as a refresh would (`carrierIn`): that one carries the name and computes; the replaced branch,
   * holding the data before the restore, is left to the user.
   */
  async remove({ client, deadline }, id, props) {
    const { branches } = await firstListing(`branches of ${props.projectId}`, () =>
      client.listAnnotatedBranches(props.projectId),
    ).catch(() => ({ branches: [] }));
    await deleteScratches(client, props.projectId, id, branches, deadline);
    await deleteStrayScratches(client, props.projectId, branches, deadline);
    await client.deleteBranch(props.projectId, carrierIn(branches, id), { deadline });
  },

  refusal: ({ client }, stateId, props) => branchRefusal(client, props, stateId),
});
