// The rows of the imported-kinds table (tests/e2e/importedKinds.test.ts): each a kind (or a few
// that go together) whose objects are made outside Pulumi, then declared in the one YAML program
// tests/e2e/fixtures/kinds-yaml (under the row's comment there) and brought in through the provider
// plugin with `pulumi import`, adopted (`adoptExisting`) or taken as they are, next to some the
// program makes; its config changes them; destroy. A new kind is its resources in that program and a
// row here.
// A table of every kind: it grows by a row with each kind, so it is longer than 400 lines.
import * as assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, type RunningEmulator } from "../../../emulator";
import { createClient } from "../../../provider/client";
import { zipFolder } from "../../../provider/resources/inputs/zip";
import { call } from "../../emulator/helpers";
import { projectIdle } from "../../provider/support";
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
import { type E2eStack, isEncryptedSecret, type StateResource, stateResources } from "./stack";

/** What a row's hooks read. */
export interface ImportContext {
  emulator: RunningEmulator;
  e2e: E2eStack;
  /** The outputs of the last `up`. */
  outputs: Record<string, unknown>;
}

/** A resource `pulumi import` brings in: its type token, its name in the program, its import id. */
export interface Imported {
  type: string;
  name: string;
  id: string;
}

export interface ImportedKindRow {
  name: string;
  /** Makes the row's objects outside Pulumi; returns what it imports, and config the program needs. */
  setUp(emulator: RunningEmulator): Promise<{ imports: Imported[]; config?: Record<string, string> }>;
  /** Secret config values. */
  secretConfig?: Record<string, string>;
  /** After the import. */
  imported?(ctx: ImportContext): void;
  /** The first `up` after the import: what it changes of the row's resources. */
  firstUp: Changes;
  /** After it: `routes` are the mutating requests it sent on the row's routes, in order. */
  afterFirstUp(ctx: ImportContext, routes: string[]): void | Promise<void>;
  /** The config values the change sets. */
  change: Record<string, string>;
  /** The preview of the change, with its diff. */
  changePreview?(stdout: string): void;
  /** The changes that `up` makes to the row's resources. */
  changes: Changes;
  changed(ctx: ImportContext, routes: string[]): void | Promise<void>;
  /** The routes whose requests `afterFirstUp` and `changed` get. */
  routes: string[];
  destroyed(emulator: RunningEmulator): void;
  /** Values that must never be in the state file or the engine's output. */
  secrets?(emulator: RunningEmulator): string[];
  /** The number of the row's resources in the program. */
  resources: number;
}

const stateOf = (e2e: E2eStack, type: string): StateResource | undefined =>
  stateResources(e2e.rawState()).find((r) => r.type === `clouddb:index:${type}`);

