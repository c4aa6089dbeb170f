import type * as pulumi from "@pulumi/pulumi";
import {
  isApiError,
  isNotFound,
  isOperationFailed,
  mayHaveChanged,
  type Operation,
  redactSecrets,
} from "../client";
import type { BranchEndpoint, BranchInputs, BranchOutputs, EndpointType } from "./branch";
import { compact, createdSince, deadlineFrom, isUnknown, PartialFailure, providerClient } from "./runtime";

/**
 * How each input is applied when it changes (STYLE: one row per input, one test per row).
 * `undefined` in the program means "no opinion": the branch keeps what it has.
 */
export const DIFF_TABLE = {
  projectId: "replace",
  parentId: "replace",
  endpoints: "replace",
  name: "update",
  deleteProtection: "update",
  timeouts: "update",
  adoptExisting: "ignore",
} as const;

const ENDPOINT_TYPES: readonly string[] = ["read_write", "read_only"];
const MAX_NAME = 256;
/** Operations whose cancellation leaves a usable branch: a compute starts again on demand. */
const COMPUTE_ACTIONS = new Set(["start_compute", "suspend_compute"]);

export { configure } from "./runtime";

/** Validates inputs before anything is sent; every failure says what to change. */
export async function check(
  _olds: BranchInputs,
  news: BranchInputs,
): Promise<pulumi.dynamic.CheckResult<BranchInputs>> {
  const failures: pulumi.dynamic.CheckFailure[] = [];
  if (!isUnknown(news.projectId) && (typeof news.projectId !== "string" || news.projectId === "")) {
    failures.push({
      property: "projectId",
      reason: "projectId is required: the id of the project to branch in",
    });
  }
  if (news.name !== undefined && !isUnknown(news.name)) {
    if (typeof news.name !== "string" || news.name.trim() === "") {
      failures.push({
        property: "name",
        reason: "name must be a non-empty string; omit it for a generated name",
      });
    } else if (news.name.length > MAX_NAME) {
      failures.push({
        property: "name",
        reason: `name is ${news.name.length} characters; the API accepts at most ${MAX_NAME}: shorten it`,
      });
    }
  }
  if (news.endpoints !== undefined && !isUnknown(news.endpoints)) {
    if (!Array.isArray(news.endpoints)) {
      failures.push({
        property: "endpoints",
        reason: 'endpoints must be a list such as [{ type: "read_write" }]',
      });
    } else {
      news.endpoints.forEach((ep, i) => {
        if (isUnknown(ep)) return;
        const type = (ep as { type?: unknown } | undefined)?.type;
        if (isUnknown(type)) return;
        if (typeof type !== "string" || !ENDPOINT_TYPES.includes(type)) {
          failures.push({
            property: `endpoints[${i}].type`,
            reason: `endpoint type ${JSON.stringify(type ?? null)} is not one of read_write, read_only`,
          });
        }
      });
      const readWrite = news.endpoints.filter((ep) => ep?.type === "read_write").length;
      if (readWrite > 1) {
        failures.push({
          property: "endpoints",
          reason: `a branch can have only one read_write endpoint, ${readWrite} were given: keep one and make the others read_only`,
        });
      }
    }
  }
  for (const key of ["create", "update", "delete"] as const) {
    const seconds = news.timeouts?.[key];
    if (seconds !== undefined && !isUnknown(seconds) && !(typeof seconds === "number" && seconds > 0)) {
      failures.push({ property: `timeouts.${key}`, reason: "timeouts are positive numbers of seconds" });
    }
  }
  return failures.length > 0 ? { inputs: news, failures } : { inputs: news };
}

