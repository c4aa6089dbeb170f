// The rows of the killed-creates table (tests/e2e/killedCreates.test.ts): each a kind (or a few
// that go together) declared in one stack of the crash fixture, with the creates whose answers the
// emulator holds while the run is killed, what the next run must have made and recorded, the change
// it makes in place or by replacement, and what destroy leaves. A new kind is a new row.
// A table of every kind: it grows by a row with each kind, so it is longer than 400 lines.
import * as assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, type RunningEmulator } from "../../../emulator";
import { createClient } from "../../../provider/client";
import { call } from "../../emulator/helpers";
import type { Declared } from "./crashFixture";
import {
  ADD_JWKS,
  ASSIGN,
  AUTH_DOMAINS,
  authSecrets,
  B,
  branch,
  bucketsOf,
  CHANGE_DATA_API,
  type Changes,
  CREATE_BUCKET,
  CREATE_TRIGGER,
  credentialSecrets,
  credentials,
  DEPLOY,
  dataApis,
  domains,
  ENABLE,
  ISSUE,
  keySets,
  LIMIT,
  liveCredentials,
  ORG,
  ORG_PROJECT,
  organization,
  P,
  PRESIGN,
  projectRole,
  REGION,
  REGISTER,
  RESTRICT,
  REVOKE,
  restrictions,
  triggersOf,
  UPDATE_TRIGGER,
  upload,
  vpcEndpoints,
} from "./kindRows";
import { type E2eStack, type StateResource, stateResources } from "./stack";

/** What a row's hooks read: the emulator, the stack, and what its state records. */
export interface RowContext {
  emulator: RunningEmulator;
  e2e: E2eStack;
  /** The resources of `kind` the stack's state records. */
  recorded(kind: string): StateResource[];
  /** The routes of the changing requests sent by the runs after the killed ones, in order. */
  sentByConvergingRuns: string[];
}

/** A create whose answer is held once its object is made, so the kill lands before the provider hears of it. */
export interface HeldCreate {
  route: string;
  /** Requests of the route that pass before the held one (a create that reads it before it makes the object). */
  passing?: number;
  made(ctx: RowContext): boolean;
}

export interface KilledCreateRow {
  /** The row's kinds, as messages name them. */
  name: string;
  /** Before the stack's first run: files, secret config, objects made outside the stack. */
  setUp?(ctx: RowContext): Promise<void>;
  /** After the suite. */
  tearDown?(): void;
  /**
   * The resources declared: in stage 1 (its creates that need nothing of another create), in stage
   * 2 (those that wait for an output of stage 1; stage 1's when left out), and after the change.
   */
  declared(phase: 1 | 2 | "changed"): Declared[];
  /** The creates held in each stage's killed run. */
  held: { 1: HeldCreate[]; 2?: HeldCreate[] };
  /** After the run that follows each killed one: each object made once, recorded once. */
  converged(ctx: RowContext): void;
  /** After the no-change preview and refresh. */
  unchanged?(ctx: RowContext): void;
  /** Before the changed declaration is previewed: e.g. new code written. */
  beforeChange?(ctx: RowContext): void;
  /** The preview of the change, with its diff. */
  changePreview?(stdout: string): void;
  /** The changes `up` makes to the row's resources. */
  changes: Changes;
  /** After that `up`: `routes` are the mutating requests it sent on the row's own routes, in order. */
  changed(ctx: RowContext, routes: string[]): void;
  /** The routes whose requests `changed` gets. */
  routes: string[];
  /** Before destroy: e.g. an app's uploads. */
  beforeDestroy?(ctx: RowContext): Promise<void>;
  destroyed(ctx: RowContext): void;
  /** Values that must never be in the state file or the engine's output. */
  secrets?(ctx: RowContext): string[];
}

// --- BranchAuth -------------------------------------------------------------------------------

const GITHUB_SECRET = "gh-client-secret-5f1c";

