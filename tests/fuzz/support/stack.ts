// A stack of the lifecycle fuzzer: a program with every kind the fuzzer drives, its recorded state,
// and the engine's steps (`up`, `up --refresh`, `refresh`, `destroy`, `cancel`) run through the
// providers' lifecycle functions in this process, in dependency order, as the Pulumi engine calls
// them. A step may be killed after its k-th API write (see killSwitch.ts): what the API did stays
// done, and the state keeps only what the engine had recorded before the kill.
// Longer than 400 lines: the program declares every kind the fuzzer drives, one entry per kind,
// and grows with each kind.
import { join } from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { DEMO } from "../../../emulator";
import { resetRegistry } from "../../../provider/client";
import { lazyProvider } from "../../../provider/resources/lifecycle/lazyProvider";
import { forgetRun } from "../../../provider/resources/processState";
import { DECLARATIONS } from "../../../provider/resources/public/kinds";
import { type KillSwitch, startKillSwitch } from "./killSwitch";

type Props = Record<string, unknown>;
type Provider = pulumi.dynamic.ResourceProvider<Props, Props>;

/** A kind of the fuzzer's program: a type name of the registry (`provider/resources/public/kinds.ts`). */
export type Kind = string;

/** Each kind's dynamic provider, from the registry: a new kind needs only its resources in `PROGRAM`. */
const PROVIDERS: ReadonlyMap<Kind, Provider> = new Map(
  DECLARATIONS.map((d) => [d.type, lazyProvider<Props, Props>(d.type)]),
);

/** The provider of `kind`; throws when the registry has no such kind (a misspelt `PROGRAM` row). */
function providerOf(kind: Kind): Provider {
  const provider = PROVIDERS.get(kind);
  if (provider === undefined) throw new Error(`the fuzzer's program names ${kind}, which the registry lacks`);
  return provider;
}

/** The declared inputs a sequence varies between steps. */
export interface Knobs {
  /** The app branch's declared name: `app`, else `app-<n>`. */
  rename: number;
  /** Which snapshot the app branch's `restore` names (none: no `restore`). */
  restore: "none" | "snapA" | "snapB";
  /** The role's `passwordResetTrigger` (0: none). */
  rotate: number;
  /**
   * Which VPC endpoint the program assigns (`vpcEndpointOf`): an organization never takes back one
   * it removed, so after a destroy removed it the user declares the next one.
   */
  vpc: number;
  /** The anonymized branch's `resetTrigger` (0: none): each new one resets it from its parent. */
  anonReset: number;
}

export const FIRST_KNOBS: Knobs = { rename: 0, restore: "none", rotate: 0, vpc: 0, anonReset: 0 };

/** The anonymized branch's declared name. */
export const ANON_NAME = "anon";

/** The VPC endpoint id the program assigns under `knobs`. */
export const vpcEndpointOf = (knobs: Knobs) => `vpce-0f0a${String(knobs.vpc).padStart(4, "0")}`;

/** The organization and region of the fuzzer's project (the VPC endpoint's too). */
export const FUZZ_ORG = DEMO.orgId;
export const FUZZ_REGION = "aws-us-east-2";
/** The organization's member the program takes (the demo's plain member). */
export const FUZZ_MEMBER = "casey@example.com";
/** The email the program invites: no account has it, so the invitation stays pending. */
export const FUZZ_INVITEE = "fuzz-invitee@example.com";

/** A resource of the program: its outputs so far (by resource name) and the knobs give its inputs. */
export interface Spec {
  name: string;
  kind: Kind;
  deps: string[];
  inputs(outs: (name: string) => Props, knobs: Knobs): Props;
}

/** The app branch's declared name under `knobs`. */
export const appName = (knobs: Knobs) => (knobs.rename === 0 ? "app" : `app-${knobs.rename}`);

