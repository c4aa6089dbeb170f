/**
 * What the provider says of a Branch change: the preview's line for an update that replaces or
 * masks the branch's data (`branchReview`), and why the API refused a delete (`branchRefusal`).
 */
import type { CloudDbClient } from "../client";
import { sameRules } from "./branchAnonymize";
import { leftScratchIds, sameRestore } from "./branchRestore";
import type { Refusal } from "./lifecycle/define";
import type { BranchInputs, BranchOutputs } from "./public/branch";
import { carrierIn } from "./restores";

/**
 * A restore replaces the branch's data: the preview says from what, and what happens to the data
 * before it; an update that masks the data again, or deletes left scratch branches, says so.
 */
export function branchReview(olds: BranchOutputs, news: BranchInputs): string | undefined {
  if (news.initSource === "anonymized" && !sameRules(news.maskingRules, olds.maskingRules)) {
    return "the update sets the branch's masking rules and masks its data again (the parent's data is not touched)";
  }
  if (news.initSource === "anonymized" && olds.anonymizationState !== "anonymized") {
    return (
      `the update masks the branch's data (its anonymization is ${olds.anonymizationState ?? "unknown"}: its data ` +
      "is not known masked) before it makes or enables any of its computes"
    );
  }
  const left = leftScratchIds(olds);
  if (
    left.length > 0 &&
    (news.restore?.snapshotId === undefined || sameRestore(news.restore, olds.restore))
  ) {
    return `the update deletes the scratch branch ${left.join(", ")} that an interrupted restore of it left (a copy of a snapshot's data)`;
  }
  const restore = news.restore;
  if (restore === undefined || sameRestore(restore, olds.restore)) return undefined;
  const from =
    restore.snapshotId !== undefined
      ? `snapshot ${restore.snapshotId}`
      : `its own history at ${restore.timestamp ?? restore.lsn}`;
  const kept =
    restore.preserveUnderName !== undefined
      ? `kept as branch "${restore.preserveUnderName}"`
      : restore.snapshotId !== undefined
        ? "not kept"
        : "kept as a new branch with a generated name";
  return `the update restores the branch's data from ${from}: its computes restart, its roles and databases become those of the restore point, and the data before it is ${kept}`;
}

/**
 * Why the API refused to delete branch `stateId` (its refusal status is not documented): the
 * branch that carries its name now and its children, as read now, say why.
 */
export async function branchRefusal(
  client: CloudDbClient,
  props: BranchOutputs,
  stateId: string,
): Promise<Refusal | undefined> {
  const root = (b: { default?: boolean; parentId: string | null; initSource?: string | undefined }) =>
    b.default === true || (b.parentId === null && b.initSource !== "schema-only");
  const branches = await client.listBranches(props.projectId);
  const id = carrierIn(branches, stateId);
  const live = root(props) ? undefined : (await client.getBranch(props.projectId, id)).branch;
  if (
    live === undefined ||
    root({ default: live.default, parentId: live.parent_id ?? null, initSource: live.init_source })
  ) {
    return {
      why: "it is the project's root/default branch, which the API never deletes",
      next: "to stop managing it without deleting it, run `pulumi state delete <urn>`",
    };
  }
  if (live.protected === true) {
    return props.protected === true
      ? {
          why: "it is protected (the Branch sets `protected: true`)",
          next: "set `protected: false` on the Branch and run `pulumi up`, then delete it",
        }
      : {
          why: "it was protected outside Pulumi",
          next:
            "run `pulumi up --refresh` (the Branch, which does not set `protected: true`, then turns the protection " +
            "off) or unprotect it in the console, then delete it",
        };
  }
  const children = branches.filter((b) => b.parent_id === id);
  if (children.length === 0) return undefined;
  return {
    why: `it still has child branches (${children.map((b) => b.id).join(", ")})`,
    next:
      "delete them first, or declare each child with `parentId: parent.branchId` so Pulumi deletes " +
      "children before their parent",
  };
}