const branchAuth = (domain: string): Declared[] => [
  {
    kind: "BranchAuth",
    res: "auth",
    args: {
      projectId: P,
      branchId: B,
      trustedDomains: [domain],
      oauthProviders: [{ id: "github", clientId: "gh-id", clientSecret: "$secret:githubSecret" }],
    },
  },
];

let authKey: string | undefined;

const AUTH: KilledCreateRow = {
  name: "BranchAuth",
  async setUp({ e2e }) {
    await e2e.stack.setConfig("githubSecret", { value: GITHUB_SECRET, secret: true });
  },
  declared: (phase) =>
    branchAuth(phase === "changed" ? "https://shop.example.com" : "https://app.example.com"),
  held: {
    1: [
      {
        route: "POST /projects/{project_id}/branches/{branch_id}/auth",
        made: ({ emulator }) => branch(emulator)?.auth !== undefined,
      },
    ],
  },
  converged({ emulator, recorded }) {
    assert.equal(recorded("BranchAuth").length, 1, "recorded once");
    const auth = branch(emulator)?.auth;
    assert.deepEqual(auth?.domains, ["https://app.example.com"]);
    assert.equal(auth?.oauth_providers.find((p) => p.id === "github")?.client_secret, GITHUB_SECRET);
    authKey = auth?.pub_client_key;
  },
  changes: { update: 1 },
  routes: [`DELETE ${AUTH_DOMAINS}`, `POST ${AUTH_DOMAINS}`],
  changed({ emulator }, routes) {
    assert.deepEqual([...routes].sort(), [`DELETE ${AUTH_DOMAINS}`, `POST ${AUTH_DOMAINS}`]);
    assert.equal(branch(emulator)?.auth?.pub_client_key, authKey, "its keys kept");
  },
  destroyed({ emulator }) {
    assert.equal(branch(emulator)?.auth, undefined, "Auth disabled");
  },
  secrets: ({ emulator }) => authSecrets(emulator, GITHUB_SECRET),
};

// --- Bucket -----------------------------------------------------------------------------------

const signatures: string[] = [];
let bucketId: string | undefined;

const BUCKET: KilledCreateRow = {
  name: "Bucket",
  declared: (phase) => [
    { kind: "Bucket", res: "files", args: { projectId: P, branchId: B, forceDestroy: phase === "changed" } },
  ],
  held: {
    1: [
      {
        route: "POST /projects/{project_id}/branches/{branch_id}/buckets",
        made: ({ emulator }) => bucketsOf(emulator).length === 1,
      },
    ],
  },
  converged({ emulator, recorded }) {
    assert.equal(bucketsOf(emulator).length, 1, "one bucket, not two");
    assert.equal(recorded("Bucket").length, 1, "recorded once");
    bucketId = recorded("Bucket")[0]?.id;
  },
  // forceDestroy is the provider's own: it changes in place with no request.
  changes: { update: 1 },
  routes: [CREATE_BUCKET],
  changed({ recorded }, routes) {
    assert.deepEqual(routes, []);
    assert.equal(recorded("Bucket")[0]?.id, bucketId, "the same bucket");
  },
  async beforeDestroy({ emulator }) {
    const name = bucketsOf(emulator)[0]?.name ?? "";
    signatures.push(await upload(emulator, name, "avatars/1.png", "png"));
    signatures.push(await upload(emulator, name, "readme.txt", "hello"));
  },
  destroyed({ emulator }) {
    assert.deepEqual(bucketsOf(emulator), [], "the bucket emptied of the app's uploads, then deleted");
  },
  secrets: () => signatures,
};

// --- BucketObject -----------------------------------------------------------------------------

const OBJECTS = "GET /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects";
const PAGE = "site/index.html";
/** The object of the Bucket row's bucket at `PAGE`, as the emulator keeps it. */
const page = (emulator: RunningEmulator) => bucketsOf(emulator)[0]?.objects[PAGE];
let pageId: string | undefined;