/**
 * The program, in dependency order: a project; two snapshots of its default branch; a branch with
 * a compute (restored in place from a snapshot when `restore` says so); a read-only compute of the
 * default branch; an anonymized branch of the default branch with a masking rule and a compute (reset
 * from its parent by trigger); a role (unnamed, its password rotated by trigger), a database owned by it and a backup schedule on
 * that branch; a personal API key; the project shared with a reviewer; a VPC endpoint assigned to
 * the project's organization, and the project restricted to it; the organization's spending limit,
 * its plain member, an invitation to it, and the member's explicit role on the project; a bucket
 * (unnamed) on the default branch with an object in it; the Data API on the default branch's database, and a JWKS URL
 * the project trusts; a scoped credential and Auth on the app branch; a function on the default
 * branch, deployed from a folder beside this file, a nightly trigger invoking it, and a custom domain
 * routed to it.
 */
export const PROGRAM: readonly Spec[] = [
  {
    name: "proj",
    kind: "Project",
    deps: [],
    inputs: () => ({ name: "fuzz", orgId: FUZZ_ORG, regionId: FUZZ_REGION }),
  },
  {
    name: "snapA",
    kind: "Snapshot",
    deps: ["proj"],
    inputs: (o) => ({ projectId: o("proj").projectId, branchId: o("proj").defaultBranchId, name: "fz-a" }),
  },
  {
    name: "snapB",
    kind: "Snapshot",
    deps: ["proj"],
    inputs: (o) => ({ projectId: o("proj").projectId, branchId: o("proj").defaultBranchId, name: "fz-b" }),
  },
  {
    name: "app",
    kind: "Branch",
    deps: ["proj", "snapA", "snapB"],
    inputs: (o, k) => ({
      projectId: o("proj").projectId,
      parentId: o("proj").defaultBranchId,
      name: appName(k),
      endpoints: [{ type: "read_write" }],
      ...(k.restore === "none" ? {} : { restore: { snapshotId: o(k.restore).snapshotId } }),
    }),
  },
  {
    name: "anon",
    kind: "Branch",
    deps: ["proj"],
    inputs: (o, k) => ({
      projectId: o("proj").projectId,
      parentId: o("proj").defaultBranchId,
      name: ANON_NAME,
      initSource: "anonymized",
      endpoints: [{ type: "read_write" }],
      maskingRules: [
        {
          databaseName: "neondb",
          tableName: "users",
          columnName: "email",
          maskingFunction: "anon.fake_email()",
        },
      ],
      ...(k.anonReset === 0 ? {} : { resetTrigger: `r${k.anonReset}` }),
    }),
  },
  {
    name: "ro",
    kind: "Endpoint",
    deps: ["proj"],
    inputs: (o) => ({
      projectId: o("proj").projectId,
      branchId: o("proj").defaultBranchId,
      type: "read_only",
    }),
  },
  {
    name: "owner",
    kind: "Role",
    deps: ["proj", "app"],
    inputs: (o, k) => ({
      projectId: o("proj").projectId,
      branchId: o("app").branchId,
      ...(k.rotate === 0 ? {} : { passwordResetTrigger: `r${k.rotate}` }),
    }),
  },
  {
    name: "db",
    kind: "Database",
    deps: ["proj", "app", "owner"],
    inputs: (o) => ({
      projectId: o("proj").projectId,
      branchId: o("app").branchId,
      ownerName: o("owner").name,
    }),
  },
  {
    name: "backups",
    kind: "BackupSchedule",
    deps: ["proj", "app"],
    inputs: (o) => ({
      projectId: o("proj").projectId,
      branchId: o("app").branchId,
      schedule: [{ frequency: "daily", hour: 3, retentionSeconds: 604800 }],
    }),
  },
  { name: "key", kind: "ApiKey", deps: [], inputs: () => ({ name: "fz-key" }) },
  {
    name: "share",
    kind: "ProjectPermission",
    deps: ["proj"],
    inputs: (o) => ({ projectId: o("proj").projectId, email: "reviewer@example.com" }),
  },
  {
    name: "vpce",
    kind: "VpcEndpoint",
    deps: [],
    inputs: (_o, k) => ({
      orgId: FUZZ_ORG,
      regionId: FUZZ_REGION,
      vpcEndpointId: vpcEndpointOf(k),
      label: "fuzz",
    }),
  },
  {
    name: "restrict",
    kind: "ProjectVpcEndpoint",
    deps: ["proj", "vpce"],
    inputs: (o) => ({
      projectId: o("proj").projectId,
      vpcEndpointId: o("vpce").vpcEndpointId,
      label: "fuzz",
    }),
  },
  {
    name: "limit",
    kind: "OrganizationSpendingLimit",
    deps: [],
    inputs: () => ({ orgId: FUZZ_ORG, spendingLimitCents: 50_000 }),
  },
  {
    name: "member",
    kind: "OrganizationMember",
    deps: [],
    inputs: () => ({ orgId: FUZZ_ORG, email: FUZZ_MEMBER, role: "member" }),
  },
  {
    name: "invite",
    kind: "OrganizationInvitation",
    deps: [],
    inputs: () => ({ orgId: FUZZ_ORG, email: FUZZ_INVITEE, role: "member" }),
  },
  {
    name: "memberRole",
    kind: "ProjectMember",
    deps: ["proj", "member"],
    inputs: (o) => ({ projectId: o("proj").projectId, email: FUZZ_MEMBER, role: "viewer" }),
  },
  {
    name: "files",
    kind: "Bucket",
    deps: ["proj"],
    inputs: (o) => ({ projectId: o("proj").projectId, branchId: o("proj").defaultBranchId }),
  },
  {
    name: "readme",
    kind: "BucketObject",
    deps: ["proj", "files"],
    inputs: (o, k) => ({
      projectId: o("proj").projectId,
      branchId: o("proj").defaultBranchId,
      bucketName: o("files").name,
      key: "docs/readme.txt",
      // New text with each rename: an upload again in place.
      content: `readme ${k.rename}`,
    }),
  },
  {
    name: "cred",
    kind: "Credential",
    deps: ["proj", "app"],
    inputs: (o, k) => ({
      projectId: o("proj").projectId,
      branchId: o("app").branchId,
      name: "fz-cred",
      scopes: ["storage:read"],
      ...(k.rotate === 0 ? {} : { rotationTrigger: `r${k.rotate}` }),
    }),
  },
  {
    name: "rest",
    kind: "DataApi",
    deps: ["proj"],
    inputs: (o) => ({
      projectId: o("proj").projectId,
      branchId: o("proj").defaultBranchId,
      databaseName: o("proj").defaultDatabaseName,
      settings: { dbMaxRows: 100 },
    }),
  },
  {
    name: "keys",
    kind: "Jwks",
    deps: ["proj"],
    inputs: (o) => ({
      projectId: o("proj").projectId,
      jwksUrl: "https://auth.example.com/.well-known/jwks.json",
      providerName: "Clerk",
    }),
  },
  {
    name: "auth",
    kind: "BranchAuth",
    deps: ["proj", "app"],
    inputs: (o, k) => ({
      projectId: o("proj").projectId,
      branchId: o("app").branchId,
      trustedDomains: [k.rename === 0 ? "https://app.example.com" : `https://app-${k.rename}.example.com`],
    }),
  },
  {
    name: "fn",
    kind: "Function",
    deps: ["proj"],
    inputs: (o) => ({
      projectId: o("proj").projectId,
      branchId: o("proj").defaultBranchId,
      // No slug: a generated one, so a create cut off after its deployment is taken back.
      source: join(__dirname, "function"),
    }),
  },
  {
    name: "nightly",
    kind: "Trigger",
    deps: ["proj", "fn"],
    inputs: (o) => ({
      projectId: o("proj").projectId,
      branchId: o("proj").defaultBranchId,
      type: "schedule",
      functionSlug: o("fn").slug,
      cron: "0 3 * * *",
    }),
  },
  {
    name: "domain",
    kind: "CustomDomain",
    // Routed to a function the branch has (a slug it lacks is refused at preview): `fn`, on the default branch.
    deps: ["proj", "fn"],
    inputs: (o) => ({
      projectId: o("proj").projectId,
      branchId: o("proj").defaultBranchId,
      domain: "fz.example.com",
      entityType: "function",
      entityId: o("fn").slug,
    }),
  },
];

