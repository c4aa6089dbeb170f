import type * as pulumi from "@pulumi/pulumi";
import { secret } from "@pulumi/pulumi/output";
import { compact } from "../resources/lifecycle/define";
import type { FunctionArgsOf, FunctionResultOf, ResultObjectOf } from "../resources/public/shapes";
import { dataSourceClient } from "./credentials";
import type {
  API_KEY_SUMMARY,
  BUCKET_SUMMARY,
  FUNCTION_SUMMARY,
  GET_API_KEYS,
  GET_BUCKETS,
  GET_FUNCTIONS,
  GET_ORGANIZATION_INVITATIONS,
  GET_ORGANIZATION_MEMBERS,
  GET_ROLE_PASSWORD,
  GET_SNAPSHOTS,
  GET_VPC_ENDPOINTS,
  ORGANIZATION_INVITATION_SUMMARY,
  ORGANIZATION_MEMBER_SUMMARY,
  SNAPSHOT_SUMMARY,
  VPC_ENDPOINT_SUMMARY,
} from "./inventory.declared";
import { lookupOutput, within } from "./lookup";
import type { DataSourceOptions, OutputArgs } from "./options";

// The inventory lookups (inventory.declared.ts): what a project, a branch or an organization holds,
// each one listing (the shared one where a refresh reads it too), in camelCase; a place that does not
// exist fails naming it, with the API's request id.

/** A snapshot of a branch. */
export interface SnapshotSummary extends ResultObjectOf<typeof SNAPSHOT_SUMMARY.properties> {}
/** An API key as listed, without its secret. */
export interface ApiKeySummary extends ResultObjectOf<typeof API_KEY_SUMMARY.properties> {}
/** A VPC endpoint of a project. */
export interface VpcEndpointSummary extends ResultObjectOf<typeof VPC_ENDPOINT_SUMMARY.properties> {}
/** A member of an organization. */
export interface OrganizationMemberSummary
  extends ResultObjectOf<typeof ORGANIZATION_MEMBER_SUMMARY.properties> {}
/** A pending invitation to an organization. */
export interface OrganizationInvitationSummary
  extends ResultObjectOf<typeof ORGANIZATION_INVITATION_SUMMARY.properties> {}
/** A bucket of a branch. */
export interface BucketSummary extends ResultObjectOf<typeof BUCKET_SUMMARY.properties> {}
/** A function of a branch. */
export interface FunctionSummary extends ResultObjectOf<typeof FUNCTION_SUMMARY.properties> {}

/** Arguments of {@link getSnapshots}. */
export interface GetSnapshotsArgs extends FunctionArgsOf<typeof GET_SNAPSHOTS> {}
/** Result of {@link getSnapshots}. */
export interface GetSnapshotsResult extends FunctionResultOf<typeof GET_SNAPSHOTS> {}
/** Arguments of {@link getApiKeys}. */
export interface GetApiKeysArgs extends FunctionArgsOf<typeof GET_API_KEYS> {}
/** Result of {@link getApiKeys}. */
export interface GetApiKeysResult extends FunctionResultOf<typeof GET_API_KEYS> {}
/** Arguments of {@link getVpcEndpoints}. */
export interface GetVpcEndpointsArgs extends FunctionArgsOf<typeof GET_VPC_ENDPOINTS> {}
/** Result of {@link getVpcEndpoints}. */
export interface GetVpcEndpointsResult extends FunctionResultOf<typeof GET_VPC_ENDPOINTS> {}
/** Arguments of {@link getOrganizationMembers}. */
export interface GetOrganizationMembersArgs extends FunctionArgsOf<typeof GET_ORGANIZATION_MEMBERS> {}
/** Result of {@link getOrganizationMembers}. */
export interface GetOrganizationMembersResult extends FunctionResultOf<typeof GET_ORGANIZATION_MEMBERS> {}
/** Arguments of {@link getOrganizationInvitations}. */
export interface GetOrganizationInvitationsArgs extends FunctionArgsOf<typeof GET_ORGANIZATION_INVITATIONS> {}
/** Result of {@link getOrganizationInvitations}. */
export interface GetOrganizationInvitationsResult
  extends FunctionResultOf<typeof GET_ORGANIZATION_INVITATIONS> {}