/** Applies {@link DIFF_TABLE}; makes no API call, so a no-change preview costs nothing. */
export async function diff(
  _id: string,
  olds: BranchOutputs,
  news: BranchInputs,
): Promise<pulumi.dynamic.DiffResult> {
  const replaces: string[] = [];
  let changes = false;
  if (news.projectId !== olds.projectId) replaces.push("projectId");
  if (news.parentId !== undefined && news.parentId !== olds.parentId) replaces.push("parentId");
  // A list not known yet (preview) may differ: it replaces, like any other unknown replace-input.
  if (
    news.endpoints !== undefined &&
    (isUnknown(news.endpoints) || !sameTypes(news.endpoints, olds.endpoints ?? []))
  )
    replaces.push("endpoints");
  if (news.name !== undefined && news.name !== olds.name) changes = true;
  if ((news.deleteProtection ?? false) !== (olds.deleteProtection ?? false)) changes = true;
  if (JSON.stringify(news.timeouts ?? null) !== JSON.stringify(olds.timeouts ?? null)) changes = true;
  // An earlier run stopped waiting: an update resumes the wait.
  if ((olds.pendingOperationIds ?? []).length > 0) changes = true;
  // Branch names are unique per project (409 BRANCH_ALREADY_EXISTS): a replacement that keeps its
  // name in the same project must delete the old branch first; otherwise create the new one first.
  const deleteBeforeReplace =
    replaces.length > 0 &&
    news.projectId === olds.projectId &&
    news.name !== undefined &&
    news.name === olds.name;
  return { changes: changes || replaces.length > 0, replaces, deleteBeforeReplace };
}

/**
 * Creates the branch (or adopts `adoptExisting`) and waits for every operation it started. If the
 * branch was created but a wait failed, throws a partial failure so Pulumi records the branch.
 */
export async function create(inputs: BranchInputs): Promise<pulumi.dynamic.CreateResult<BranchOutputs>> {
  if (inputs.adoptExisting !== undefined) return adopt(inputs);
  const client = providerClient();
  const body: { branch?: { name?: string; parent_id?: string }; endpoints?: { type: EndpointType }[] } = {};
  const branch = compact({ name: inputs.name, parent_id: inputs.parentId });
  if (Object.keys(branch).length > 0) body.branch = branch;
  if (inputs.endpoints !== undefined) body.endpoints = inputs.endpoints.map((ep) => ({ type: ep.type }));
  const deadline = deadlineFrom(inputs.timeouts?.create);
  const startedAt = Date.now();
  let made: Awaited<ReturnType<typeof client.createBranch>>;
  try {
    made = await client.createBranch(inputs.projectId, body, { deadline });
  } catch (err) {
    const response = createdResponse(err);
    if (response === undefined) {
      if (mayHaveChanged(err)) {
        const found = await findCreated(inputs, startedAt, deadline);
        if (found !== undefined) return { id: found.branchId, outs: found };
      }
      throw err;
    }
    const ops = opIds(response.operations);
    const outs = {
      ...outputsOf(inputs, response.branch, response.endpoints ?? [], ops),
      pendingOperationIds: ops,
    };
    throw new PartialFailure(outs.branchId, { ...inputs, ...outs }, [
      `branch ${outs.branchId} (${outs.name}) was created in project ${inputs.projectId} but did not finish: ` +
        `${errorMessage(err)}. It is recorded in the state; the next \`pulumi up\` waits for its operations again.`,
    ]);
  }
  const outs = outputsOf(inputs, made.branch, made.endpoints ?? [], opIds(made.operations));
  // The branch exists and its operations finished: a failed re-read must not orphan it.
  return { id: outs.branchId, outs: await refreshed(outs).catch(() => outs) };
}

/**
 * The create may have made the branch although its response was lost (no response, a 5xx, an
 * unreadable 201). Branch names are unique per project, so a named branch is looked up: if one of
 * that name was created since the request, it is ours; its operations are awaited and it is
 * recorded. Unnamed branches cannot be told apart, so the original error stands.
 */