/** The URN the engine gives a resource of the program. */
export const urnOf = (spec: Pick<Spec, "name" | "kind">) =>
  `urn:pulumi:fuzz::fuzz::clouddb:index:${spec.kind}::${spec.name}`;

/** A resource as the engine records it: its checked inputs and its outputs. */
export interface Entry {
  name: string;
  kind: Kind;
  id: string;
  inputs: Props;
  outs: Props;
  /** Set when a create failed part-way: the next up updates it. */
  initErrors?: string[];
  /** A replaced object whose delete is still due. */
  doomed?: boolean;
}

/** The run was killed: what was in flight is lost. */
export class Killed extends Error {
  override name = "Killed";
}

/** What one step did. */
export interface StepResult {
  killed: boolean;
  errors: string[];
  /** Resources a create took as its own: the id returned and whether it existed before the step. */
  creates: Array<{ name: string; kind: Kind; id: string }>;
}

/** The engine's hooks the checks use. */
export interface StepOptions {
  /** Kill the run after its k-th API write. */
  killAfterWrite?: number;
}

const NO_CONFIG: pulumi.dynamic.Config = {
  get: () => undefined,
  require: (key: string) => {
    throw new Error(`missing ${key}`);
  },
};

/** What runs a stack's steps: the lifecycle functions in this process (`Stack`), or the Pulumi engine. */
export interface Driver {
  /** The state, by resource name (a replaced object awaiting delete under `name~id`). */
  readonly state: ReadonlyMap<string, Entry>;
  up(knobs: Knobs, options?: StepOptions & { refresh?: boolean }): Promise<StepResult>;
  refresh(options?: StepOptions): Promise<StepResult>;
  destroy(options?: StepOptions): Promise<StepResult>;
  /** `pulumi cancel`, for an engine that holds a lock. */
  cancel?(): Promise<void>;
  /** A preview of `knobs`: what it would change, and which resources made API calls (and how many). */
  preview(knobs: Knobs, requests: () => number): Promise<{ changes: string[]; calls: string[] }>;
}

