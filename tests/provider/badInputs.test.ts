import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { DEMO } from "../../emulator";
import { zipFolder } from "../../provider/resources/inputs/zip";
import { forgetPreflight } from "../../provider/resources/lifecycle/preflight";
import { backupScheduleProvider } from "../../provider/resources/public/backupSchedule";
import { branchProvider } from "../../provider/resources/public/branch";
import { branchAuthProvider } from "../../provider/resources/public/branchAuth";
import { bucketProvider } from "../../provider/resources/public/bucket";
import { bucketObjectProvider } from "../../provider/resources/public/bucketObject";
import { customDomainProvider } from "../../provider/resources/public/customDomain";
import { endpointProvider } from "../../provider/resources/public/endpoint";
import { functionProvider } from "../../provider/resources/public/function";
import { projectProvider } from "../../provider/resources/public/project";
import { projectPermissionProvider } from "../../provider/resources/public/projectPermission";
import { projectVpcEndpointProvider } from "../../provider/resources/public/projectVpcEndpoint";
import { snapshotProvider } from "../../provider/resources/public/snapshot";
import { triggerProvider } from "../../provider/resources/public/trigger";
import { vpcEndpointProvider } from "../../provider/resources/public/vpcEndpoint";
import { useEmulator } from "./support";

// Bad inputs of the newer kinds, each judged by the preview (`check`), which knows them all: none
// reaches the API's create, and each failure names the input and what to give instead. One rule is
// judged the same way on every kind that has such an input (timestamps, expiry, id forms, regions).
// A table of every newer kind's bad inputs: it grows by rows with each kind, so it is longer than
// 400 lines.

type Provider = pulumi.dynamic.ResourceProvider;