/** Arguments of {@link getBuckets}. */
export interface GetBucketsArgs extends FunctionArgsOf<typeof GET_BUCKETS> {}
/** Result of {@link getBuckets}. */
export interface GetBucketsResult extends FunctionResultOf<typeof GET_BUCKETS> {}
/** Arguments of {@link getFunctions}. */
export interface GetFunctionsArgs extends FunctionArgsOf<typeof GET_FUNCTIONS> {}
/** Result of {@link getFunctions}. */
export interface GetFunctionsResult extends FunctionResultOf<typeof GET_FUNCTIONS> {}
/** Arguments of {@link getRolePassword}. */
export interface GetRolePasswordArgs extends FunctionArgsOf<typeof GET_ROLE_PASSWORD> {}
/** Result of {@link getRolePassword}. */
export interface GetRolePasswordResult extends FunctionResultOf<typeof GET_ROLE_PASSWORD> {}

/** Lists a project's snapshots (of one branch, with `branchId`). */
export async function getSnapshots(
  args: GetSnapshotsArgs,
  opts: DataSourceOptions = {},
): Promise<GetSnapshotsResult> {
  const client = dataSourceClient(opts);
  const snapshots = await within(`project ${args.projectId}`, () =>
    client.cached.listSnapshots(args.projectId),
  );
  return {
    snapshots: snapshots
      .filter((s) => args.branchId === undefined || s.source_branch_id === args.branchId)
      .map((s) =>
        compact({
          id: s.id,
          name: s.name,
          sourceBranchId: s.source_branch_id,
          manual: s.manual ?? true,
          expiresAt: s.expires_at,
          createdAt: s.created_at,
        }),
      ),
  };
}

/** Lists API keys without their secrets: an organization's with `orgId`, else the personal ones; `name` keeps those of that name. */
export async function getApiKeys(
  args: GetApiKeysArgs = {},
  opts: DataSourceOptions = {},
): Promise<GetApiKeysResult> {
  const client = dataSourceClient(opts);
  const { orgId } = args;
  const keys =
    orgId === undefined
      ? await client.cached.listApiKeys()
      : await within(`organization ${orgId}`, () => client.cached.listOrgApiKeys(orgId));
  return {
    apiKeys: keys
      .filter((k) => args.name === undefined || k.name === args.name)
      .map((k) =>
        compact({
          id: k.id,
          name: k.name,
          projectId: "project_id" in k ? (k.project_id as string | undefined) : undefined,
          createdAt: k.created_at,
          lastUsedAt: k.last_used_at,
        }),
      ),
  };
}

/** Lists the VPC endpoints a project allows connections through. */
export async function getVpcEndpoints(
  args: GetVpcEndpointsArgs,
  opts: DataSourceOptions = {},
): Promise<GetVpcEndpointsResult> {
  const client = dataSourceClient(opts);
  const endpoints = await within(`project ${args.projectId}`, () =>
    client.listProjectVpcEndpoints(args.projectId),
  );
  return { vpcEndpoints: endpoints.map((e) => ({ vpcEndpointId: e.vpc_endpoint_id, label: e.label })) };
}

/** Lists an organization's members, or (with `email`) the one with that email; an empty list when none has it. */
export async function getOrganizationMembers(
  args: GetOrganizationMembersArgs,
  opts: DataSourceOptions = {},
): Promise<GetOrganizationMembersResult> {
  const client = dataSourceClient(opts);
  const members = await within(`organization ${args.orgId}`, () => client.listOrgMembers(args.orgId));
  const email = args.email?.toLowerCase();
  return {
    members: members
      .filter((m) => email === undefined || m.user?.email?.toLowerCase() === email)
      .map((m) =>
        compact({
          memberId: m.member.id,
          userId: m.member.user_id,
          email: m.user?.email,
          role: m.member.role,
          joinedAt: m.member.joined_at,
        }),
      ),
  };
}

/** Lists an organization's pending invitations. */
export async function getOrganizationInvitations(
  args: GetOrganizationInvitationsArgs,
  opts: DataSourceOptions = {},
): Promise<GetOrganizationInvitationsResult> {
  const client = dataSourceClient(opts);
  const invitations = await within(`organization ${args.orgId}`, () => client.listOrgInvitations(args.orgId));
  return {
    invitations: invitations.map((i) => ({
      id: i.id,
      email: i.email,
      role: i.role,
      invitedBy: i.invited_by,
      invitedAt: i.invited_at,
    })),
  };
}