async function findCreated(
  inputs: BranchInputs,
  startedAt: number,
  deadline: number,
): Promise<BranchOutputs | undefined> {
  if (inputs.name === undefined) return undefined;
  const client = providerClient();
  const since = createdSince(startedAt);
  let branch: { id: string; created_at?: string | undefined } | undefined;
  try {
    branch = (await client.listBranches(inputs.projectId)).find((b) => b.name === inputs.name);
  } catch {
    return undefined;
  }
  if (branch === undefined || !(Date.parse(branch.created_at ?? "") >= since)) return undefined;
  const ops: Operation[] = [];
  for await (const op of client.listOperations(inputs.projectId, { pageSize: 100, maxItems: 100 })) {
    if (op.branch_id === branch.id && Date.parse(op.created_at) >= since) ops.push(op);
  }
  const outs = outputsOf(inputs, { id: branch.id, name: inputs.name }, [], opIds(ops));
  try {
    await client.waitForOperations(inputs.projectId, ops, { deadline });
  } catch (err) {
    throw new PartialFailure(outs.branchId, { ...inputs, ...outs, pendingOperationIds: outs.operationIds }, [
      `branch ${outs.branchId} (${outs.name}) was created in project ${inputs.projectId} (found by name after its ` +
        `response was lost) but did not finish: ${errorMessage(err)}. It is recorded in the state; the next ` +
        "`pulumi up` waits for its operations again.",
    ]);
  }
  return refreshed(outs).catch(() => outs);
}

/** Refresh: reads the branch; gone -> empty id so Pulumi drops it. */
export async function read(
  id: string,
  props?: BranchOutputs,
): Promise<pulumi.dynamic.ReadResult<BranchOutputs>> {
  const projectId = props?.projectId;
  if (projectId === undefined) {
    throw new Error(
      `cannot read branch ${id} without its project: declare the branch with adoptExisting: "${id}" and its projectId instead`,
    );
  }
  let live: LiveBranch;
  try {
    live = await readLive(projectId, id);
  } catch (err) {
    if (isNotFound(err)) return { id: "", props: {} as BranchOutputs };
    throw err;
  }
  const outs: BranchOutputs = { ...props!, ...live };
  const inputs = compact({
    projectId: outs.projectId,
    name: outs.name,
    parentId: outs.parentId ?? undefined,
    endpoints: outs.endpoints.map((ep) => ({ type: ep.type })),
    adoptExisting: outs.adoptExisting,
    deleteProtection: outs.deleteProtection,
    timeouts: outs.timeouts,
  });
  return { id, props: outs, inputs: inputs as unknown as BranchOutputs };
}

/** Renames in place, records guard and timeout changes, and finishes waits an earlier run left pending. */
export async function update(
  id: string,
  olds: BranchOutputs,
  news: BranchInputs,
): Promise<pulumi.dynamic.UpdateResult<BranchOutputs>> {
  const client = providerClient();
  const deadline = deadlineFrom(news.timeouts?.update);
  await settlePending(id, olds, deadline);
  let outs: BranchOutputs = {
    ...olds,
    deleteProtection: news.deleteProtection,
    timeouts: news.timeouts,
    pendingOperationIds: [],
  } as BranchOutputs;
  if (news.name !== undefined && news.name !== olds.name) {
    const renamed = await client.updateBranch(olds.projectId, id, { name: news.name }, { deadline });
    outs = { ...outs, ...branchFields(renamed.branch) };
  }
  outs = await refreshed(compact(outs) as BranchOutputs);
  return { outs };
}