const PROJECT = DEMO.orgProjectId;
const BRANCH = DEMO.orgBranchId;
const ORG = DEMO.orgId;
const FUTURE = new Date(Date.now() + 3 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
const PAST = "2020-01-01T00:00:00Z";
const URN = (kind: string) => `urn:pulumi:dev::app::clouddb:index:${kind}::bad`;

interface Case {
  /** What is wrong, as the test's name says it. */
  what: string;
  provider: Provider;
  kind: string;
  inputs: Record<string, unknown>;
  /** The stored inputs of an existing resource, for an update; none for a create. */
  olds?: Record<string, unknown>;
  /** What the failure must say. */
  says: RegExp;
}

const snapshot = (inputs: Record<string, unknown>) => ({
  provider: snapshotProvider as Provider,
  kind: "Snapshot",
  inputs: { projectId: PROJECT, branchId: BRANCH, name: "nightly", ...inputs },
});
const schedule = (inputs: Record<string, unknown>) => ({
  provider: backupScheduleProvider as Provider,
  kind: "BackupSchedule",
  inputs: { projectId: PROJECT, branchId: BRANCH, schedule: [{ frequency: "daily", hour: 3 }], ...inputs },
});
const branch = (inputs: Record<string, unknown>, olds?: Record<string, unknown>) => ({
  provider: branchProvider as Provider,
  kind: "Branch",
  inputs: { projectId: PROJECT, name: "feature", ...inputs },
  ...(olds === undefined ? {} : { olds: { projectId: PROJECT, name: "feature", ...olds } }),
});
const vpce = (inputs: Record<string, unknown>) => ({
  provider: vpcEndpointProvider as Provider,
  kind: "VpcEndpoint",
  inputs: { orgId: ORG, regionId: "aws-us-east-2", vpcEndpointId: "vpce-0a1b2c3d4e5f6a7b8", ...inputs },
});
const restriction = (inputs: Record<string, unknown>) => ({
  provider: projectVpcEndpointProvider as Provider,
  kind: "ProjectVpcEndpoint",
  inputs: { projectId: PROJECT, vpcEndpointId: "vpce-0a1b2c3d4e5f6a7b8", ...inputs },
});
const permission = (inputs: Record<string, unknown>) => ({
  provider: projectPermissionProvider as Provider,
  kind: "ProjectPermission",
  inputs: { projectId: PROJECT, email: "ada@example.com", ...inputs },
});
const project = (inputs: Record<string, unknown>) => ({
  provider: projectProvider as Provider,
  kind: "Project",
  inputs: { name: "app", orgId: ORG, ...inputs },
});
const endpoint = (inputs: Record<string, unknown>) => ({
  provider: endpointProvider as Provider,
  kind: "Endpoint",
  inputs: { projectId: PROJECT, branchId: BRANCH, type: "read_only", ...inputs },
});
const window = { weekdays: [1], startTime: "01:00", endTime: "02:00" };
/** A Function whose code is the files `files` (none: an empty folder), or the bytes of an archive. */
const fn = (inputs: Record<string, unknown>, files?: Record<string, string>, archive?: Buffer) => {
  const root = mkdtempSync(join(tmpdir(), "clouddb-bad-function-"));
  process.once("exit", () => rmSync(root, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files ?? {})) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  if (archive !== undefined) writeFileSync(join(root, "code.zip"), archive);
  const code = archive === undefined ? { source: root } : { archive: join(root, "code.zip") };
  return {
    provider: functionProvider as Provider,
    kind: "Function",
    inputs: { projectId: PROJECT, branchId: BRANCH, ...code, ...inputs },
  };
};
const HANDLER = { "index.mjs": "export default () => new Response('ok');\n" };

// Functions and storage: the branch has no function "nofn" and no bucket "nobucket".
const trigger = (inputs: Record<string, unknown>) => ({
  provider: triggerProvider as Provider,
  kind: "Trigger",
  inputs: {
    projectId: PROJECT,
    branchId: BRANCH,
    type: "schedule",
    functionSlug: "nofn",
    cron: "0 3 * * *",
    ...inputs,
  },
});
const bucket = (inputs: Record<string, unknown>) => ({
  provider: bucketProvider as Provider,
  kind: "Bucket",
  inputs: { projectId: PROJECT, branchId: BRANCH, ...inputs },
});
const object = (inputs: Record<string, unknown>) => ({
  provider: bucketObjectProvider as Provider,
  kind: "BucketObject",
  inputs: { projectId: PROJECT, branchId: BRANCH, bucketName: "nobucket", key: "a.txt", ...inputs },
});
const domain = (inputs: Record<string, unknown>) => ({
  provider: customDomainProvider as Provider,
  kind: "CustomDomain",
  inputs: {
    projectId: PROJECT,
    branchId: BRANCH,
    domain: "app.example.com",
    entityType: "function",
    entityId: "nofn",
    ...inputs,
  },
});
const auth = (inputs: Record<string, unknown>) => ({
  provider: branchAuthProvider as Provider,
  kind: "BranchAuth",
  inputs: { projectId: PROJECT, branchId: BRANCH, ...inputs },
});
const smtp = {
  type: "standard",
  host: "smtp.example.com",
  port: 587,
  username: "u",
  password: "p",
  senderEmail: "auth@example.com",
};

const CASES: Case[] = [
  // Snapshot
  {
    what: "a snapshot timestamp in the future",
    ...snapshot({ timestamp: FUTURE }),
    says: /timestamp is in the future/,
  },
  {
    what: "a snapshot expiresAt in the past",
    ...snapshot({ expiresAt: PAST }),
    says: /expiresAt 2020-01-01T00:00:00Z is in the past/,
  },
  {
    what: "a snapshot timestamp that is no time",
    ...snapshot({ timestamp: "yesterday" }),
    says: /timestamp must be an RFC 3339 timestamp/,
  },
  {
    what: "a snapshot LSN of the wrong form",
    ...snapshot({ lsn: "0x1F" }),
    says: /lsn must be an LSN such as 0\/1F0A3B8/,
  },
  {
    what: "a snapshot at both a time and an LSN",
    ...snapshot({ timestamp: PAST, lsn: "0/1" }),
    says: /give either timestamp or lsn/,
  },
  {
    what: "a snapshot of a branch named by name, not id",
    ...snapshot({ branchId: "main" }),
    says: /branchId must be a branch id, br-… such as br-/,
  },
  {
    what: "a snapshot with a blank name",
    ...snapshot({ name: "  " }),
    says: /name must be a non-empty string/,
  },
  // BackupSchedule
  { what: "an empty backup schedule", ...schedule({ schedule: [] }), says: /at least one entry/ },
  {
    what: "a backup hour of 24",
    ...schedule({ schedule: [{ frequency: "daily", hour: 24 }] }),
    says: /hour must be a whole number from 0 to 23/,
  },
  {
    what: "a weekly backup on day 9",
    ...schedule({ schedule: [{ frequency: "weekly", day: 9 }] }),
    says: /weekday, 1 \(Monday\) to 7/,
  },
  {
    what: "a backup kept for a minute",
    ...schedule({ schedule: [{ frequency: "daily", retentionSeconds: 60 }] }),
    says: /at least 3600/,
  },
  {
    what: "a backup frequency the service does not know",
    ...schedule({ schedule: [{ frequency: "sometimes" }] }),
    says: /frequency is one of/,
  },
  {
    what: "a backup schedule of a branch named by name",
    ...schedule({ branchId: "main" }),
    says: /branchId must be a branch id/,
  },
  // Branch.initSource "anonymized"
  {
    what: "an anonymized branch without masking rules",
    ...branch({ initSource: "anonymized" }),
    says: /initSource: "anonymized" masks the parent's data by maskingRules, and none is given: .* Add maskingRules/,
  },
  {
    what: "an anonymized branch with an empty list of masking rules",
    ...branch({ initSource: "anonymized", maskingRules: [] }),
    says: /maskingRules.*none is given/,
  },
  // Branch.restore (an existing branch: restores are updates)
  {
    what: "a restore timestamp in the future",
    ...branch({ restore: { timestamp: FUTURE } }, {}),
    says: /restore\.timestamp is in the future/,
  },
  {
    what: "a restore from two sources",
    ...branch({ restore: { timestamp: PAST, lsn: "0/1" } }, {}),
    says: /exactly one of snapshotId, timestamp or lsn/,
  },
  {
    what: "a restore from nothing",
    ...branch({ restore: {} }, {}),
    says: /exactly one of snapshotId, timestamp or lsn/,
  },
  {
    what: "a restore snapshot id of the wrong form",
    ...branch({ restore: { snapshotId: "nightly" } }, {}),
    says: /restore\.snapshotId must be a snapshot id, snap-…/,
  },
  {
    what: "a restore from a snapshot that does not exist",
    ...branch({ restore: { snapshotId: "snap-none-a0000000" } }, {}),
    says: /project winter-boat-25988145 has no snapshot snap-none-a0000000/,
  },
  {
    what: "a restore LSN of the wrong form",
    ...branch({ restore: { lsn: "zz" } }, {}),
    says: /restore\.lsn must be an LSN/,
  },
  {
    what: "a restore keeping the old data under a blank name",
    ...branch({ restore: { timestamp: PAST, preserveUnderName: "" } }, {}),
    says: /preserveUnderName must be a non-empty string/,
  },
  {
    what: "a new branch with a restore from its own past",
    ...branch({ restore: { timestamp: PAST } }),
    says: /restore\.timestamp restores a branch from a point of its own history, and this Branch is being created: a new branch has no history before it is made/,
  },
  {
    what: "a parentTimestamp in the future",
    ...branch({ parentTimestamp: FUTURE }),
    says: /parentTimestamp is in the future/,
  },
  {
    what: "a parent named by name, not id",
    ...branch({ parentId: "main" }),
    says: /parentId must be a branch id/,
  },
  {
    what: "a branch expiresAt in the past",
    ...branch({ expiresAt: PAST }),
    says: /expiresAt 2020-01-01T00:00:00Z is in the past/,
  },
  // VpcEndpoint
  {
    what: "a VPC endpoint id without the vpce- form",
    ...vpce({ vpcEndpointId: "endpoint-1" }),
    says: /vpcEndpointId must be a VPC endpoint id, vpce-…/,
  },
  {
    what: "a VPC endpoint in an Azure region",
    ...vpce({ regionId: "azure-eastus2" }),
    says: /not offered in Azure regions/,
  },
  {
    what: "a VPC endpoint in a region the service does not offer",
    ...vpce({ regionId: "aws-mars-1" }),
    says: /the service offers no region aws-mars-1 to organization/,
  },
  {
    what: "a VPC endpoint region that is not a region id",
    ...vpce({ regionId: "Ohio" }),
    says: /regionId must be a region id such as aws-us-east-2/,
  },
  {
    what: "a VPC endpoint of an organization named by name",
    ...vpce({ orgId: "acme" }),
    says: /orgId must be an organization id, org-…/,
  },
  // ProjectVpcEndpoint
  {
    what: "a restriction to an id without the vpce- form",
    ...restriction({ vpcEndpointId: "1234" }),
    says: /vpcEndpointId must be a VPC endpoint id, vpce-…/,
  },
  // ProjectPermission
  {
    what: "a permission for something that is not an email",
    ...permission({ email: "ada" }),
    says: /email must be an email address/,
  },
  {
    what: "a permission for an email with a space",
    ...permission({ email: "ada lovelace@example.com" }),
    says: /email must be an email address/,
  },
  // Project settings
  {
    what: "a maintenance window on day 8",
    ...project({ maintenanceWindow: { ...window, weekdays: [8] } }),
    says: /a day is a whole number from 1 \(Monday\) to 7/,
  },
  {
    what: "a maintenance window starting at 25:00",
    ...project({ maintenanceWindow: { ...window, startTime: "25:00" } }),
    says: /startTime must be a UTC time written HH:MM/,
  },
  {
    what: "a maintenance window listing a day twice",
    ...project({ maintenanceWindow: { ...window, weekdays: [2, 2] } }),
    says: /lists a day twice/,
  },
  {
    what: "a negative quota",
    ...project({ quota: { computeTimeSeconds: -1 } }),
    says: /quota\.computeTimeSeconds must be a whole number, 0 or more/,
  },
  {
    what: "a reversed IP range",
    ...project({ allowedIps: ["10.0.0.9-10.0.0.1"] }),
    says: /"10\.0\.0\.9-10\.0\.0\.1" is a range whose last address comes before its first: write it 10\.0\.0\.1-10\.0\.0\.9/,
  },
  {
    what: "a reversed IPv6 range",
    ...project({ allowedIps: ["2001:db8::ff-2001:db8::1"] }),
    says: /last address comes before its first/,
  },
  {
    what: "an IP address out of range",
    ...project({ allowedIps: ["10.0.0.300"] }),
    says: /is not an IP address, a CIDR block/,
  },
  {
    what: "a project region the service does not offer",
    ...project({ regionId: "aws-mars-1" }),
    says: /the service offers no region aws-mars-1/,
  },
  {
    what: "a project region that is not a region id",
    ...project({ regionId: "us-east-2" }),
    says: /regionId must be a region id such as aws-us-east-2/,
  },
  // Endpoint
  {
    what: "a pooler in session mode",
    ...endpoint({ poolerMode: "session" }),
    says: /poolerMode must be transaction/,
  },
  {
    what: "a Postgres setting that is no parameter name",
    ...endpoint({ pgSettings: { "work mem": "4MB" } }),
    says: /is not a Postgres parameter name/,
  },
  {
    what: "a Postgres setting given as a number",
    ...endpoint({ pgSettings: { work_mem: 4 } }),
    says: /pgSettings\.work_mem must be a string/,
  },
  // Function
  {
    what: "a source folder that does not exist",
    ...fn({ source: "/nowhere/clouddb-function" }),
    says: /source folder \/nowhere\/clouddb-function cannot be read \(ENOENT\): give the path of an existing folder/,
  },
  {
    what: "an empty source folder",
    ...fn({}, {}),
    says: /source folder .* has no files: put the function's code in it, with index\.mjs or index\.js at its root/,
  },
  {
    what: "a source folder without index.mjs or index.js",
    ...fn({}, { "main.js": "export default () => new Response('ok');\n" }),
    says: /source folder .* has no index\.mjs nor index\.js at its root, the module the runtime imports \(it has main\.js\): add one/,
  },
  {
    what: "an archive without index.mjs or index.js",
    ...fn({}, undefined, zipFolder(fn({}, { "lib/index.mjs": "" }, undefined).inputs.source as string)),
    says: /archive .* has no index\.mjs nor index\.js at its root.*zip the folder from inside it/,
  },
  {
    what: "an archive that is not a zip",
    ...fn({}, undefined, Buffer.from("not a zip")),
    says: /archive .*code\.zip is not a ZIP file: zip the function's folder from inside it/,
  },
  {
    what: "an archive that does not exist",
    ...fn({ source: undefined, archive: "/nowhere/clouddb-function.zip" }),
    says: /archive \/nowhere\/clouddb-function\.zip cannot be read \(ENOENT\): give the path of an existing \.zip file/,
  },
  {
    what: "an archive with no files",
    ...fn({}, undefined, zipFolder(fn({}, {}).inputs.source as string)),
    says: /archive .*code\.zip has no files: put the function's code in it, with index\.mjs or index\.js at its root/,
  },
  {
    what: "an entry module with a syntax error",
    ...fn({}, { "index.mjs": "const a = 1;\nexport default () => new Response('x';\n" }),
    says: /index\.mjs in the source folder .* is not a module the runtime can load: line 2: SyntaxError: .*every invocation would answer 500/,
  },
  {
    what: "a runtime the service does not run",
    ...fn({ runtime: "python3" }, HANDLER),
    says: /runtime must be one the service runs: nodejs24/,
  },
  {
    what: "an environment variable name that is no variable name",
    ...fn({ environment: { "1BAD-NAME": "x" } }, HANDLER),
    says: /environment variable "1BAD-NAME" is not a variable name: a name is letters, digits and _, not starting with a digit/,
  },
  // Trigger, Bucket, CustomDomain, BranchAuth: rules their pages state, and the validator's own phrases
  {
    what: "a cron minute of 61",
    ...trigger({ cron: "61 3 * * *" }),
    says: /cron "61 3 \* \* \*": its minute field "61" holds 61, outside 0-59; a schedule is five numeric UTC fields/,
  },
  {
    what: "a cron written in words",
    ...trigger({ cron: "every day" }),
    says: /cron "every day" has 2 fields: a schedule is five numeric UTC fields.*`0 3 \* \* \*`/,
  },
  {
    what: "a cron with a seconds field",
    ...trigger({ cron: "0 0 3 * * *" }),
    says: /cron "0 0 3 \* \* \*" has 6 fields: a schedule is five numeric UTC fields/,
  },
  {
    what: "a cron naming a weekday",
    ...trigger({ cron: "0 3 * * MON" }),
    says: /its day of week field "MON" is not `\*`, a number, a range a-b or a step \/n/,
  },
  {
    what: "a cron with two spaces between fields",
    ...trigger({ cron: "0  3 * * *" }),
    says: /cron "0 {2}3 \* \* \*" separates its fields with more than one space or a tab: write them with one space between/,
  },
  {
    what: "a storage trigger on a bucket the branch lacks",
    ...trigger({ type: "storage_object_created", cron: undefined, bucketName: "nobucket" }),
    says: /bucketName: branch br-aged-salad-aw7dnb1u of project winter-boat-25988145 has no bucket "nobucket", and this program declares none: declare it with a Bucket on this branch and pass its name output as bucketName/,
  },
  {
    what: "a trigger of a function the branch lacks",
    ...trigger({}),
    says: /functionSlug: branch br-aged-salad-aw7dnb1u of project winter-boat-25988145 has no function "nofn".*deploy it with a Function on this branch and pass its slug output as functionSlug/,
  },
  {
    what: "a bucket name with a space and a slash",
    ...bucket({ name: "Bad Name/slash" }),
    says: /name must be a bucket name such as "uploads": 1 to 255 characters without "\/", spaces or control characters/,
  },
  {
    what: "an object in a bucket the branch lacks",
    ...object({ content: "text" }),
    says: /bucketName: branch br-aged-salad-aw7dnb1u of project winter-boat-25988145 has no bucket "nobucket", and this program declares none: declare it with a Bucket on this branch and pass its name output as bucketName/,
  },
  {
    what: "an object with both a file and text",
    ...object({ source: "readme.txt", content: "text" }),
    says: /^give exactly one of source \(a file path\) or content \(the object's text\); both were given$/,
  },
  {
    what: "an object from a file that does not exist",
    ...object({ source: "/nonexistent/readme.txt" }),
    says: /^source "\/nonexistent\/readme\.txt" does not exist: give the path of the file to upload/,
  },
  {
    what: "an object with an empty key",
    ...object({ key: "", content: "text" }),
    says: /^key must not be empty: give the object's key in the bucket, such as docs\/readme\.txt$/,
  },
  {
    what: "a domain that is an IP address",
    ...domain({ domain: "10.0.0.1" }),
    says: /domain must be a domain name you own, such as app\.example\.com, not the IP address "10\.0\.0\.1"/,
  },
  {
    what: "a domain routed to an entity type the service does not take",
    ...domain({ entityType: "endpoint" }),
    says: /entityType must be "function", not "endpoint"/,
  },
  {
    what: "a domain routed to a function the branch lacks",
    ...domain({}),
    says: /entityId: branch br-aged-salad-aw7dnb1u of project winter-boat-25988145 has no function "nofn".*pass its slug output as entityId/,
  },
  {
    what: "a standard email provider without a sender name",
    ...auth({ emailProvider: smtp }),
    says: /emailProvider\.senderName is required for a standard email provider: give the name mail is sent under/,
  },
  {
    what: "a webhook timeout above the service's",
    ...auth({ webhooks: { enabled: true, url: "https://hooks.example.com/auth", timeoutSeconds: 11 } }),
    says: /^webhooks\.timeoutSeconds must be 10 or less, not 11$/,
  },
  {
    what: "a webhook URL that is no URL",
    ...auth({ webhooks: { enabled: true, url: "hooks" } }),
    says: /^webhooks\.url must be a URL such as https:\/\/app\.example\.com, not "hooks"$/,
  },
  {
    what: "an auth provider the service does not know",
    ...auth({ authProvider: "auth0" }),
    says: /^authProvider must be one of "better_auth", "stack", "mock", not "auth0"$/,
  },
  {
    what: "an empty auth app name",
    ...auth({ appName: "" }),
    says: /^appName must not be empty$/,
  },
];

describe("bad inputs of the newer kinds fail at preview", () => {
  const harness = useEmulator();
  beforeEach(() => {
    forgetPreflight();
    harness.emulator.control.clearRequests();
  });

  it(`lists at least 35 bad inputs`, () => {
    assert.ok(CASES.length >= 35, `${CASES.length} cases`);
  });

  for (const c of CASES) {
    it(`${c.kind}: ${c.what}`, async () => {
      const news = { ...c.inputs, __owner: URN(c.kind) };
      const result = await c.provider.check!(c.olds ?? {}, news);
      const reasons = (result.failures ?? []).map((f) => f.reason);
      assert.ok(reasons.length > 0, `accepted at preview: ${JSON.stringify(c.inputs)}`);
      assert.ok(
        reasons.some((reason) => c.says.test(reason)),
        `none of the failures says ${c.says}: ${JSON.stringify(reasons)}`,
      );
      // The preview only reads: nothing was sent that changes anything.
      assert.deepEqual(harness.writes(), []);
    });
  }
});