/** One stack run in this process: its state, and the engine's steps against the API at `apiUrl`. */
export class Stack implements Driver {
  /** The state, by resource name (a replaced object awaiting delete under `name~id`). */
  readonly state = new Map<string, Entry>();

  constructor(readonly apiUrl: string) {}

  private async run(
    options: StepOptions,
    body: (call: <T>(promise: Promise<T>) => Promise<T>, result: StepResult) => Promise<void>,
  ): Promise<StepResult> {
    // A new engine run is a new provider process: nothing of the last one is remembered.
    forgetRun();
    resetRegistry();
    await Promise.all([...PROVIDERS.values()].map((p) => p.configure?.({ config: NO_CONFIG })));
    const proxy: KillSwitch = await startKillSwitch(this.apiUrl, options.killAfterWrite);
    process.env.CLOUDDB_API_URL = proxy.url;
    const result: StepResult = { killed: false, errors: [], creates: [] };
    const call = <T>(promise: Promise<T>): Promise<T> => {
      promise.catch(() => undefined);
      return Promise.race([promise, proxy.killed.then(() => Promise.reject(new Killed("killed")))]);
    };
    try {
      await body(call, result);
    } catch (err) {
      if (err instanceof Killed || proxy.dead) result.killed = true;
      else result.errors.push(messageOf(err));
    } finally {
      if (proxy.dead) result.killed = true;
      await proxy.close();
    }
    return result;
  }