/** Lists a branch's buckets. */
export async function getBuckets(
  args: GetBucketsArgs,
  opts: DataSourceOptions = {},
): Promise<GetBucketsResult> {
  const client = dataSourceClient(opts);
  const buckets = await within(`branch ${args.branchId} of project ${args.projectId}`, () =>
    client.listBuckets(args.projectId, args.branchId),
  );
  return {
    buckets: buckets.map((b) => ({ name: b.name, accessLevel: b.access_level, createdAt: b.created_at })),
  };
}

/** Lists a branch's functions. */
export async function getFunctions(
  args: GetFunctionsArgs,
  opts: DataSourceOptions = {},
): Promise<GetFunctionsResult> {
  const client = dataSourceClient(opts);
  const functions = await within(`branch ${args.branchId} of project ${args.projectId}`, () =>
    client.listFunctions(args.projectId, args.branchId),
  );
  return {
    functions: functions.map((f) =>
      compact({
        id: f.id,
        slug: f.slug,
        name: f.name,
        invocationUrl: f.invocation_url,
        activeDeploymentStatus: f.active_deployment?.status,
        createdAt: f.created_at,
      }),
    ),
  };
}

/**
 * Reads a role's current password. The result is plain text: use {@link getRolePasswordOutput},
 * whose result is a secret, or wrap it with `pulumi.secret(...)` before passing it on.
 */
export async function getRolePassword(
  args: GetRolePasswordArgs,
  opts: DataSourceOptions = {},
): Promise<GetRolePasswordResult> {
  const client = dataSourceClient(opts);
  const password = await within(
    `role "${args.roleName}" on branch ${args.branchId} of project ${args.projectId}`,
    () => client.revealRolePassword(args.projectId, args.branchId, args.roleName),
  );
  return { password };
}

/** {@link getSnapshots} taking Inputs and returning an Output. */
export const getSnapshotsOutput = (args: OutputArgs<GetSnapshotsArgs>, opts: DataSourceOptions = {}) =>
  lookupOutput(getSnapshots, args, opts);
/** {@link getApiKeys} taking Inputs and returning an Output. */
export const getApiKeysOutput = (args: OutputArgs<GetApiKeysArgs> = {}, opts: DataSourceOptions = {}) =>
  lookupOutput(getApiKeys, args, opts);
/** {@link getVpcEndpoints} taking Inputs and returning an Output. */
export const getVpcEndpointsOutput = (args: OutputArgs<GetVpcEndpointsArgs>, opts: DataSourceOptions = {}) =>
  lookupOutput(getVpcEndpoints, args, opts);
/** {@link getOrganizationMembers} taking Inputs and returning an Output. */
export const getOrganizationMembersOutput = (
  args: OutputArgs<GetOrganizationMembersArgs>,
  opts: DataSourceOptions = {},
) => lookupOutput(getOrganizationMembers, args, opts);
/** {@link getOrganizationInvitations} taking Inputs and returning an Output. */
export const getOrganizationInvitationsOutput = (
  args: OutputArgs<GetOrganizationInvitationsArgs>,
  opts: DataSourceOptions = {},
) => lookupOutput(getOrganizationInvitations, args, opts);
/** {@link getBuckets} taking Inputs and returning an Output. */
export const getBucketsOutput = (args: OutputArgs<GetBucketsArgs>, opts: DataSourceOptions = {}) =>
  lookupOutput(getBuckets, args, opts);
/** {@link getFunctions} taking Inputs and returning an Output. */
export const getFunctionsOutput = (args: OutputArgs<GetFunctionsArgs>, opts: DataSourceOptions = {}) =>
  lookupOutput(getFunctions, args, opts);
/** {@link getRolePassword} taking Inputs and returning an Output that is a Pulumi secret. */
export const getRolePasswordOutput = (
  args: OutputArgs<GetRolePasswordArgs>,
  opts: DataSourceOptions = {},
): pulumi.Output<GetRolePasswordResult> => secret(lookupOutput(getRolePassword, args, opts));
