import { DEFAULT_BRANCH_NAME, DEFAULT_PG_VERSION, DEFAULT_REGION } from "./defaults";
import type { SeedFile } from "./seed";

// The "demo" seed: fixed ids and tokens, so the demo, tests and docs can name them.

/** Ids and tokens of the "demo" seed. */
export const DEMO = {
  /** The demo user (admin of the demo organization). */
  userId: "e04bb2cc-d8fa-4282-9050-6aadec47dff3",
  /** A second user, a plain member of the demo organization. */
  memberUserId: "f767b549-ea33-48a7-8530-1ed6c73de116",
  orgId: "org-quiet-forest-27188409",
  /** The demo user's personal project. */
  projectId: "hidden-river-50598307",
  branchId: "br-damp-glitter-adqd4hk5",
  endpointId: "ep-billowing-sun-aipzaqke",
  /** The organization's project. */
  orgProjectId: "winter-boat-25988145",
  orgBranchId: "br-aged-salad-aw7dnb1u",
  orgEndpointId: "ep-soft-violet-aaddjok0",
  /** The member's personal project (invisible to the demo user). */
  memberProjectId: "shiny-wind-02883417",
  memberBranchId: "br-icy-dream-aoc4c2sf",
  memberEndpointId: "ep-cool-darkness-a7zwb2c7",
  /** The demo user's personal API key. */
  personalKey: "napi_hf7oior2x9k78xha9tk7wmbjhnl06uk507bd5elxi258k55f705rje67izdb2ole",
  personalKeyId: 165432,
  /** The member's personal API key. */
  memberPersonalKey: "napi_j540kqr0nrniz2xeg8x9z7zxqlrj32qls6mv23l23wtz3d29h44creafiqny9nh5",
  memberPersonalKeyId: 165433,
  /** An organization API key of the demo organization. */
  orgKey: "napi_kp9dnctzgz5prrvllmv4vtftc6lbxfarr2yw7o15w02a5kysofi4y6xd5mdwtzke",
  orgKeyId: 165434,
  /** A project-scoped key for the organization's project. */
  projectKey: "napi_3kjhmrudub7vlu8scxws7n9hyphnqbdggagystk93mtwlr0kevopp83yqgycvgsb",
  projectKeyId: 165435,
} as const;

const CREATED = "2025-11-20T10:00:00Z";

function project(
  id: string,
  name: string,
  owner: { owner_user_id: string } | { org_id: string },
  branchId: string,
  endpointId: string,
): NonNullable<SeedFile["projects"]>[number] {
  return {
    id,
    name,
    ...owner,
    region_id: DEFAULT_REGION,
    pg_version: DEFAULT_PG_VERSION,
    created_at: CREATED,
    default_branch: {
      id: branchId,
      name: DEFAULT_BRANCH_NAME,
      endpoints: [{ id: endpointId, type: "read_write" }],
    },
    operations: [
      { action: "create_timeline", branch_id: branchId, duration_ms: 1800 },
      { action: "start_compute", branch_id: branchId, endpoint_id: endpointId, duration_ms: 1200 },
    ],
  };
}

/** The demo account as a seed file. */
export function demoSeed(): SeedFile {
  return {
    users: [
      { id: DEMO.userId, name: "demo", email: "demo@example.com" },
      { id: DEMO.memberUserId, name: "casey", email: "casey@example.com" },
    ],
    organizations: [
      {
        id: DEMO.orgId,
        name: "Demo Org",
        created_at: CREATED,
        members: [
          { user_id: DEMO.userId, role: "admin" },
          { user_id: DEMO.memberUserId, role: "member" },
        ],
      },
    ],
    projects: [
      project(
        DEMO.projectId,
        "demo-personal",
        { owner_user_id: DEMO.userId },
        DEMO.branchId,
        DEMO.endpointId,
      ),
      project(
        DEMO.orgProjectId,
        "demo-org-project",
        { org_id: DEMO.orgId },
        DEMO.orgBranchId,
        DEMO.orgEndpointId,
      ),
      project(
        DEMO.memberProjectId,
        "casey-personal",
        { owner_user_id: DEMO.memberUserId },
        DEMO.memberBranchId,
        DEMO.memberEndpointId,
      ),
    ],
    api_keys: [
      {
        id: DEMO.personalKeyId,
        kind: "personal",
        name: "demo-personal-key",
        token: DEMO.personalKey,
        user_id: DEMO.userId,
        created_at: CREATED,
      },
      {
        id: DEMO.memberPersonalKeyId,
        kind: "personal",
        name: "casey-personal-key",
        token: DEMO.memberPersonalKey,
        user_id: DEMO.memberUserId,
        created_at: CREATED,
      },
      {
        id: DEMO.orgKeyId,
        kind: "organization",
        name: "demo-org-key",
        token: DEMO.orgKey,
        user_id: DEMO.userId,
        org_id: DEMO.orgId,
        created_at: CREATED,
      },
      {
        id: DEMO.projectKeyId,
        kind: "project",
        name: "demo-project-key",
        token: DEMO.projectKey,
        user_id: DEMO.memberUserId,
        org_id: DEMO.orgId,
        project_id: DEMO.orgProjectId,
        created_at: CREATED,
      },
    ],
  };
}
