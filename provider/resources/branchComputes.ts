/**
 * A Branch's computes brought to its inputs in place: the declared types (computes deleted and
 * created on the same branch, never the branch replaced) and the declared compute settings.
 */
import type { Endpoint as ApiEndpoint, CloudDbClient } from "../client";
import { apiComputeSettings, COMPUTE_SETTINGS } from "./inputs/compute";
import type { BranchInputs, BranchOutputs } from "./public/branch";

/** Whether two lists of computes have the same types, in any order. */
export function sameTypes(wanted: readonly { type: string }[], have: readonly { type: string }[]): boolean {
  const a = wanted.map((e) => e.type).sort();
  const b = have.map((e) => e.type).sort();
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

/**
 * Brings the branch's computes from `olds` to `news`: their types when the declared list changed
 * (`reconcileComputes`), then, when a declared compute setting changed, the settings of each compute
 * kept (those it creates get them at once).
 */
export async function convergeComputes(
  client: CloudDbClient,
  projectId: string,
  id: string,
  olds: BranchOutputs,
  news: BranchInputs,
  deadline: number,
): Promise<void> {
  const kept =
    news.endpoints === undefined || sameTypes(news.endpoints, olds.endpoints)
      ? olds.endpoints
      : await reconcileComputes(client, projectId, id, news.endpoints, news, deadline);
  if (COMPUTE_SETTINGS.some((key) => news[key] !== undefined && news[key] !== olds[key])) {
    for (const ep of kept) {
      await client.updateEndpoint(projectId, ep.id, { endpoint: apiComputeSettings(news) }, { deadline });
    }
  }
}

/**
 * Brings the branch's computes, as listed now, to the `wanted` types on the same branch: deletes those
 * no longer declared (first, as a branch has one read_write compute at most), then creates the missing
 * ones with the declared settings, e.g. a compute deleted out of band. Returns the computes it kept.
 */
async function reconcileComputes(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
  wanted: readonly { type: string }[],
  news: BranchInputs,
  deadline: number,
): Promise<{ id: string }[]> {
  const spare = [...(await client.listBranchEndpoints(projectId, branchId))];
  const kept: ApiEndpoint[] = [];
  const missing: string[] = [];
  for (const { type } of wanted) {
    const at = spare.findIndex((ep) => ep.type === type);
    if (at === -1) missing.push(type);
    else kept.push(...spare.splice(at, 1));
  }
  for (const ep of spare) await client.deleteEndpoint(projectId, ep.id, { deadline });
  for (const type of missing) {
    const endpoint = { branch_id: branchId, type, ...apiComputeSettings(news) };
    await client.createEndpoint(projectId, { endpoint }, { deadline });
  }
  return kept;
}