const BUCKET_OBJECT: KilledCreateRow = {
  name: "BucketObject",
  declared: (phase) => [
    {
      kind: "BucketObject",
      res: "page",
      args: {
        projectId: P,
        branchId: B,
        bucketName: "@files.name",
        key: PAGE,
        content: phase === "changed" ? "<h1>v2</h1>" : "<h1>v1</h1>",
        contentType: "text/html",
      },
    },
  ],
  held: {
    // The create lists the key (nothing there), uploads, then lists it again: that answer is held.
    1: [{ route: OBJECTS, passing: 1, made: ({ emulator }) => page(emulator) !== undefined }],
  },
  converged({ emulator, recorded }) {
    assert.equal(recorded("BucketObject").length, 1, "recorded once");
    assert.deepEqual([page(emulator)?.size, page(emulator)?.content_type], [11, "text/html"]);
    pageId = recorded("BucketObject")[0]?.id;
  },
  changePreview(stdout) {
    assert.match(stdout, /~ sha256 *: /, "the preview names new bytes as sha256");
  },
  changes: { update: 1 },
  routes: [
    PRESIGN,
    "DELETE /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}",
  ],
  changed({ emulator, recorded }, routes) {
    assert.deepEqual(routes, [PRESIGN], "uploaded again in place, nothing deleted");
    assert.equal(recorded("BucketObject")[0]?.id, pageId, "the same object");
    assert.equal(page(emulator)?.size, 11);
  },
  destroyed({ recorded }) {
    assert.deepEqual(recorded("BucketObject"), [], "deleted before its bucket");
  },
};

// --- Credential -------------------------------------------------------------------------------

let oldToken: string | undefined;

const CREDENTIAL: KilledCreateRow = {
  name: "Credential",
  declared: (phase) => [
    {
      kind: "Credential",
      res: "uploads",
      args: {
        projectId: P,
        branchId: B,
        name: "uploads",
        scopes: ["storage:read"],
        rotationTrigger: phase === "changed" ? "2" : "1",
      },
    },
  ],
  held: { 1: [{ route: ISSUE, made: ({ emulator }) => credentials(emulator).length > 0 }] },
  converged({ emulator, recorded }) {
    assert.equal(credentials(emulator).length, 1, "no second credential issued");
    assert.equal(recorded("Credential").length, 1, "recorded once");
    oldToken = liveCredentials(emulator)[0]?.token_id;
  },
  changes: { replace: 1 },
  routes: [ISSUE, REVOKE],
  changed({ emulator }, routes) {
    assert.deepEqual(routes, [ISSUE, REVOKE], "the new credential issued before the old one is revoked");
    const live = liveCredentials(emulator);
    assert.equal(live.length, 1);
    assert.notEqual(live[0]?.token_id, oldToken);
  },
  destroyed({ emulator }) {
    assert.deepEqual(liveCredentials(emulator), [], "revoked");
  },
  secrets: ({ emulator }) => credentialSecrets(emulator),
};

// --- CustomDomain -----------------------------------------------------------------------------

const REMOVE = "DELETE /projects/{project_id}/branches/{branch_id}/custom-domains/{domain}";

const CUSTOM_DOMAIN: KilledCreateRow = {
  name: "CustomDomain",
  async setUp({ emulator }) {
    // The function the domain routes to (a slug the branch lacks is refused at preview).
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    await client.deployFunction(P, B, "web", { zip: Buffer.from("PK\u0003\u0004 site") });
  },
  declared: (phase) => [
    {
      kind: "CustomDomain",
      res: "site",
      args: {
        projectId: P,
        branchId: B,
        domain: phase === "changed" ? "www.example.com" : "App.Example.com",
        entityType: "function",
        entityId: "web",
      },
    },
  ],
  held: { 1: [{ route: REGISTER, made: ({ emulator }) => domains(emulator).length === 1 }] },
  converged({ emulator, recorded }) {
    assert.deepEqual(domains(emulator), ["app.example.com -> web"], "registered again: the same, once");
    assert.equal(recorded("CustomDomain").length, 1, "recorded once");
  },
  // Nothing of a domain changes in place: a new one replaces it, registered before the old is removed.
  changes: { replace: 1 },
  routes: [REGISTER, REMOVE],
  changed({ emulator }, routes) {
    assert.deepEqual(routes, [REGISTER, REMOVE]);
    assert.deepEqual(domains(emulator), ["www.example.com -> web"]);
  },
  destroyed({ emulator }) {
    assert.deepEqual(domains(emulator), []);
  },
};