  /** `pulumi up` (with `refresh`, `pulumi up --refresh`). Stops at the first failure, like the engine. */
  up(knobs: Knobs, options: StepOptions & { refresh?: boolean } = {}): Promise<StepResult> {
    return this.run(options, async (call, result) => {
      if (options.refresh === true) await this.refreshWith(call);
      const failed: string[] = [];
      for (const spec of PROGRAM) {
        if (spec.deps.some((d) => !this.state.has(d) || failed.includes(d))) {
          failed.push(spec.name);
          continue;
        }
        try {
          await this.step(spec, knobs, call, result);
        } catch (err) {
          if (err instanceof Killed) throw err;
          failed.push(spec.name);
          result.errors.push(`${spec.name}: ${messageOf(err)}`);
          return;
        }
      }
      // Replaced objects go last, in reverse order.
      for (const entry of [...this.state.values()].reverse()) {
        if (entry.doomed !== true) continue;
        await call(providerOf(entry.kind).delete!(entry.id, entry.outs));
        this.state.delete(`${entry.name}~${entry.id}`);
      }
    });
  }

  private async step(
    spec: Spec,
    knobs: Knobs,
    call: <T>(promise: Promise<T>) => Promise<T>,
    result: StepResult,
  ): Promise<void> {
    const provider = providerOf(spec.kind);
    const news = this.newsOf(spec, knobs);
    const entry = this.state.get(spec.name);
    const checked = await call(provider.check!(entry?.inputs ?? {}, news));
    if ((checked.failures ?? []).length > 0) {
      throw new Error(`check: ${(checked.failures ?? []).map((f) => f.reason).join("; ")}`);
    }
    const inputs = checked.inputs ?? news;
    if (entry === undefined) {
      await this.create(spec, inputs, call, result);
      return;
    }
    const diff = await call(provider.diff!(entry.id, entry.outs, inputs));
    if ((diff.replaces ?? []).length > 0) {
      // The replacement is checked again without the stored inputs, as the engine does.
      const again = await call(provider.check!({}, news));
      const replacement = again.inputs ?? news;
      if (diff.deleteBeforeReplace === true) {
        await call(provider.delete!(entry.id, entry.outs));
        this.state.delete(spec.name);
        await this.create(spec, replacement, call, result);
        return;
      }
      await this.create(spec, replacement, call, result);
      this.state.set(`${spec.name}~${entry.id}`, { ...entry, doomed: true });
      return;
    }
    if (diff.changes === true || entry.initErrors !== undefined) {
      const updated = await call(provider.update!(entry.id, entry.outs, inputs));
      this.record(spec, entry.id, inputs, updated.outs ?? {});
    } else {
      this.state.set(spec.name, { ...entry, inputs });
    }
  }

  private record(spec: Spec, id: string, inputs: Props, outs: Props): void {
    this.state.set(spec.name, { name: spec.name, kind: spec.kind, id, inputs, outs });
  }

  private async create(
    spec: Spec,
    inputs: Props,
    call: <T>(promise: Promise<T>) => Promise<T>,
    result: StepResult,
  ): Promise<void> {
    try {
      const made = await call(providerOf(spec.kind).create(inputs));
      this.record(spec, made.id, inputs, made.outs ?? {});
      result.creates.push({ name: spec.name, kind: spec.kind, id: made.id });
    } catch (err) {
      const partial = err as { id?: unknown; properties?: unknown; reasons?: unknown };
      if (
        !(err instanceof Killed) &&
        typeof partial.id === "string" &&
        partial.id !== "" &&
        partial.properties
      ) {
        this.state.set(spec.name, {
          name: spec.name,
          kind: spec.kind,
          id: partial.id,
          inputs,
          outs: partial.properties as Props,
          initErrors: (partial.reasons as string[] | undefined) ?? [],
        });
        result.creates.push({ name: spec.name, kind: spec.kind, id: partial.id });
      }
      throw err;
    }
  }