/** Deletes the branch and waits for its operations; already gone counts as done. */
export async function remove(id: string, props: BranchOutputs): Promise<void> {
  const label = `branch ${id} (${props.name}) in project ${props.projectId}`;
  if (props.deleteProtection === true) {
    throw new Error(
      `${label} has deleteProtection: set deleteProtection: false and run \`pulumi up\` first, then delete it`,
    );
  }
  const client = providerClient();
  try {
    await client.deleteBranch(props.projectId, id, { deadline: deadlineFrom(props.timeouts?.delete) });
  } catch (err) {
    if (isNotFound(err)) return;
    const status = isApiError(err) ? (err.status ?? 0) : 0;
    if (status >= 400 && status < 500 && ![401, 403, 423, 429].includes(status)) {
      throw new Error(refusalMessage(label, props, err as Error & { requestId?: string }), { cause: err });
    }
    throw err;
  }
}

function refusalMessage(
  label: string,
  props: BranchOutputs,
  err: { message: string; requestId?: string | undefined },
): string {
  const api = `(API: ${err.message}${err.requestId ? `; request id ${err.requestId}` : ""})`;
  if (props.default === true || props.parentId === null || /\b(default|root)\b/i.test(err.message)) {
    return (
      `${label} cannot be deleted: it is the project's root/default branch, which the API never deletes ${api}. ` +
      "To stop managing it without deleting it, run `pulumi state delete <urn>`."
    );
  }
  if (/child/i.test(err.message)) {
    return (
      `${label} cannot be deleted: it still has child branches ${api}. Delete the children first; in Pulumi, ` +
      "declare each child with parentId: parent.branchId so Pulumi deletes children before their parent."
    );
  }
  return `${label} cannot be deleted ${api}`;
}

/** Adoption: takes an existing branch under management, renaming it if a different name is asked. */
async function adopt(inputs: BranchInputs): Promise<pulumi.dynamic.CreateResult<BranchOutputs>> {
  const client = providerClient();
  const branchId = inputs.adoptExisting!;
  let live: LiveBranch;
  try {
    live = await readLive(inputs.projectId, branchId);
  } catch (err) {
    if (isNotFound(err)) {
      throw new Error(
        `adoptExisting: branch ${branchId} was not found in project ${inputs.projectId}; check both ids, or remove adoptExisting to create a new branch`,
        { cause: err },
      );
    }
    throw err;
  }
  if (inputs.parentId !== undefined && inputs.parentId !== live.parentId) {
    throw new Error(
      `adoptExisting: branch ${branchId} has parent ${live.parentId ?? "none"}, not ${inputs.parentId}; ` +
        "fix parentId (or remove it) so adopting does not replace the branch",
    );
  }
  if (inputs.endpoints !== undefined && !sameTypes(inputs.endpoints, live.endpoints)) {
    const have = live.endpoints.map((ep) => ep.type).join(", ") || "none";
    throw new Error(
      `adoptExisting: branch ${branchId} has endpoints [${have}], not [${inputs.endpoints.map((ep) => ep.type).join(", ")}]; ` +
        "fix endpoints (or remove it) so adopting does not replace the branch",
    );
  }
  let outs: BranchOutputs = { ...baseOutputs(inputs), ...live, operationIds: [] };
  if (inputs.name !== undefined && inputs.name !== live.name) {
    const renamed = await client.updateBranch(
      inputs.projectId,
      branchId,
      { name: inputs.name },
      {
        deadline: deadlineFrom(inputs.timeouts?.create),
      },
    );
    outs = { ...outs, ...branchFields(renamed.branch) };
  }
  return { id: branchId, outs };
}

/**
 * Waits for operations an interrupted run left behind. A cancelled or errored compute operation
 * leaves a usable branch (computes start on demand), whether it ended before this run or during
 * the wait; a failed branch creation does not.
 */