// --- DataApi and Jwks -------------------------------------------------------------------------

const CLERK = "https://clerk.example.com/.well-known/jwks.json";
let keySetId: string | undefined;

const DATA_API: KilledCreateRow = {
  name: "DataApi and Jwks",
  declared: (phase) => [
    {
      kind: "DataApi",
      res: "api",
      args: {
        projectId: P,
        branchId: B,
        databaseName: "neondb",
        settings: { dbMaxRows: phase === "changed" ? 200 : 100 },
      },
    },
    {
      kind: "Jwks",
      res: "clerk",
      args: { projectId: P, branchId: B, jwksUrl: CLERK, providerName: "Clerk" },
    },
  ],
  held: {
    1: [
      { route: ENABLE, made: ({ emulator }) => dataApis(emulator).length === 1 },
      { route: ADD_JWKS, made: ({ emulator }) => keySets(emulator).length === 1 },
    ],
  },
  converged({ emulator }) {
    assert.equal(dataApis(emulator).length, 1, "one Data API on the database");
    assert.deepEqual(
      keySets(emulator).map((j) => j.jwks_url),
      [CLERK],
      "one key set, not two",
    );
    keySetId = keySets(emulator)[0]?.id;
  },
  changes: { update: 1 },
  routes: [ENABLE, CHANGE_DATA_API, ADD_JWKS],
  changed({ emulator }, routes) {
    assert.deepEqual(routes, [CHANGE_DATA_API], "the settings changed with one PATCH");
    assert.deepEqual(dataApis(emulator)[0]?.settings, { db_max_rows: 200 });
    assert.equal(keySets(emulator)[0]?.id, keySetId, "the same key set");
  },
  destroyed({ emulator }) {
    assert.deepEqual(dataApis(emulator), []);
    assert.deepEqual(keySets(emulator), []);
  },
};

// --- Function and Trigger ---------------------------------------------------------------------

const API_TOKEN = "tok-ts-9c41e0a7d2";
let code = "";
let functionId: string | undefined;

const functionsOf = (emulator: RunningEmulator) => branch(emulator)?.functions ?? [];