  /** The inputs the program sends for `spec` now: its declared inputs, URN and provider. */
  newsOf(spec: Spec, knobs: Knobs): Props {
    const outs = (name: string) => this.state.get(name)?.outs ?? {};
    return { ...spec.inputs(outs, knobs), __owner: urnOf(spec), __provider: "fuzz" };
  }

  /** `pulumi refresh`. */
  refresh(options: StepOptions = {}): Promise<StepResult> {
    return this.run(options, (call) => this.refreshWith(call));
  }

  private async refreshWith(call: <T>(promise: Promise<T>) => Promise<T>): Promise<void> {
    const errors: string[] = [];
    for (const [key, entry] of [...this.state]) {
      try {
        const read = await call(providerOf(entry.kind).read!(entry.id, entry.outs));
        if (!read.id) this.state.delete(key);
        else {
          const inputs = (read.inputs as Props | undefined) ?? entry.inputs;
          this.state.set(key, { ...entry, id: read.id, outs: read.props ?? entry.outs, inputs });
        }
      } catch (err) {
        if (err instanceof Killed) throw err;
        errors.push(`${entry.name}: ${messageOf(err)}`);
      }
    }
    if (errors.length > 0) throw new Error(`refresh: ${errors.join(" | ")}`);
  }

  /** `pulumi destroy`: deletes in reverse dependency order, stops at the first failure. */
  destroy(options: StepOptions = {}): Promise<StepResult> {
    return this.run(options, async (call) => {
      for (const [key, entry] of [...this.state].reverse()) {
        await call(providerOf(entry.kind).delete!(entry.id, entry.outs));
        this.state.delete(key);
      }
    });
  }

  /**
   * A no-change preview: check and diff of every resource of the program, with the kill switch
   * counting what reaches the API. Returns what would change, and how many requests it made.
   */
  async preview(knobs: Knobs, requests: () => number): Promise<{ changes: string[]; calls: string[] }> {
    const changes: string[] = [];
    const calls: string[] = [];
    const result = await this.run({}, async (call) => {
      for (const spec of PROGRAM) {
        const before = requests();
        await this.previewOne(spec, knobs, call, changes);
        const made = requests() - before;
        if (made > 0) calls.push(`${spec.name} (${spec.kind}): ${made}`);
      }
      for (const entry of this.state.values())
        if (entry.doomed === true) changes.push(`${entry.name}: delete old`);
    });
    changes.push(...result.errors.map((e) => `error: ${e}`));
    return { changes, calls };
  }

  private async previewOne(
    spec: Spec,
    knobs: Knobs,
    call: <T>(promise: Promise<T>) => Promise<T>,
    changes: string[],
  ): Promise<void> {
    const entry = this.state.get(spec.name);
    if (entry === undefined) {
      changes.push(`${spec.name}: create`);
      return;
    }
    const provider = providerOf(spec.kind);
    const checked = await call(provider.check!(entry.inputs, this.newsOf(spec, knobs)));
    if ((checked.failures ?? []).length > 0) {
      changes.push(`${spec.name}: check fails (${(checked.failures ?? []).map((f) => f.reason).join("; ")})`);
      return;
    }
    const diff = await call(provider.diff!(entry.id, entry.outs, checked.inputs ?? {}));
    if (diff.changes === true) {
      const replaces = diff.replaces ?? [];
      changes.push(`${spec.name}: ${replaces.length > 0 ? `replace (${replaces.join(", ")})` : "update"}`);
    }
  }
}

/** An error's message, with a partial failure's reasons. */
export function messageOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const reasons = (err as { reasons?: unknown }).reasons;
  return Array.isArray(reasons) && reasons.length > 0
    ? `${err.message} (${reasons.join("; ")})`
    : err.message;
}