async function settlePending(id: string, olds: BranchOutputs, deadline: number): Promise<void> {
  const pending = olds.pendingOperationIds ?? [];
  if (pending.length === 0) return;
  const client = providerClient();
  // A compute operation that ended cancelled or in error is accepted: the compute starts on demand.
  const settle = (op: { id: string; action: string; status: string; error?: string | null | undefined }) => {
    if (!COMPUTE_ACTIONS.has(op.action)) {
      throw new Error(
        `branch ${id} (${olds.name}): operation ${op.action} ${op.id} ended ${op.status}` +
          `${op.error ? ` (${redactSecrets(op.error)})` : ""}; the branch may be unusable. Replace it with ` +
          "`pulumi up --replace <urn>`.",
      );
    }
  };
  let open: Operation[] = [];
  for (const opId of pending) {
    const op = await client.getOperation(olds.projectId, opId);
    if (op.status === "cancelled" || op.status === "error") settle(op);
    else if (op.status !== "finished" && op.status !== "skipped") open.push(op);
  }
  while (open.length > 0) {
    try {
      await client.waitForOperations(olds.projectId, open, { deadline });
      open = [];
    } catch (err) {
      if (!isOperationFailed(err)) throw err;
      settle(err.operation);
      open = open.filter((op) => op.id !== err.operation.id);
    }
  }
}

/** Reads the branch again after its operations finished, so `currentState` is current. */
async function refreshed(outs: BranchOutputs): Promise<BranchOutputs> {
  return { ...outs, ...(await readLive(outs.projectId, outs.branchId)) };
}

type LiveBranch = ReturnType<typeof branchFields> & { endpoints: BranchEndpoint[] };

/** The branch and its computes as they are now (two GETs). Throws the client's not-found error when gone. */
async function readLive(projectId: string, branchId: string): Promise<LiveBranch> {
  const client = providerClient();
  const got = await client.getBranch(projectId, branchId);
  const endpoints = await client.listBranchEndpoints(projectId, branchId);
  return { ...branchFields(got.branch), endpoints: endpoints.map(endpointFields) };
}

function endpointFields(ep: ApiEndpoint): BranchEndpoint {
  return {
    id: ep.id,
    type: ep.type as EndpointType,
    host: ep.host ?? null,
    currentState: ep.current_state ?? null,
  };
}

interface ApiBranch {
  id: string;
  name: string;
  parent_id?: string | null | undefined;
  default?: boolean | undefined;
  current_state?: string | undefined;
  created_at?: string | undefined;
}

interface ApiEndpoint {
  id: string;
  type: string;
  host?: string | undefined;
  current_state?: string | undefined;
}

function branchFields(b: ApiBranch) {
  return {
    branchId: b.id,
    name: b.name,
    parentId: b.parent_id ?? null,
    default: b.default ?? false,
    currentState: b.current_state ?? null,
    createdAt: b.created_at ?? null,
  };
}

function baseOutputs(inputs: BranchInputs) {
  return compact({
    projectId: inputs.projectId,
    adoptExisting: inputs.adoptExisting,
    deleteProtection: inputs.deleteProtection,
    timeouts: inputs.timeouts,
    pendingOperationIds: [] as string[],
  });
}

function outputsOf(
  inputs: BranchInputs,
  branch: ApiBranch,
  endpoints: ApiEndpoint[],
  operationIds: string[],
): BranchOutputs {
  return {
    ...baseOutputs(inputs),
    ...branchFields(branch),
    endpoints: endpoints.map(endpointFields),
    operationIds,
    pendingOperationIds: [],
  };
}

function opIds(ops: readonly { id: string }[] | undefined): string[] {
  return (ops ?? []).map((op) => op.id);
}

function sameTypes(wanted: readonly { type: string }[], have: readonly { type: string }[]): boolean {
  const a = wanted.map((e) => e.type).sort();
  const b = have.map((e) => e.type).sort();
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

interface CreateResponse {
  branch: ApiBranch;
  endpoints?: ApiEndpoint[];
  operations?: { id: string }[];
}

/** The POST response an operation-wait error carries when the branch itself was created. */
function createdResponse(err: unknown): CreateResponse | undefined {
  const response = (err as { response?: unknown } | null)?.response as Partial<CreateResponse> | undefined;
  return response?.branch?.id ? (response as CreateResponse) : undefined;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