const FUNCTION: KilledCreateRow = {
  name: "Function and Trigger",
  async setUp({ e2e }) {
    code = mkdtempSync(join(tmpdir(), "clouddb-e2e-function-"));
    writeFileSync(join(code, "index.mjs"), "export default () => new Response('v1');\n");
    await e2e.stack.setConfig("apiToken", { value: API_TOKEN, secret: true });
  },
  tearDown: () => rmSync(code, { recursive: true, force: true }),
  declared(phase) {
    const api: Declared = {
      kind: "Function",
      res: "api",
      args: { projectId: P, branchId: B, source: code, environment: { API_TOKEN: "$secret:apiToken" } },
    };
    if (phase === 1) return [api];
    const cron = phase === "changed" ? "*/30 * * * *" : "0 3 * * *";
    return [
      api,
      {
        kind: "Trigger",
        res: "nightly",
        args: { projectId: P, branchId: B, type: "schedule", functionSlug: "@api.slug", cron },
      },
    ];
  },
  held: {
    1: [
      { route: DEPLOY, made: ({ emulator }) => functionsOf(emulator).some((f) => f.slug.startsWith("api")) },
    ],
    2: [{ route: CREATE_TRIGGER, made: ({ emulator }) => triggersOf(emulator).length === 1 }],
  },
  converged({ emulator, recorded }) {
    const mine = functionsOf(emulator).filter((f) => f.slug !== "web");
    assert.equal(mine.length, 1, "one function, not two");
    assert.match(mine[0]?.slug ?? "", /^api[0-9a-f]{10}$/, "its slug generated from the resource's name");
    assert.equal(mine[0]?.deployments.length, 2, "the killed run's deployment, then the code deployed again");
    assert.equal(recorded("Function").length, 1, "recorded once");
    const triggers = triggersOf(emulator);
    assert.equal(triggers.length, 1, "one trigger, not two");
    assert.equal(triggers[0]?.function_slug, mine[0]?.slug);
    assert.equal(recorded("Trigger").length, 1, "recorded once");
    functionId = recorded("Function")[0]?.id;
  },
  beforeChange() {
    writeFileSync(join(code, "index.mjs"), "export default () => new Response('v2');\n");
  },
  changePreview(stdout) {
    assert.match(stdout, /~ sourceHash *: /, "the preview names new code as sourceHash");
  },
  changes: { update: 2 },
  routes: [DEPLOY, UPDATE_TRIGGER],
  changed({ emulator, recorded }, routes) {
    assert.deepEqual(routes, [DEPLOY, UPDATE_TRIGGER], "new code deployed, the cron PATCHed");
    const [after] = recorded("Function");
    assert.equal(after?.id, functionId, "the same function");
    assert.equal(after?.outputs?.deploymentId, 3, "a third deployment, completed before up ended");
    assert.equal(after?.outputs?.deploymentStatus, "completed");
    assert.deepEqual(
      triggersOf(emulator).map((t) => [t.cron, t.version]),
      // Version 1 made by the killed run, 2 its PATCH to the inputs by the next, 3 the new cron.
      [["*/30 * * * *", 3]],
    );
  },
  destroyed({ emulator }) {
    assert.deepEqual(
      functionsOf(emulator).map((f) => f.slug),
      ["web"],
      "the function deleted (web is not the stack's)",
    );
    assert.deepEqual(triggersOf(emulator), []);
  },
  secrets: () => [API_TOKEN],
};

// --- The organization's kinds -----------------------------------------------------------------

const HIRE = "new.hire@example.com";
const MEMBER_ROLE = "PATCH /organizations/{org_id}/members/{member_id}";
const PROJECT_ROLE = "PUT /projects/{project_id}/members/{member_id}/role";
const orgKinds = ["OrganizationSpendingLimit", "OrganizationMember", "ProjectMember"];
let orgIds: (string | undefined)[] = [];