/** A request made outside Pulumi with the demo user's key: asserts it succeeded and returns its body. */
async function byHand(
  emulator: RunningEmulator,
  method: string,
  path: string,
  body?: unknown,
  key: string = DEMO.personalKey,
) {
  const answer = await call(emulator.url, method, path, { key, body });
  assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${answer.text}`);
  return answer.body;
}

// --- Project, Branch, Endpoint, Role, Database, Snapshot, BackupSchedule ------------------------

/** The core objects made by hand, and the ids `pulumi import` takes for each. */
const core = { projectId: "", branchId: "", endpointId: "", password: "", snapshotId: "" };

const CORE: ImportedKindRow = {
  name: "Project, Branch, Endpoint, Role, Database, Snapshot, BackupSchedule",
  resources: 7,
  async setUp(emulator) {
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    const idle = () => projectIdle(emulator, core.projectId);
    core.projectId = (await client.createProject({ project: { name: "made-by-hand" } })).project.id;
    await idle();
    core.branchId = (await client.createBranch(core.projectId, { branch: { name: "feature" } })).branch.id;
    await idle();
    const endpoint = { branch_id: core.branchId, type: "read_write" as const };
    core.endpointId = (await client.createEndpoint(core.projectId, { endpoint })).endpoint.id;
    await idle();
    const role = await client.createRole(core.projectId, core.branchId, { role: { name: "app_by_hand" } });
    core.password = role.role.password ?? "";
    await idle();
    const database = { name: "app_db", owner_name: "app_by_hand" };
    await client.createDatabase(core.projectId, core.branchId, { database });
    await idle();
    core.snapshotId = (
      await client.createSnapshot(core.projectId, core.branchId, { name: "by-hand" })
    ).snapshot.id;
    await client.setBackupSchedule(core.projectId, core.branchId, [{ frequency: "daily", hour: 2 }]);
    await idle();
    const { projectId: p, branchId: b } = core;
    return {
      imports: [
        { type: "clouddb:index:Project", name: "project", id: p },
        { type: "clouddb:index:Branch", name: "feature", id: `${p}/${b}` },
        { type: "clouddb:index:Endpoint", name: "compute", id: `${p}/${core.endpointId}` },
        { type: "clouddb:index:Role", name: "app", id: `${p}/${b}/app_by_hand` },
        { type: "clouddb:index:Database", name: "appdb", id: `${p}/${b}/app_db` },
        { type: "clouddb:index:Snapshot", name: "snapshot", id: `${p}/${core.snapshotId}` },
        { type: "clouddb:index:BackupSchedule", name: "backups", id: `${p}/${b}` },
      ],
    };
  },
  imported({ e2e }) {
    assert.equal(stateOf(e2e, "Branch")?.id, core.branchId, "the branch is recorded by its own id");
    assert.equal(stateOf(e2e, "Endpoint")?.id, core.endpointId);
    assert.equal(stateOf(e2e, "Snapshot")?.id, core.snapshotId);
    assert.equal(stateOf(e2e, "BackupSchedule")?.id, core.branchId);
    assert.ok(
      isEncryptedSecret(stateOf(e2e, "Role")?.outputs?.password),
      "the role's password is stored encrypted",
    );
    assert.ok(isEncryptedSecret(stateOf(e2e, "Project")?.outputs?.connectionUri));
    assert.ok(isEncryptedSecret(stateOf(e2e, "Branch")?.outputs?.connectionUri));
    assert.ok(
      !/postgresql:\/\/[^:@"]+:[^@"]+@/.test(e2e.rawState()),
      "a connection string with a password is in the state",
    );
  },
  firstUp: {},
  afterFirstUp({ outputs }, routes) {
    assert.deepEqual(routes, [], "the program declares them as they are");
    const password = outputs.password as { secret?: boolean; value?: unknown } | undefined;
    assert.equal(password?.secret, true);
    assert.equal(password?.value, core.password, "the imported password is the role's");
  },
  change: {},
  changes: {},
  routes: [],
  changed(_ctx, routes) {
    assert.deepEqual(routes, []);
  },
  destroyed(emulator) {
    const state = emulator.control.dumpState();
    const project = state.projects.find((p) => p.id === core.projectId);
    assert.notEqual(project?.deleted_at_ms, undefined, "destroy deleted the imported project");
    assert.deepEqual(
      state.snapshots.filter((s) => s.id === core.snapshotId),
      [],
      "and the imported snapshot",
    );
  },
  secrets: () => [core.password, DEMO.personalKey],
};

// --- BranchAuth -------------------------------------------------------------------------------

const GITHUB_SECRET = "gh-yaml-client-secret-8e2a";

const AUTH: ImportedKindRow = {
  name: "BranchAuth",
  resources: 1,
  async setUp(emulator) {
    const auth = `/projects/${P}/branches/${B}/auth`;
    await byHand(emulator, "POST", auth, { auth_provider: "better_auth" });
    await byHand(emulator, "POST", `${auth}/domains`, {
      domain: "https://app.example.com",
      auth_provider: "better_auth",
    });
    await byHand(emulator, "PATCH", `${auth}/oauth_providers/github`, {
      client_id: "gh-id",
      client_secret: GITHUB_SECRET,
    });
    return { imports: [{ type: "clouddb:index:BranchAuth", name: "auth", id: `${P}/${B}` }] };
  },
  secretConfig: { githubSecret: GITHUB_SECRET },
  firstUp: {},
  afterFirstUp(_ctx, routes) {
    assert.deepEqual(routes, [], "Auth imported as declared: nothing to send");
  },
  change: { domain: "https://shop.example.com" },
  changes: { update: 1 },
  routes: [`DELETE ${AUTH_DOMAINS}`, `POST ${AUTH_DOMAINS}`],
  changed({ emulator }) {
    assert.deepEqual(branch(emulator)?.auth?.domains, ["https://shop.example.com"]);
  },
  destroyed(emulator) {
    assert.equal(branch(emulator)?.auth, undefined, "Auth disabled");
  },
  secrets: (emulator) => authSecrets(emulator, GITHUB_SECRET),
};

// --- Bucket -----------------------------------------------------------------------------------

const BUCKETS = `/projects/${P}/branches/${B}/buckets`;
const signatures: string[] = [];

const BUCKET: ImportedKindRow = {
  name: "Bucket",
  resources: 2,
  async setUp(emulator) {
    for (const [name, access_level] of [
      ["by-hand", "public_read"],
      ["kept-by-hand", "private"],
    ])
      await byHand(emulator, "POST", BUCKETS, { name, access_level });
    signatures.push(await upload(emulator, "by-hand", "docs/a.txt", "a"));
    signatures.push(await upload(emulator, "kept-by-hand", "b.txt", "b"));
    return { imports: [{ type: "clouddb:index:Bucket", name: "files", id: `${P}/${B}/by-hand` }] };
  },
  // The import cannot read forceDestroy (the provider's own setting): the up records it, with no request.
  firstUp: { create: 1, update: 1 },
  afterFirstUp(_ctx, routes) {
    assert.deepEqual(routes, [], "adopting sends nothing");
  },
  change: { forceDestroy: "true" },
  changes: { update: 2 },
  routes: [CREATE_BUCKET],
  changed(_ctx, routes) {
    assert.deepEqual(routes, []);
  },
  destroyed(emulator) {
    assert.deepEqual(bucketsOf(emulator), [], "both emptied of their objects, then deleted");
  },
  secrets: () => signatures,
};

// --- BucketObject -----------------------------------------------------------------------------

/** The text of the object `key` of the bucket `by-hand`, read through a presigned URL; undefined when there is none. */
async function objectText(emulator: RunningEmulator, key: string): Promise<string | undefined> {
  const path = `${BUCKETS}/by-hand/objects/${encodeURIComponent(key)}/presign`;
  const signed = await call(emulator.url, "POST", path, {
    key: DEMO.personalKey,
    body: { operation: "download" },
  });
  if (signed.status === 404) return undefined;
  assert.equal(signed.status, 200, signed.text);
  const reply = await fetch(signed.body.url);
  if (reply.status === 404) return undefined;
  assert.equal(reply.status, 200);
  return reply.text();
}

const BUCKET_OBJECT: ImportedKindRow = {
  name: "BucketObject",
  resources: 2,
  async setUp(emulator) {
    signatures.push(await upload(emulator, "by-hand", "docs/readme.txt", "by hand"));
    return {
      imports: [
        { type: "clouddb:index:BucketObject", name: "readme", id: `${P}/${B}/by-hand/docs%2Freadme.txt` },
      ],
    };
  },
  // The imported object holds the program's bytes already: only `notes` is made.
  firstUp: { create: 1 },
  async afterFirstUp({ emulator }, routes) {
    assert.deepEqual(routes, [PRESIGN], "one upload, of notes.txt");
    assert.deepEqual(
      [await objectText(emulator, "docs/readme.txt"), await objectText(emulator, "notes.txt")],
      ["by hand", "notes"],
    );
  },
  change: { readmeText: "changed" },
  changePreview(stdout) {
    assert.match(
      stdout,
      /~ sha256\s*: "[0-9a-f]{64}" => "[0-9a-f]{64}"/,
      "the preview names the bytes' new hash",
    );
  },
  changes: { update: 1 },
  routes: [PRESIGN],
  async changed({ emulator }, routes) {
    assert.deepEqual(routes, [PRESIGN], "uploaded again in place: no delete");
    assert.equal(await objectText(emulator, "docs/readme.txt"), "changed");
  },
  // Both went with the bucket: the Bucket row finds no bucket left.
  destroyed() {},
  secrets: () => signatures,
};

// --- Credential -------------------------------------------------------------------------------

const REVEAL = "POST /projects/{project_id}/branches/{branch_id}/credentials/{token_id}/reveal";

const CREDENTIAL: ImportedKindRow = {
  name: "Credential",
  resources: 3,
  async setUp(emulator) {
    const issue = async (name: string, scopes: string[]): Promise<string> =>
      (
        await byHand(emulator, "POST", `/projects/${P}/branches/${B}/credentials`, {
          name,
          scopes,
          principal_type: "user",
        })
      ).token_id;
    const importedId = await issue("imported by hand", ["storage:read"]);
    const adoptedId = await issue("adopted by hand", ["storage:read", "storage:write"]);
    return {
      imports: [{ type: "clouddb:index:Credential", name: "imported", id: `${P}/${B}/${importedId}` }],
      config: { adoptedTokenId: adoptedId },
    };
  },
  firstUp: { create: 2 },
  afterFirstUp({ emulator, outputs }, routes) {
    assert.deepEqual(
      [...routes].sort(),
      [ISSUE, REVEAL].sort(),
      "the adopted one taken with its secrets, one issued",
    );
    assert.equal(credentials(emulator).length, 3);
    assert.equal(
      (outputs.apiToken as { secret?: boolean } | undefined)?.secret,
      true,
      "the token output is a secret",
    );
  },
  change: { rotation: "r2" },
  changes: { replace: 1 },
  routes: [ISSUE, REVOKE, REVEAL],
  changed({ emulator }, routes) {
    assert.deepEqual(routes, [ISSUE, REVOKE], "the new credential issued before the old is revoked");
    assert.equal(liveCredentials(emulator).length, 3);
  },
  destroyed(emulator) {
    assert.deepEqual(liveCredentials(emulator), [], "the imported, adopted and issued credentials revoked");
  },
  secrets: credentialSecrets,
};

// --- CustomDomain -----------------------------------------------------------------------------

const CUSTOM_DOMAIN: ImportedKindRow = {
  name: "CustomDomain",
  resources: 2,
  async setUp(emulator) {
    // The functions the domains route to (a slug the branch lacks is refused at preview).
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    for (const slug of ["docs", "web"])
      await client.deployFunction(P, B, slug, { zip: Buffer.from("PK\u0003\u0004 site") });
    for (const [domain, entity_id] of [
      ["docs.example.com", "docs"],
      ["app.example.com", "web"],
    ])
      await byHand(emulator, "POST", `/projects/${P}/branches/${B}/custom-domains`, {
        domain,
        entity_type: "function",
        entity_id,
      });
    return {
      imports: [{ type: "clouddb:index:CustomDomain", name: "docs", id: `${P}/${B}/docs.example.com` }],
    };
  },
  firstUp: { create: 1 },
  afterFirstUp({ emulator, outputs }, routes) {
    assert.deepEqual(routes, [REGISTER], "site registered again");
    assert.deepEqual(domains(emulator), ["docs.example.com -> docs", "app.example.com -> web"], "no other");
    assert.match(
      String((outputs.siteCnameTarget as { value?: unknown })?.value),
      new RegExp(`^${B}\\.domains\\.`),
    );
  },
  change: {},
  changes: {},
  routes: [REGISTER],
  changed(_ctx, routes) {
    assert.deepEqual(routes, []);
  },
  destroyed(emulator) {
    assert.deepEqual(domains(emulator), []);
  },
};

// --- DataApi and Jwks -------------------------------------------------------------------------

const DATA_API: ImportedKindRow = {
  name: "DataApi and Jwks",
  resources: 4,
  async setUp(emulator) {
    const made = async (path: string, body: unknown) => {
      const answer = await byHand(emulator, "POST", path, body);
      await projectIdle(emulator, P);
      return answer;
    };
    await made(`/projects/${P}/branches/${B}/databases`, {
      database: { name: "shop", owner_name: "neondb_owner" },
    });
    await made(`/projects/${P}/branches/${B}/data-api/shop`, { settings: { db_max_rows: 50 } });
    const clerk = await made(`/projects/${P}/jwks`, {
      jwks_url: "https://clerk.example.com/.well-known/jwks.json",
      provider_name: "Clerk",
    });
    return {
      imports: [
        { type: "clouddb:index:DataApi", name: "shop", id: `${P}/${B}/shop` },
        { type: "clouddb:index:Jwks", name: "clerk", id: `${P}/${clerk.jwks.id}` },
      ],
    };
  },
  firstUp: { create: 2 },
  afterFirstUp({ emulator }, routes) {
    assert.deepEqual([...routes].sort(), [ENABLE, ADD_JWKS].sort(), "the imported ones are left as they are");
    assert.equal(dataApis(emulator).length, 2);
    assert.equal(keySets(emulator).length, 2);
  },
  change: { maxRows: "500" },
  changes: { update: 2 },
  routes: [ENABLE, CHANGE_DATA_API, ADD_JWKS],
  changed({ emulator }, routes) {
    assert.deepEqual(routes, [CHANGE_DATA_API, CHANGE_DATA_API]);
    assert.deepEqual(
      dataApis(emulator).map((d) => d.settings),
      [{ db_max_rows: 500 }, { db_max_rows: 500 }],
    );
  },
  destroyed(emulator) {
    assert.deepEqual(dataApis(emulator), []);
    assert.deepEqual(keySets(emulator), []);
  },
};

// --- Function and Trigger ---------------------------------------------------------------------

const FUNCTION_TOKEN = "tok-yaml-5b1d9c0e7a";
const OURS = new Set(["byhand", "keptbyhand"]);
const ownFunctions = (emulator: RunningEmulator, fresh?: string) =>
  (branch(emulator)?.functions ?? []).filter(
    (f) => OURS.has(f.slug) || f.slug === fresh || f.slug.startsWith("fresh"),
  );
let freshSlug = "";

const FUNCTION: ImportedKindRow = {
  name: "Function and Trigger",
  resources: 4,
  async setUp(emulator) {
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    const elsewhere = mkdtempSync(join(tmpdir(), "clouddb-e2e-by-hand-"));
    try {
      writeFileSync(join(elsewhere, "index.mjs"), "export default () => new Response('by hand');\n");
      for (const slug of OURS) await client.deployFunction(P, B, slug, { zip: zipFolder(elsewhere) });
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    return { imports: [{ type: "clouddb:index:Function", name: "api", id: `${P}/${B}/byhand` }] };
  },
  // The imported function gets the program's code; the adopted one too, as its create.
  firstUp: { create: 3, update: 1 },
  afterFirstUp({ emulator, outputs }) {
    freshSlug = String((outputs.freshSlug as { value?: unknown })?.value);
    assert.match(freshSlug, /^fresh[0-9a-f]{10}$/);
    const deployments = Object.fromEntries(ownFunctions(emulator).map((f) => [f.slug, f.deployments.length]));
    assert.deepEqual(
      deployments,
      { byhand: 2, keptbyhand: 2, [freshSlug]: 1 },
      "the program's code deployed to each",
    );
    assert.equal(ownFunctions(emulator).find((f) => f.slug === "keptbyhand")?.name, "Kept by hand");
    const nightly = String((outputs.nightlyName as { value?: unknown })?.value);
    assert.match(nightly, /^nightly_[0-9a-f]{10}$/);
    assert.deepEqual(
      triggersOf(emulator).map((t) => [t.name, t.function_slug]),
      [[nightly, freshSlug]],
    );
  },
  change: { greeting: "bonjour", cron: "15 4 * * 1-5" },
  changePreview(stdout) {
    assert.match(
      stdout,
      /~ environment: \{\s*~ GREETING: \[secret\] => \[secret\]/,
      "the plugin's detailed diff names the variable, not its value",
    );
    assert.ok(!stdout.includes("bonjour"), "never its value");
  },
  changes: { update: 2 },
  routes: [
    DEPLOY,
    CREATE_TRIGGER,
    UPDATE_TRIGGER,
    // The adopted function takes its declared name.
    "PATCH /projects/{project_id}/branches/{branch_id}/functions/{slug}",
  ],
  async changed({ emulator }) {
    const byhand = ownFunctions(emulator).find((f) => f.slug === "byhand");
    assert.deepEqual(byhand?.deployments.at(-1)?.environment, ["API_TOKEN", "GREETING"]);
    assert.equal(byhand?.deployments.length, 3);
    // The emulator runs the active deployment: the program's code, with the new greeting.
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    const { invocation_url } = await client.getFunction(P, B, "byhand");
    const answer = await fetch(`${invocation_url}greet`);
    assert.deepEqual(await answer.json(), { greeting: "bonjour", path: "/greet" });
    assert.deepEqual(
      triggersOf(emulator).map((t) => t.cron),
      ["15 4 * * 1-5"],
    );
  },
  destroyed(emulator) {
    assert.deepEqual(ownFunctions(emulator, freshSlug), []);
    assert.deepEqual(triggersOf(emulator), []);
  },
  secrets: () => [FUNCTION_TOKEN],
};

// --- The organization's kinds -----------------------------------------------------------------

const ORGANIZATION: ImportedKindRow = {
  name: "OrganizationSpendingLimit, OrganizationMember, OrganizationInvitation, ProjectMember",
  resources: 4,
  async setUp(emulator) {
    const asAdmin = (method: string, path: string, body?: unknown) =>
      byHand(emulator, method, path, body, DEMO.orgKey);
    await asAdmin("PUT", `/organizations/${ORG}/billing/spending_limit`, { spending_limit_cents: 20_000 });
    const sent = await asAdmin("POST", `/organizations/${ORG}/invitations`, {
      invitations: [{ email: "by.hand@example.com", role: "admin" }],
    });
    const members = await asAdmin("GET", `/organizations/${ORG}/members`);
    const casey = members.members.find(
      (m: { member: { user_id: string } }) => m.member.user_id === DEMO.memberUserId,
    ).member;
    await asAdmin("PUT", `/projects/${ORG_PROJECT}/members/${casey.id}/role`, { role: "viewer" });
    return {
      imports: [
        { type: "clouddb:index:OrganizationSpendingLimit", name: "limit", id: ORG },
        { type: "clouddb:index:OrganizationMember", name: "casey", id: `${ORG}/${casey.id}` },
        {
          type: "clouddb:index:OrganizationInvitation",
          name: "hire",
          id: `${ORG}/${sent.invitations[0].id}`,
        },
        { type: "clouddb:index:ProjectMember", name: "reader", id: `${ORG_PROJECT}/${casey.id}` },
      ],
    };
  },
  imported({ e2e }) {
    assert.equal(stateOf(e2e, "OrganizationSpendingLimit")?.outputs?.spendingLimitCents, 20_000);
  },
  firstUp: {},
  afterFirstUp(_ctx, routes) {
    assert.deepEqual(routes, []);
  },
  change: { limitCents: "30000" },
  changes: { update: 1 },
  routes: [LIMIT],
  changed({ emulator }) {
    assert.equal(organization(emulator)?.spending_limit_cents, 30_000);
  },
  destroyed(emulator) {
    const org = organization(emulator);
    assert.equal(org?.spending_limit_cents, undefined);
    assert.equal(org?.members[DEMO.memberUserId], "member", "the member imported stays, with their role");
    assert.equal(
      emulator.control.dumpState().projects.find((p) => p.id === ORG_PROJECT)?.member_roles?.[
        DEMO.memberUserId
      ],
      "viewer",
      "the explicit role imported is given back",
    );
  },
};

// --- VpcEndpoint and ProjectVpcEndpoint -------------------------------------------------------

const VPCE = "vpce-0aaaaaaaaaaaaaaaa";

const VPC: ImportedKindRow = {
  name: "VpcEndpoint and ProjectVpcEndpoint",
  resources: 2,
  async setUp(emulator) {
    await byHand(emulator, "POST", `/organizations/${ORG}/vpc/region/${REGION}/vpc_endpoints/${VPCE}`, {
      label: "by-hand",
    });
    await byHand(emulator, "POST", `/projects/${ORG_PROJECT}/vpc_endpoints/${VPCE}`, { label: "restricted" });
    return {
      imports: [
        { type: "clouddb:index:VpcEndpoint", name: "ep", id: `${ORG}/${REGION}/${VPCE}` },
        { type: "clouddb:index:ProjectVpcEndpoint", name: "only", id: `${ORG_PROJECT}/${VPCE}` },
      ],
    };
  },
  imported({ e2e }) {
    assert.equal(stateOf(e2e, "VpcEndpoint")?.outputs?.label, "by-hand");
  },
  // The program declares no `protect`: this up lifts the protection imports get, changing nothing else.
  firstUp: {},
  afterFirstUp(_ctx, routes) {
    assert.deepEqual(routes, []);
  },
  change: {},
  changes: {},
  routes: [ASSIGN, RESTRICT],
  changed(_ctx, routes) {
    assert.deepEqual(routes, []);
  },
  destroyed(emulator) {
    assert.deepEqual(vpcEndpoints(emulator), []);
    assert.deepEqual(restrictions(emulator), []);
  },
};

/** Every row, in the order the program declares them. */
export const IMPORTED_KIND_ROWS: readonly ImportedKindRow[] = [
  CORE,
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