const ORGANIZATION: KilledCreateRow = {
  name: "OrganizationSpendingLimit, OrganizationMember, OrganizationInvitation, ProjectMember",
  declared(phase) {
    const changed = phase === "changed";
    const first: Declared[] = [
      {
        kind: "OrganizationSpendingLimit",
        res: "limit",
        args: { orgId: ORG, spendingLimitCents: changed ? 75_000 : 50_000 },
      },
      {
        kind: "OrganizationMember",
        res: "casey",
        args: { orgId: ORG, email: "casey@example.com", role: changed ? "member" : "admin" },
      },
      { kind: "OrganizationInvitation", res: "hire", args: { orgId: ORG, email: HIRE, role: "member" } },
    ];
    if (phase === 1) return first;
    // After the membership it names (its email is the member's output).
    const reader: Declared = {
      kind: "ProjectMember",
      res: "reader",
      args: { projectId: ORG_PROJECT, email: "@casey.email", role: changed ? "editor" : "viewer" },
    };
    return [...first, reader];
  },
  held: {
    1: [
      { route: LIMIT, made: ({ emulator }) => organization(emulator)?.spending_limit_cents === 50_000 },
      {
        route: MEMBER_ROLE,
        made: ({ emulator }) => organization(emulator)?.members[DEMO.memberUserId] === "admin",
      },
      {
        route: "POST /organizations/{org_id}/invitations",
        made: ({ emulator }) => (organization(emulator)?.invitations ?? []).length > 0,
      },
    ],
    2: [{ route: PROJECT_ROLE, made: ({ emulator }) => projectRole(emulator) === "viewer" }],
  },
  converged({ emulator, recorded }) {
    const org = organization(emulator);
    assert.equal(org?.spending_limit_cents, 50_000);
    assert.equal(org?.members[DEMO.memberUserId], "admin");
    assert.deepEqual(
      (org?.invitations ?? []).map((i) => [i.email, i.role]),
      [[HIRE, "member"]],
      "one invitation",
    );
    assert.equal(projectRole(emulator), "viewer");
    for (const kind of [...orgKinds, "OrganizationInvitation"])
      assert.equal(recorded(kind).length, 1, `${kind} recorded once`);
    orgIds = orgKinds.map((kind) => recorded(kind)[0]?.id);
  },
  changes: { update: 3 },
  routes: [LIMIT, MEMBER_ROLE, PROJECT_ROLE],
  changed({ emulator, recorded }, routes) {
    assert.deepEqual([...routes].sort(), [MEMBER_ROLE, LIMIT, PROJECT_ROLE], "one request each");
    assert.deepEqual(
      orgKinds.map((kind) => recorded(kind)[0]?.id),
      orgIds,
      "the ids kept",
    );
    assert.equal(organization(emulator)?.spending_limit_cents, 75_000);
    assert.equal(organization(emulator)?.members[DEMO.memberUserId], "member");
    assert.equal(projectRole(emulator), "editor");
  },
  destroyed({ emulator }) {
    const org = organization(emulator);
    assert.equal(org?.spending_limit_cents, undefined, "the limit cleared");
    // The roles found are those the killed runs had set (admin, viewer): nothing on a member tells a
    // killed run's change from one made before, so those are the roles given back.
    assert.equal(org?.members[DEMO.memberUserId], "admin", "casey stays a member, with the role found");
    assert.equal(projectRole(emulator), "viewer");
    assert.deepEqual(
      (org?.invitations ?? []).map((i) => i.email),
      [HIRE],
      "the invitation stays: the API cannot withdraw one",
    );
  },
};

// --- VpcEndpoint and ProjectVpcEndpoint -------------------------------------------------------

const ENDPOINT = "vpce-0e2e0e2e0e2e0e2e0";
const BY_HAND = "vpce-0bbbbbbbbbbbbbbbb";
let vpcIds: (string | undefined)[] = [];

const VPC: KilledCreateRow = {
  name: "VpcEndpoint and ProjectVpcEndpoint",
  async setUp({ emulator }) {
    // An endpoint another tool assigned, which the change adopts.
    const reply = await call(
      emulator.url,
      "POST",
      `/organizations/${ORG}/vpc/region/${REGION}/vpc_endpoints/${BY_HAND}`,
      { key: DEMO.personalKey, body: { label: "by-hand" } },
    );
    assert.equal(reply.status, 200, reply.text);
  },
  declared(phase) {
    const changed = phase === "changed";
    const ep: Declared = {
      kind: "VpcEndpoint",
      res: "ep",
      args: { orgId: ORG, regionId: REGION, vpcEndpointId: ENDPOINT, label: changed ? "e2e-2" : "e2e" },
    };
    if (phase === 1) return [ep];
    const only: Declared = {
      kind: "ProjectVpcEndpoint",
      res: "only",
      args: {
        projectId: ORG_PROJECT,
        vpcEndpointId: "@ep.vpcEndpointId",
        label: changed ? "only-2" : "only",
      },
    };
    if (!changed) return [ep, only];
    const adopted: Declared = {
      kind: "VpcEndpoint",
      res: "adopted",
      args: {
        orgId: ORG,
        regionId: REGION,
        vpcEndpointId: BY_HAND,
        label: "adopted",
        adoptExisting: BY_HAND,
      },
    };
    return [ep, only, adopted];
  },
  held: {
    1: [
      {
        route: ASSIGN,
        made: ({ emulator }) => vpcEndpoints(emulator).some((e) => e.vpc_endpoint_id === ENDPOINT),
      },
    ],
    2: [{ route: RESTRICT, made: ({ emulator }) => restrictions(emulator).length > 0 }],
  },
  converged({ emulator, recorded, sentByConvergingRuns }) {
    assert.deepEqual(Object.fromEntries(vpcEndpoints(emulator).map((e) => [e.vpc_endpoint_id, e.label])), {
      [BY_HAND]: "by-hand",
      [ENDPOINT]: "e2e",
    });
    assert.deepEqual(
      sentByConvergingRuns.filter((route) => route === ASSIGN || route === RESTRICT),
      [],
      "the runs after the killed ones take what those assigned, never assign again",
    );
    assert.deepEqual(restrictions(emulator), [{ vpc_endpoint_id: ENDPOINT, label: "only" }]);
    assert.deepEqual(
      recorded("VpcEndpoint").map((r) => r.id),
      [`${ORG}/${REGION}/${ENDPOINT}`],
    );
    assert.deepEqual(
      recorded("ProjectVpcEndpoint").map((r) => r.id),
      [`${ORG_PROJECT}/${ENDPOINT}`],
    );
    vpcIds = [...recorded("VpcEndpoint"), ...recorded("ProjectVpcEndpoint")].map((r) => r.id);
  },
  unchanged({ recorded }) {
    // The endpoint's state is an output only: the refresh records the service's acceptance, no diff.
    assert.equal(recorded("VpcEndpoint")[0]?.outputs?.state, "accepted");
  },
  changes: { update: 2, create: 1 },
  routes: [ASSIGN, RESTRICT],
  changed({ emulator, recorded }, routes) {
    // The labels in place, one POST each; the adopted endpoint takes its label with one more.
    assert.deepEqual([...routes].sort(), [ASSIGN, ASSIGN, RESTRICT]);
    assert.deepEqual(
      [...recorded("VpcEndpoint"), ...recorded("ProjectVpcEndpoint")]
        .map((r) => r.id)
        .filter((id) => !id?.endsWith(BY_HAND)),
      vpcIds,
    );
    const labels = Object.fromEntries(vpcEndpoints(emulator).map((e) => [e.vpc_endpoint_id, e.label]));
    assert.deepEqual(labels, { [ENDPOINT]: "e2e-2", [BY_HAND]: "adopted" });
    assert.equal(restrictions(emulator)[0]?.label, "only-2");
  },
  destroyed({ emulator }) {
    assert.deepEqual(vpcEndpoints(emulator), []);
    assert.deepEqual(restrictions(emulator), []);
    assert.deepEqual(organization(emulator)?.removed_vpc_endpoints?.sort(), [BY_HAND, ENDPOINT]);
  },
};

/** Every row, in the order the suite reports them. */
export const KILLED_CREATE_ROWS: readonly KilledCreateRow[] = [
  AUTH,
  BUCKET,
  BUCKET_OBJECT,
  CREDENTIAL,
  CUSTOM_DOMAIN,
  DATA_API,
  FUNCTION,
  ORGANIZATION,
  VPC,
];

/** The resources of `kind` a state file records, by any provider. */
export function recordedIn(e2e: E2eStack, kind: string): StateResource[] {
  return stateResources(e2e.rawState()).filter(
    (r) => r.type === `pulumi-nodejs:dynamic/clouddb:${kind}` || r.type === `clouddb:index:${kind}`,
  );
}
