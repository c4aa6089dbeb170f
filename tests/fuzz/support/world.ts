// The lifecycle fuzzer's world: one emulator for a batch of sequences (re-seeded before each), the
// generator of seeded sequences of a stack's steps, kills and outside actions, and the invariants
// of docs/invariants.md, checked after every step. A failing sequence is reported with its seed,
// its steps and the command that replays it.
// Longer than 400 lines: a sequence's invariants read every kind's records at once (one `Sequence`),
// and the generator and the checks must agree on each outside action, so they are kept together.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, type EmulatorStateView, type RunningEmulator, startEmulator } from "../../../emulator";
import { setHostLineWriter } from "../../../provider/resources/host/progress";
import { runNeonctl } from "../../emulator/neonctl-harness";
import {
  ANON_NAME,
  appName,
  type Driver,
  type Entry,
  FIRST_KNOBS,
  FUZZ_INVITEE,
  FUZZ_MEMBER,
  FUZZ_ORG,
  type Knobs,
  Stack,
  type StepResult,
  vpcEndpointOf,
} from "./stack";

/** A small seeded generator (mulberry32): the same seed gives the same sequence. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)] as T;
  }
  /** One of `choices` by weight. */
  weighted<T>(choices: ReadonlyArray<readonly [T, number]>): T {
    const total = choices.reduce((sum, [, w]) => sum + w, 0);
    let at = this.next() * total;
    for (const [value, weight] of choices) {
      at -= weight;
      if (at < 0) return value;
    }
    return choices[choices.length - 1]![0];
  }
}

/** The outside actions: what someone does with the console, the CLI or the API between steps. */
export const OUTSIDE = [
  "restore-finalize",
  "restore-finalize-cli",
  "snapshot",
  "delete-branch",
  "rename-branch",
  "protect-branch",
  "expire-branch",
  "reset-password",
  "make-role",
  "drop-role",
  "make-database",
  "drop-database",
  "revoke-key",
  "delete-snapshot",
  "revoke-permission",
  "clear-spending-limit",
  "change-member-role",
  "reinvite",
  "remove-project-role",
  "trust-auth-domain",
  "reset-anon",
] as const;
type Outside = (typeof OUTSIDE)[number];

/** Steps of a sequence, as printed and replayed. `kill@k` kills the run after its k-th API write. */
export type StepText = string;

/** Generates the steps of sequence `seed`. */
export function generate(seed: number): StepText[] {
  const random = new Random(seed);
  const length = 4 + random.below(9);
  const steps: StepText[] = ["up"];
  for (let i = 0; i < length; i++) {
    const kind = random.weighted([
      ["run", 50],
      ["outside", 32],
      ["set", 18],
    ] as const);
    if (kind === "outside") {
      // The official CLI costs a process per run: it stands in for a quarter of the API's restores.
      const action = random.pick(OUTSIDE.filter((a) => a !== "restore-finalize-cli"));
      const cli = action === "restore-finalize" && random.next() < 0.25;
      steps.push(`outside ${cli ? "restore-finalize-cli" : action}`);
    } else if (kind === "set") {
      steps.push(
        random.weighted([
          ["set rename", 1],
          ["set rotate", 1],
          ["set reset-anon", 1],
          [`set restore=${random.pick(["none", "snapA", "snapB"])}`, 2],
        ] as const),
      );
    } else {
      const command = random.weighted([
        ["up", 8],
        ["up --refresh", 6],
        ["refresh", 3],
        ["destroy", 2],
        ["cancel", 1],
      ] as const);
      const kill = command !== "cancel" && random.next() < 0.3 ? `kill@${1 + random.below(6)} ` : "";
      steps.push(`${kill}${command}`);
    }
  }
  return steps;
}

/** The steps every sequence ends with: converge, check, destroy, check nothing is left. */
export const FINALE: readonly StepText[] = ["cancel", "up --refresh", "destroy"];

/** Whether `steps` end with the finale (generated ones always do; given ones may). */
function endsWithFinale(steps: readonly StepText[]): boolean {
  return FINALE.every((step, i) => steps[steps.length - FINALE.length + i] === step);
}

/** An invariant that did not hold. */
export interface Violation {
  invariant: string;
  step: number;
  detail: string;
}

/** The outcome of one sequence. */
export interface Outcome {
  seed: number;
  steps: StepText[];
  /** Whether the steps were given (a replay or a shrink), not generated from the seed. */
  given: boolean;
  /** What each step did, one line each. */
  trace: string[];
  violations: Violation[];
}

type State = EmulatorStateView;
type Branch = State["branches"][number];

/** Identifiers of live objects in the emulator. */
interface Ids {
  branches: Set<string>;
  endpoints: Set<string>;
  snapshots: Set<string>;
  keys: Set<string>;
  projects: Set<string>;
  /** Project permissions (grants) not revoked, by id. */
  grants: Set<string>;
  /** VPC endpoints assigned to the organization, as `<org>/<region>/<id>` (the resource's id). */
  vpcEndpoints: Set<string>;
  /** Projects' VPC restrictions, as `<project>/<endpoint>` (the resource's id). */
  restrictions: Set<string>;
  /** Organizations with a spending limit set, by id (the resource's id). */
  spendingLimits: Set<string>;
}

/** One emulator for a batch of sequences. */
export class Fuzzer {
  /** The official CLI's config folder. */
  private readonly configDir = mkdtempSync(join(tmpdir(), "clouddb-fuzz-neonctl-"));

  private constructor(readonly emulator: RunningEmulator) {}

  static async start(): Promise<Fuzzer> {
    const emulator = await startEmulator({ seed: "demo", opDurationMs: 1, limits: false });
    process.env.CLOUDDB_API_KEY = DEMO.personalKey;
    process.env.CLOUDDB_POLL_INTERVAL_MS = "1,5";
    // The lines a preview or an update writes for the user are not checked here.
    setHostLineWriter(() => undefined);
    return new Fuzzer(emulator);
  }

  async stop(): Promise<void> {
    rmSync(this.configDir, { recursive: true, force: true });
    await this.emulator.stop();
  }

  /**
   * Runs sequence `seed` (or the `steps` given, without the finale) from a fresh emulator state,
   * through `driver` (by default the lifecycle functions in this process); `ignored` invariants are
   * not checked.
   */
  async run(
    seed: number,
    options: { steps?: StepText[]; ignored?: ReadonlySet<string>; driver?: Driver } = {},
  ): Promise<Outcome> {
    this.emulator.control.seed("demo");
    // The request log is read (and copied) at each preview: one sequence's requests, not all of them.
    this.emulator.control.clearRequests();
    const given = options.steps;
    const steps = [...(given ?? generate(seed)), ...(given === undefined ? FINALE : [])];
    const driver = options.driver ?? new Stack(this.emulator.url);
    const sequence = new Sequence(
      this.emulator,
      this.configDir,
      driver,
      new Random(seed ^ 0x5bd1e995),
      options.ignored ?? new Set(),
    );
    const outcome: Outcome = { seed, steps, given: given !== undefined, trace: [], violations: [] };
    for (let i = 0; i < steps.length; i++) {
      const line = await sequence.step(
        steps[i] as StepText,
        i,
        endsWithFinale(steps) && i >= steps.length - FINALE.length,
      );
      outcome.trace.push(`${i}: ${steps[i]} -> ${line}`);
    }
    outcome.violations = sequence.violations;
    return outcome;
  }
}

/**
 * The shortest sequence found that still breaks `outcome`'s first invariant: drops one step at a
 * time (or only its kill) while the invariant still breaks, until no drop keeps it broken.
 */
export async function shrink(
  fuzzer: Fuzzer,
  outcome: Outcome,
  ignored: ReadonlySet<string> = new Set(),
): Promise<Outcome> {
  const invariant = outcome.violations[0]?.invariant;
  if (invariant === undefined) return outcome;
  let best = outcome;
  for (let progress = true; progress; ) {
    progress = false;
    const candidates: StepText[][] = [];
    // The finale stays: it is what checks that the sequence converges.
    const last = endsWithFinale(best.steps) ? best.steps.length - FINALE.length : best.steps.length;
    for (let i = 1; i < last; i++) {
      candidates.push([...best.steps.slice(0, i), ...best.steps.slice(i + 1)]);
      const step = best.steps[i] as StepText;
      if (step.startsWith("kill@")) {
        candidates.push([
          ...best.steps.slice(0, i),
          step.replace(/^kill@\d+ /, ""),
          ...best.steps.slice(i + 1),
        ]);
      }
    }
    for (const steps of candidates) {
      const tried = await fuzzer.run(outcome.seed, { steps, ignored });
      if (tried.violations.some((v) => v.invariant === invariant)) {
        best = tried;
        progress = true;
        break;
      }
    }
  }
  return best;
}

/** The text that shows a failing sequence and how to replay it. */
export function report(
  outcome: Outcome,
  replay = outcome.given
    ? `npm run fuzz -- --seed ${outcome.seed} --verbose --steps "${outcome.steps.join("; ")}"`
    : `npm run fuzz -- --seed ${outcome.seed} --runs 1 --verbose`,
): string {
  // The first violation of each invariant, and how many more steps broke it.
  const lines: string[] = [];
  for (const name of new Set(outcome.violations.map((v) => v.invariant))) {
    const all = outcome.violations.filter((v) => v.invariant === name);
    const v = all[0] as Violation;
    lines.push(
      `[${name}] at step ${v.step}: ${v.detail}${all.length > 1 ? ` (and ${all.length - 1} more)` : ""}`,
    );
  }
  return [
    `seed ${outcome.seed}: ${lines.join("\n  ")}`,
    `  steps: ${outcome.steps.join(" ; ")}`,
    ...outcome.trace.map((t) => `    ${t}`),
    `  replay: ${replay}`,
  ].join("\n");
}

const GENERATED = { Role: /^owner_[0-9a-f]{10}$/, Database: /^db_[0-9a-f]{10}$/ };

/** One sequence's run: the stack, the knobs, and what the checks remember between steps. */
class Sequence {
  readonly violations: Violation[] = [];
  private knobs: Knobs = { ...FIRST_KNOBS };
  /** Objects that appeared during a run of the stack (ids). */
  private readonly madeByStack = new Set<string>();
  /** Branches whose data a restore replaced (sticky: once replaced, always). */
  private readonly replaced = new Set<string>();
  private outsideCount = 0;
  /** Anonymized branches reset from their parent outside the stack that no refresh has seen since. */
  private readonly unseenResets = new Set<string>();
  /**
   * Whether something changed outside the stack, or a run was killed, since its last refresh: a
   * plain `up` does not read what changed outside or what the killed run did without recording it,
   * so until a refresh the state may be stale without anything being wrong.
   */
  private stale = false;
  /**
   * Whether a killed run may have made objects no state records since the last converging `up`
   * (which takes them): a `destroy` until then cannot know them.
   */
  private lostByKill = false;

  constructor(
    private readonly emulator: RunningEmulator,
    private readonly configDir: string,
    private readonly stack: Driver,
    private readonly random: Random,
    private readonly ignored: ReadonlySet<string>,
  ) {}

  private get control() {
    return this.emulator.control;
  }

  private fail(invariant: string, step: number, detail: string): void {
    if (this.ignored.has(invariant)) return;
    this.violations.push({ invariant, step, detail });
  }

  async step(text: StepText, index: number, finale: boolean): Promise<string> {
    if (text.startsWith("outside ")) return this.outside(text.slice(8) as Outside, index);
    if (text.startsWith("set ")) return this.set(text.slice(4));
    if (text.startsWith("tamper ")) return this.tamper(text.slice(7));
    if (text === "cancel") {
      await this.stack.cancel?.();
      return "ok";
    }
    const match = /^(?:kill@(\d+) )?(up --refresh|up|refresh|destroy)$/.exec(text);
    if (match === null) throw new Error(`unknown step ${JSON.stringify(text)}`);
    const kill = match[1] === undefined ? {} : { killAfterWrite: Number(match[1]) };
    const command = match[2];
    if (command?.startsWith("up") === true) {
      this.nextVpcEndpointIfRemoved();
      await this.reinviteMemberIfRemoved();
    }
    const before = this.ids();
    let result: StepResult;
    if (command === "destroy") {
      const appId = this.stack.state.get("app")?.id;
      const onApp = [...this.stack.state.values()].filter(
        (e) => appId !== undefined && e.outs.branchId === appId,
      );
      result = await this.stack.destroy(kill);
      this.checkRefusedDestroy(index, result, onApp);
      // The finale's destroy, refused by a protection set outside: the user does what it says.
      if (finale && result.errors.some((e) => /protected: false/.test(e))) {
        await this.api("PATCH", this.branchPath(), { branch: { protected: false } }).catch(() => undefined);
        result = await this.stack.destroy();
      }
    } else if (command === "refresh") result = await this.stack.refresh(kill);
    else {
      result = await this.stack.up(this.knobs, { ...kill, refresh: command === "up --refresh" });
      if (finale && !result.killed && result.errors.length > 0) {
        // A second `up --refresh` may be what converges (e.g. after a refused step): never a third.
        result = await this.stack.up(this.knobs, { refresh: true });
        if (result.errors.length > 0)
          this.fail("converges", index, `up --refresh twice: ${result.errors.join(" | ")}`);
      }
    }
    await this.settle();
    const after = this.ids();
    for (const kind of Object.keys(after) as Array<keyof Ids>) {
      for (const id of after[kind]) if (!before[kind].has(id)) this.madeByStack.add(id);
    }
    const converged = !result.killed && result.errors.length === 0;
    if (converged && (command === "refresh" || command === "up --refresh")) {
      this.stale = false;
      this.unseenResets.clear();
    }
    this.checkUnmaskedReads(index);
    // A killed run's last change may be missing from the state (a delete in flight keeps the object).
    if (result.killed) {
      this.lostByKill = true;
      this.stale = true;
    }
    if (converged && command?.startsWith("up") === true) this.lostByKill = false;
    this.checkTakes(result, before, index);
    this.checkReplaced(index);
    if (converged && command !== "refresh" && command !== "destroy") await this.checkConverged(index);
    if (converged && command === "destroy") this.checkDestroyed(index);
    const what = result.killed
      ? "killed"
      : result.errors.length > 0
        ? `failed: ${result.errors.join(" | ")}`
        : "ok";
    return what;
  }

  /**
   * What only the suite's own tests do, to show the checks fail: a change the checks do not see as
   * made outside (`reset-password`: the role's password changes as if the provider had lost it;
   * `orphan`: a branch appears as if a create of the stack had not been recorded; `reset-anon`: the
   * anonymized branch's data is its parent's again, as if the provider had reset it unmasked).
   */
  private async tamper(what: string): Promise<string> {
    const role = this.stack.state.get("owner");
    const projectId = this.projectId();
    if (what === "reset-password" && role !== undefined) {
      await this.api(
        "POST",
        `/projects/${projectId}/branches/${String(role.outs.branchId)}/roles/${String(role.outs.name)}/reset_password`,
      );
      return `reset the password of ${String(role.outs.name)}`;
    }
    if (what === "orphan" && projectId !== undefined) {
      const made = (await this.api("POST", `/projects/${projectId}/branches`, {
        branch: { name: "lost" },
      })) as {
        branch: { id: string };
      };
      this.madeByStack.add(made.branch.id);
      return `made branch ${made.branch.id}`;
    }
    const anon = this.anonBranch();
    if (what === "reset-anon" && anon !== undefined) {
      await this.api("POST", `/projects/${anon.project_id}/branches/${anon.id}/restore`, {
        source_branch_id: anon.parent_id,
      });
      return `reset ${anon.id} from its parent`;
    }
    throw new Error(`cannot tamper with ${what}`);
  }

  /**
   * The organization never takes back a VPC endpoint it removed (a destroy removes the program's):
   * the user then declares the next one, as they would after reading the preview's warning.
   */
  private nextVpcEndpointIfRemoved(): void {
    const org = this.dump().organizations.find((o) => o.id === FUZZ_ORG);
    while ((org?.removed_vpc_endpoints ?? []).includes(vpcEndpointOf(this.knobs))) this.knobs.vpc += 1;
  }

  /**
   * A removed member comes back only through an invitation: the user invites them again. (A destroy
   * gives the program's member their role back and leaves them, so this only acts if that breaks.)
   */
  private async reinviteMemberIfRemoved(): Promise<void> {
    if (this.memberOf(this.dump()) !== undefined) return;
    await this.api("POST", `/organizations/${FUZZ_ORG}/invitations`, {
      invitations: [{ email: FUZZ_MEMBER, role: "member" }],
    });
  }

  /** The program's member's user id and role in the organization, if they are a member. */
  private memberOf(s: State): { userId: string; role: string } | undefined {
    const user = s.users.find((u) => u.email === FUZZ_MEMBER);
    const role =
      user === undefined ? undefined : s.organizations.find((o) => o.id === FUZZ_ORG)?.members[user.id];
    return user === undefined || role === undefined ? undefined : { userId: user.id, role };
  }

  private set(change: string): string {
    if (change === "rename") this.knobs.rename += 1;
    else if (change === "rotate") this.knobs.rotate += 1;
    else if (change === "reset-anon") this.knobs.anonReset += 1;
    else this.knobs.restore = change.slice("restore=".length) as Knobs["restore"];
    return `knobs ${JSON.stringify(this.knobs)}`;
  }

  // --- the emulator as the checks see it -------------------------------------------------------

  private dump(): State {
    return this.control.dumpState();
  }

  private ids(): Ids {
    const s = this.dump();
    return {
      branches: new Set(s.branches.filter((b) => b.deleted_at_ms === undefined).map((b) => b.id)),
      endpoints: new Set(s.endpoints.map((e) => e.id)),
      snapshots: new Set(s.snapshots.map((x) => x.id)),
      keys: new Set(s.apiKeys.filter((k) => !k.revoked).map((k) => String(k.id))),
      projects: new Set(s.projects.filter((p) => p.deleted_at_ms === undefined).map((p) => p.id)),
      grants: new Set(
        s.projects.flatMap((p) =>
          p.deleted_at_ms !== undefined
            ? []
            : (p.permissions ?? []).filter((g) => g.revoked_at_ms === undefined).map((g) => g.id),
        ),
      ),
      vpcEndpoints: new Set(
        s.organizations.flatMap((o) =>
          (o.vpc_endpoints ?? []).map((e) => `${o.id}/${e.region_id}/${e.vpc_endpoint_id}`),
        ),
      ),
      restrictions: new Set(
        s.projects.flatMap((p) =>
          p.deleted_at_ms !== undefined
            ? []
            : (p.vpc_restrictions ?? []).map((r) => `${p.id}/${r.vpc_endpoint_id}`),
        ),
      ),
      spendingLimits: new Set(
        s.organizations.filter((o) => o.spending_limit_cents !== undefined).map((o) => o.id),
      ),
    };
  }

  /** The stack's project: the state's, else the live one the program named. */
  private projectId(s: State = this.dump()): string | undefined {
    const recorded = this.stack.state.get("proj")?.id;
    const live = s.projects.filter((p) => p.deleted_at_ms === undefined);
    if (recorded !== undefined && live.some((p) => p.id === recorded)) return recorded;
    return live.find((p) => p.name === "fuzz")?.id;
  }

  /**
   * The branch the program's app stands for, as someone looking at the console finds it: the one
   * with the declared name, else the state's (renamed outside, say); never one a restore replaced.
   */
  private appBranch(s: State = this.dump()): Branch | undefined {
    const projectId = this.projectId(s);
    this.noteReplaced(s);
    const live = s.branches.filter(
      (b) => b.project_id === projectId && b.deleted_at_ms === undefined && !this.replaced.has(b.id),
    );
    const recorded = this.stack.state.get("app")?.id;
    return live.find((b) => b.name === appName(this.knobs)) ?? live.find((b) => b.id === recorded);
  }

  /** The program's anonymized branch as it is live: the state's, else the one with its name. */
  private anonBranch(s: State = this.dump()): Branch | undefined {
    const projectId = this.projectId(s);
    const live = s.branches.filter(
      (b) => b.project_id === projectId && b.deleted_at_ms === undefined && b.anonymization !== undefined,
    );
    const recorded = this.stack.state.get("anon")?.id;
    return live.find((b) => b.id === recorded) ?? live.find((b) => b.name === ANON_NAME);
  }

  private branchPath(): string {
    const branch = this.appBranch();
    return `/projects/${branch?.project_id}/branches/${branch?.id}`;
  }

  /** Waits until every operation has ended. */
  private async settle(): Promise<void> {
    for (let i = 0; i < 2000; i++) {
      const busy = this.dump().operations.some(
        (op) => !["finished", "cancelled", "skipped", "error"].includes(op.status),
      );
      if (!busy) return;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  /** A request of the console (the demo user's personal key), straight to the emulator. */
  private async api(
    method: string,
    path: string,
    body?: unknown,
    key: string = DEMO.personalKey,
  ): Promise<unknown> {
    const response = await fetch(`${this.emulator.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
    await this.settle();
    return text === "" ? {} : JSON.parse(text);
  }

  // --- outside actions ---------------------------------------------------------------------------

  private async outside(action: Outside, index: number): Promise<string> {
    const before = this.ids();
    const line = await this.act(action).then(
      (done) => {
        if (done.acted) this.stale = true;
        return done.line;
      },
      (err: Error) => `refused: ${err.message.slice(0, 160)}`,
    );
    await this.settle();
    // What an outside action made is not the stack's (a restore's branch, say).
    const after = this.ids();
    for (const kind of Object.keys(after) as Array<keyof Ids>) {
      for (const id of after[kind]) if (!before[kind].has(id)) this.madeByStack.delete(id);
    }
    this.checkReplaced(index);
    this.checkUnmaskedReads(index);
    return line;
  }

  private async act(action: Outside): Promise<{ acted: boolean; line: string }> {
    const line = await this.acting(action);
    return { acted: !/^no /.test(line), line };
  }

  private async acting(action: Outside): Promise<string> {
    const s = this.dump();
    const projectId = this.projectId(s);
    const app = this.appBranch(s);
    const n = ++this.outsideCount;
    if (action === "revoke-key") {
      const key = s.apiKeys.find((k) => !k.revoked && k.name.startsWith("fz-key"));
      if (key === undefined) return "no key";
      await this.api("DELETE", `/api_keys/${key.id}`);
      return `revoked key ${key.id}`;
    }
    if (action === "clear-spending-limit") {
      const org = s.organizations.find((o) => o.id === FUZZ_ORG);
      if (org?.spending_limit_cents === undefined) return "no spending limit";
      await this.api("DELETE", `/organizations/${FUZZ_ORG}/billing/spending_limit`);
      return `cleared the spending limit of ${FUZZ_ORG}`;
    }
    if (action === "reinvite") {
      await this.api("POST", `/organizations/${FUZZ_ORG}/invitations`, {
        invitations: [{ email: FUZZ_INVITEE, role: "admin" }],
      });
      return `invited ${FUZZ_INVITEE} again, as admin`;
    }
    if (action === "change-member-role") {
      const member = this.memberOf(s);
      if (member === undefined) return "no member";
      const role = member.role === "admin" ? "member" : "admin";
      const members = (await this.api("GET", `/organizations/${FUZZ_ORG}/members`)) as {
        members: Array<{ member: { id: string; user_id: string } }>;
      };
      const id = members.members.find((m) => m.member.user_id === member.userId)?.member.id;
      await this.api("PATCH", `/organizations/${FUZZ_ORG}/members/${id}`, { role });
      return `made ${FUZZ_MEMBER} ${role}`;
    }
    if (projectId === undefined) return "no project";
    if (action === "revoke-permission") {
      const grant = s.projects
        .find((p) => p.id === projectId)
        ?.permissions?.find((g) => g.revoked_at_ms === undefined);
      if (grant === undefined) return "no permission";
      await this.api("DELETE", `/projects/${projectId}/permissions/${grant.id}`);
      return `revoked permission ${grant.id} (${grant.email})`;
    }
    if (action === "remove-project-role") {
      const member = this.memberOf(s);
      const project = s.projects.find((p) => p.id === projectId);
      if (member === undefined || project?.member_roles?.[member.userId] === undefined)
        return "no project role";
      const members = (await this.api("GET", `/projects/${projectId}/members`)) as {
        project_members: Array<{ member_id: string; user_id: string }>;
      };
      const id = members.project_members.find((m) => m.user_id === member.userId)?.member_id;
      await this.api("DELETE", `/projects/${projectId}/members/${id}/role`);
      return `removed the project role of ${FUZZ_MEMBER}`;
    }
    if (action === "trust-auth-domain") {
      if (app?.auth === undefined) return "no Auth on the app branch";
      await this.api("POST", `/projects/${projectId}/branches/${app.id}/auth/domains`, {
        domain: `https://outside-${n}.example.com`,
        auth_provider: app.auth.auth_provider,
      });
      return `trusted https://outside-${n}.example.com on the app branch's Auth`;
    }
    if (action === "delete-snapshot") {
      const snaps = s.snapshots.filter((x) => x.project_id === projectId);
      if (snaps.length === 0) return "no snapshot";
      const snap = this.random.pick(snaps);
      await this.api("DELETE", `/projects/${projectId}/snapshots/${snap.id}`);
      return `deleted snapshot ${snap.id} (${snap.name})`;
    }
    if (action === "reset-anon") {
      const anon = this.anonBranch(s);
      if (anon?.parent_id === undefined) return "no anonymized branch";
      await this.api("POST", `/projects/${projectId}/branches/${anon.id}/restore`, {
        source_branch_id: anon.parent_id,
      });
      // Its computes serve the parent's data until a refresh sees the reset: no provider can help that.
      this.unseenResets.add(anon.id);
      return `reset ${anon.id} from its parent`;
    }
    if (app === undefined) return "no app branch";
    const branchPath = `/projects/${projectId}/branches/${app.id}`;
    switch (action) {
      case "snapshot": {
        await this.api("POST", `${branchPath}/snapshot`, { name: `outside-${n}` });
        return `snapshot of ${app.id}`;
      }
      case "restore-finalize-cli": {
        const snaps = s.snapshots.filter((x) => x.project_id === projectId);
        if (snaps.length === 0) return "no snapshot";
        const snap = this.random.pick(snaps);
        const target = { url: this.emulator.url, configDir: this.configDir };
        const args = ["snapshots", "restore", snap.id, "--target-branch", app.id, "--finalize"];
        const run = await runNeonctl(target, ...args, "--project-id", projectId);
        if (run.code !== 0) throw new Error(`neonctl ${args.join(" ")}: ${run.stderr.slice(0, 200)}`);
        await this.settle();
        return `neonctl restored ${snap.id} (${snap.name}) onto ${app.id}, finalized`;
      }
      case "restore-finalize": {
        const snaps = s.snapshots.filter((x) => x.project_id === projectId);
        if (snaps.length === 0) return "no snapshot";
        const snap = this.random.pick(snaps);
        await this.api("POST", `/projects/${projectId}/snapshots/${snap.id}/restore`, {
          target_branch_id: app.id,
          finalize_restore: true,
          name: `outside-restore-${n}`,
        });
        return `restored ${snap.id} (${snap.name}) onto ${app.id}, finalized`;
      }
      case "delete-branch":
        await this.api("DELETE", branchPath);
        return `deleted ${app.id}`;
      case "rename-branch":
        await this.api("PATCH", branchPath, { branch: { name: `renamed-${n}` } });
        // A branch no state records (a killed create made it) is taken by a later create only
        // under the name that create gave it: renamed outside, it is the user's, with its computes.
        if (this.stack.state.get("app")?.id !== app.id) this.disown(app.id);
        return `renamed ${app.id} to renamed-${n}`;
      case "protect-branch":
        await this.api("PATCH", branchPath, { branch: { protected: true } });
        return `protected ${app.id}`;
      case "expire-branch": {
        const at = new Date(this.control.now() + 60_000).toISOString();
        await this.api("PATCH", branchPath, { branch: { expires_at: at } });
        this.control.advance(120_000);
        await this.settle();
        return `expired ${app.id}`;
      }
      case "reset-password": {
        const role = app.roles.find((r) => GENERATED.Role.test(r.name));
        if (role === undefined) return "no role";
        await this.api("POST", `${branchPath}/roles/${role.name}/reset_password`);
        return `reset the password of ${role.name}`;
      }
      case "make-role":
        await this.api("POST", `${branchPath}/roles`, { role: { name: `outside_role_${n}` } });
        return `made role outside_role_${n}`;
      case "drop-role": {
        const role = app.roles.find((r) => GENERATED.Role.test(r.name));
        if (role === undefined) return "no role";
        await this.api("DELETE", `${branchPath}/roles/${role.name}`);
        return `dropped role ${role.name}`;
      }
      case "make-database": {
        const owner = app.roles.find((r) => !r.protected)?.name ?? app.roles[0]?.name;
        await this.api("POST", `${branchPath}/databases`, {
          database: { name: `outside_db_${n}`, owner_name: owner },
        });
        return `made database outside_db_${n}`;
      }
      case "drop-database": {
        const db = app.databases.find((d) => GENERATED.Database.test(d.name));
        if (db === undefined) return "no database";
        await this.api("DELETE", `${branchPath}/databases/${db.name}`);
        return `dropped database ${db.name}`;
      }
    }
  }

  /** Branch `id` and the computes on it are no longer the stack's (the user claimed them). */
  private disown(id: string): void {
    this.madeByStack.delete(id);
    for (const e of this.dump().endpoints) if (e.branch_id === id) this.madeByStack.delete(e.id);
  }

  // --- invariants --------------------------------------------------------------------------------

  /**
   * Branches whose data a restore replaced: the branch a finalized snapshot restore swapped out,
   * and the copy a branch restore keeps aside. Sticky, so a branch renamed back still counts.
   */
  private noteReplaced(s: State): void {
    for (const b of s.branches) {
      if (b.restore_status === "finalized" && b.restored_as !== undefined) this.replaced.add(b.restored_as);
      if (/_before_restore_|_old_/.test(b.name)) this.replaced.add(b.id);
    }
  }

  /**
   * No outside reader who asks the API for a compute of an anonymized branch reads unmasked data: no
   * enabled compute is on an anonymized branch whose data the emulator holds unmasked (no masking
   * run succeeded since its create or its last restore), but for a reset outside the stack that no
   * refresh has seen yet. A branch made from it would copy its data: the program makes none.
   */
  private checkUnmaskedReads(index: number): void {
    const s = this.dump();
    for (const b of s.branches) {
      if (b.anonymization === undefined || b.deleted_at_ms !== undefined || this.unseenResets.has(b.id))
        continue;
      const run = b.anonymization.last_run;
      if (run?.outcome !== undefined && run.outcome.error === undefined) continue;
      const open = s.endpoints.filter((e) => e.branch_id === b.id && e.disabled !== true).map((e) => e.id);
      if (open.length === 0) continue;
      const why =
        run === undefined
          ? "no masking run since its create or its last restore"
          : (run.outcome?.error ?? "its masking run has not ended");
      this.fail(
        "no-unmasked-reads",
        index,
        `anonymized branch ${b.id} (${b.name}) holds unmasked data (${why}) and its compute ${open.join(", ")} is enabled`,
      );
    }
  }

  /** The data a restore replaced never returns: no replaced branch is in the state, or carries a declared name. */
  private checkReplaced(index: number): void {
    const s = this.dump();
    this.noteReplaced(s);
    const app = this.stack.state.get("app");
    if (!this.stale && app !== undefined && this.replaced.has(app.id)) {
      this.fail(
        "replaced-data-never-returns",
        index,
        `the state's app branch ${app.id} is one a restore replaced`,
      );
    }
    const projectId = this.projectId(s);
    for (const b of s.branches) {
      if (b.project_id !== projectId || b.deleted_at_ms !== undefined || !this.replaced.has(b.id)) continue;
      if (b.name === appName(this.knobs) || /^app(-\d+)?$/.test(b.name)) {
        this.fail(
          "replaced-data-never-returns",
          index,
          `branch ${b.id}, which a restore replaced, is named ${b.name} again`,
        );
      }
    }
  }

  /**
   * A create took only an object the stack made, never one a restore replaced, and the object
   * carries the declared name once the step is over.
   */
  private checkTakes(result: StepResult, before: Ids, index: number): void {
    const s = this.dump();
    for (const made of result.creates) {
      // A backup schedule is a setting of its branch: its id is the branch's.
      if (made.kind === "BackupSchedule") continue;
      const existed =
        before.branches.has(made.id) ||
        before.endpoints.has(made.id) ||
        before.snapshots.has(made.id) ||
        before.keys.has(made.id) ||
        before.projects.has(made.id) ||
        before.grants.has(made.id) ||
        before.vpcEndpoints.has(made.id) ||
        before.restrictions.has(made.id) ||
        before.spendingLimits.has(made.id);
      if (!existed) continue;
      if (!this.madeByStack.has(made.id) && !this.carriesOwn(s, made.id)) {
        this.fail(
          "takes-only-its-own",
          index,
          `${made.name} took ${made.kind} ${made.id}, which the stack never made`,
        );
      }
      if (this.replaced.has(made.id)) {
        this.fail(
          "replaced-data-never-returns",
          index,
          `${made.name} took branch ${made.id}, which a restore replaced`,
        );
      }
      if (made.kind === "Branch") {
        const branch = s.branches.find((b) => b.id === made.id);
        const declared = made.name === "anon" ? ANON_NAME : appName(this.knobs);
        if (branch !== undefined && branch.name !== declared) {
          this.fail(
            "takes-only-its-own",
            index,
            `${made.name} took branch ${made.id} and left it named ${branch.name}, not the declared ${declared}`,
          );
        }
      }
    }
  }

  /**
   * Whether branch `id` is one a finalized restore swapped in for a branch the stack made, followed
   * through repeated restores: it carries that branch's name and computes.
   */
  private carriesOwn(s: State, id: string): boolean {
    const swapped = (b: Branch) => b.restore_status === "finalized" && b.restored_as !== undefined;
    let current = s.branches.find((b) => b.id === id);
    for (let hops = 0; current !== undefined && swapped(current) && hops <= s.branches.length; hops++) {
      const previous = current.restored_as;
      if (previous !== undefined && this.madeByStack.has(previous)) return true;
      current = s.branches.find((b) => b.id === previous);
    }
    return false;
  }

  /**
   * After a converging `up`: the preview is empty; and unless something changed outside since the
   * last refresh, the state is true, its secrets work and nothing the stack made is outside it.
   */
  private async checkConverged(index: number): Promise<void> {
    const s = this.dump();
    if (!this.stale) {
      for (const entry of this.stack.state.values()) {
        const wrong = this.untrue(entry, s);
        if (wrong !== undefined)
          this.fail("state-is-true", index, `${entry.name} (${entry.kind} ${entry.id}): ${wrong}`);
      }
      await this.checkSecrets(index, s);
      this.checkOrphans(index, s, true);
    }
    const preview = await this.stack.preview(this.knobs, () => this.control.requests().length);
    if (preview.changes.length > 0) {
      this.fail(
        "no-change-preview",
        index,
        `the preview after a converging up plans: ${preview.changes.join(", ")}`,
      );
    }
    if (preview.calls.length > 0) {
      this.fail("no-change-preview", index, `the preview made API calls, for ${preview.calls.join(", ")}`);
    }
  }

  /**
   * A destroy refused by a protection deleted nothing on the protected branch first: what blocks
   * the branch's delete is known before anything on it is deleted.
   */
  private checkRefusedDestroy(index: number, result: StepResult, onApp: Entry[]): void {
    const refusal = result.errors.find((e) => /protected/.test(e));
    if (result.killed || refusal === undefined) return;
    const deleted = onApp.filter((e) => !this.stack.state.has(e.name)).map((e) => `${e.name} (${e.kind})`);
    if (deleted.length > 0) {
      this.fail(
        "refused-destroy-deletes-nothing",
        index,
        `the destroy deleted ${deleted.join(", ")} on the branch, then was refused: ${refusal.slice(0, 200)}`,
      );
    }
  }

  /** After a converging destroy: the state is empty and nothing the stack made is left. */
  private checkDestroyed(index: number): void {
    if (this.stack.state.size > 0) {
      this.fail(
        "destroy-leaves-nothing",
        index,
        `the state still holds ${[...this.stack.state.keys()].join(", ")}`,
      );
    }
    if (!this.lostByKill) this.checkOrphans(index, this.dump(), false, "destroy-leaves-nothing");
  }

  /** Why the state's `entry` is false, or undefined. */
  private untrue(entry: Entry, s: State): string | undefined {
    const outs = entry.outs;
    const branch = (id: unknown) => s.branches.find((b) => b.id === id && b.deleted_at_ms === undefined);
    switch (entry.kind) {
      case "Project":
        return s.projects.some((p) => p.id === entry.id && p.deleted_at_ms === undefined)
          ? undefined
          : "the project is gone";
      case "Branch": {
        const b = branch(entry.id);
        if (b === undefined) return "the branch is gone";
        return b.name === outs.name
          ? undefined
          : `the branch is named ${b.name}, the state says ${String(outs.name)}`;
      }
      case "Endpoint": {
        const e = s.endpoints.find((x) => x.id === entry.id);
        if (e === undefined) return "the endpoint is gone";
        return e.branch_id === outs.branchId
          ? undefined
          : `the endpoint is on ${e.branch_id}, the state says ${String(outs.branchId)}`;
      }
      case "Role":
        if (branch(outs.branchId) === undefined) return `its branch ${String(outs.branchId)} is gone`;
        return branch(outs.branchId)?.roles.some((r) => r.name === outs.name)
          ? undefined
          : "the role is gone";
      case "Database":
        if (branch(outs.branchId) === undefined) return `its branch ${String(outs.branchId)} is gone`;
        return branch(outs.branchId)?.databases.some((d) => d.name === outs.name)
          ? undefined
          : "the database is gone";
      case "Bucket":
        if (branch(outs.branchId) === undefined) return `its branch ${String(outs.branchId)} is gone`;
        return branch(outs.branchId)?.buckets?.some((b) => b.name === outs.name)
          ? undefined
          : "the bucket is gone";
      case "BucketObject": {
        const bucket = branch(outs.branchId)?.buckets?.find((b) => b.name === outs.bucketName);
        if (bucket === undefined) return `its bucket ${String(outs.bucketName)} is gone`;
        return bucket.objects[String(outs.key)] === undefined ? "the object is gone" : undefined;
      }
      case "Snapshot":
        return s.snapshots.some((x) => x.id === entry.id) ? undefined : "the snapshot is gone";
      case "BackupSchedule":
        return branch(outs.branchId) === undefined
          ? `its branch ${String(outs.branchId)} is gone`
          : undefined;
      case "Credential": {
        const credential = branch(outs.branchId)?.credentials?.find((c) => c.token_id === entry.id);
        if (credential === undefined || credential.revoked_at_ms !== undefined)
          return "the credential is revoked";
        return credential.api_token === outs.apiToken ? undefined : "its token is not the state's";
      }
      case "Function":
        if (branch(outs.branchId) === undefined) return `its branch ${String(outs.branchId)} is gone`;
        return branch(outs.branchId)?.functions?.some((f) => f.slug === outs.slug)
          ? undefined
          : "the function is gone";
      case "Trigger":
        return branch(outs.branchId)?.triggers?.some((t) => t.trigger_id === outs.triggerId)
          ? undefined
          : "the trigger is gone";
      case "CustomDomain":
        return branch(outs.branchId)?.custom_domains?.some((d) => d.domain === outs.domain)
          ? undefined
          : "the domain is not registered";
      case "ApiKey":
        return s.apiKeys.some((k) => String(k.id) === entry.id && !k.revoked)
          ? undefined
          : "the key is revoked";
      case "ProjectPermission":
      case "VpcEndpoint":
      case "ProjectVpcEndpoint": {
        const ids = this.ids();
        const live = {
          ProjectPermission: ids.grants,
          VpcEndpoint: ids.vpcEndpoints,
          ProjectVpcEndpoint: ids.restrictions,
        };
        return live[entry.kind].has(entry.id) ? undefined : `no ${entry.kind} ${entry.id} is live`;
      }
      case "OrganizationInvitation": {
        const invitations = s.organizations.find((o) => o.id === FUZZ_ORG)?.invitations ?? [];
        return invitations.some((i) => i.id === entry.id) ? undefined : "no such invitation is listed";
      }
      case "OrganizationMember": {
        const member = this.memberOf(s);
        if (member === undefined || member.userId !== outs.userId)
          return `${String(outs.email)} is not a member`;
        return member.role === outs.role
          ? undefined
          : `the role is ${member.role}, the state says ${String(outs.role)}`;
      }
      case "ProjectMember": {
        const member = this.memberOf(s);
        if (member === undefined || member.userId !== outs.userId)
          return `${String(outs.email)} is not a member`;
        const role = s.projects.find((p) => p.id === outs.projectId)?.member_roles?.[member.userId];
        return role === outs.role
          ? undefined
          : `the project role is ${String(role)}, the state says ${String(outs.role)}`;
      }
      case "DataApi": {
        const b = branch(outs.branchId);
        if (b === undefined) return `its branch ${String(outs.branchId)} is gone`;
        const database = b.databases.find((d) => d.name === outs.databaseName);
        return database !== undefined && b.data_apis?.some((d) => d.database_id === database.id)
          ? undefined
          : `database ${String(outs.databaseName)} has no Data API`;
      }
      case "Jwks":
        return s.projects.find((p) => p.id === outs.projectId)?.jwks?.some((j) => j.id === outs.jwksId)
          ? undefined
          : "the project no longer trusts the JWKS URL";
      case "BranchAuth": {
        const auth = branch(outs.branchId)?.auth;
        if (auth === undefined) return `branch ${String(outs.branchId)} has no Auth`;
        return auth.auth_provider_project_id === outs.authProviderProjectId
          ? undefined
          : `the Auth's provider project is ${auth.auth_provider_project_id}, the state says ${String(outs.authProviderProjectId)}`;
      }
      case "OrganizationSpendingLimit": {
        const cents = s.organizations.find((o) => o.id === entry.id)?.spending_limit_cents;
        if (cents === undefined) return "the organization has no spending limit";
        return cents === outs.spendingLimitCents
          ? undefined
          : `the limit is ${cents} cents, the state says ${String(outs.spendingLimitCents)}`;
      }
    }
  }

  /**
   * Nothing the stack made is outside the state: no branch (a scratch copy, say), compute,
   * snapshot, key or project, and no generated role or database on a branch of the state. A
   * branch a restore replaced is the user's, not the stack's, and so is what is on it.
   */
  private checkOrphans(index: number, s: State, keepState: boolean, invariant = "no-orphans"): void {
    // The state holds an object by its id, and what it made along with it: a project's default
    // branch and compute, a branch's computes.
    const inState = new Set<string>();
    for (const e of this.stack.state.values()) {
      inState.add(e.id);
      for (const field of ["defaultBranchId", "defaultEndpointId", "endpointId"]) {
        if (typeof e.outs[field] === "string") inState.add(e.outs[field] as string);
      }
      for (const ep of (e.outs.endpoints as Array<{ id?: unknown }> | undefined) ?? []) {
        if (typeof ep.id === "string") inState.add(ep.id);
      }
    }
    const orphans: string[] = [];
    const mine = (id: string) => this.madeByStack.has(id) && !inState.has(id);
    // What a deleted project held went with it.
    const projects = new Set(s.projects.filter((p) => p.deleted_at_ms === undefined).map((p) => p.id));
    for (const b of s.branches) {
      if (b.deleted_at_ms !== undefined || !projects.has(b.project_id)) continue;
      if (mine(b.id) && !this.replaced.has(b.id)) orphans.push(`branch ${b.id} (${b.name})`);
    }
    for (const e of s.endpoints) {
      if (!projects.has(e.project_id)) continue;
      if (mine(e.id) && !this.replaced.has(e.branch_id)) orphans.push(`endpoint ${e.id} on ${e.branch_id}`);
    }
    for (const x of s.snapshots) {
      if (projects.has(x.project_id) && mine(x.id) && x.manual) orphans.push(`snapshot ${x.id} (${x.name})`);
    }
    for (const k of s.apiKeys) if (!k.revoked && mine(String(k.id))) orphans.push(`key ${k.id} (${k.name})`);
    for (const p of s.projects) if (projects.has(p.id) && mine(p.id)) orphans.push(`project ${p.id}`);
    const ids = this.ids();
    for (const id of ids.grants) if (mine(id)) orphans.push(`project permission ${id}`);
    for (const id of ids.vpcEndpoints) if (mine(id)) orphans.push(`VPC endpoint ${id}`);
    for (const id of ids.restrictions) if (mine(id)) orphans.push(`VPC restriction ${id}`);
    for (const id of ids.spendingLimits) if (mine(id)) orphans.push(`spending limit of organization ${id}`);
    if (keepState) {
      const named = new Set(
        [...this.stack.state.values()].map((e) => `${String(e.outs.branchId)}/${String(e.outs.name)}`),
      );
      for (const entry of this.stack.state.values()) {
        if (entry.kind !== "Branch") continue;
        const b = s.branches.find((x) => x.id === entry.id);
        for (const r of b?.roles ?? []) {
          if (GENERATED.Role.test(r.name) && !named.has(`${b?.id}/${r.name}`))
            orphans.push(`role ${r.name} on ${b?.id}`);
        }
        for (const d of b?.databases ?? []) {
          if (GENERATED.Database.test(d.name) && !named.has(`${b?.id}/${d.name}`))
            orphans.push(`database ${d.name} on ${b?.id}`);
        }
      }
    }
    if (orphans.length > 0)
      this.fail(invariant, index, `made by the stack, not in the state: ${orphans.join(", ")}`);
  }

  /** Every secret in the state works: a role's password is the live one (so it logs in), a key authenticates. */
  private async checkSecrets(index: number, s: State): Promise<void> {
    for (const entry of this.stack.state.values()) {
      if (entry.kind === "Role") {
        const b = s.branches.find((x) => x.id === entry.outs.branchId);
        const live = b?.roles.find((r) => r.name === entry.outs.name)?.password;
        if (live !== undefined && live !== entry.outs.password) {
          this.fail(
            "secrets-work",
            index,
            `Role ${String(entry.outs.name)}: the state's password is not the live one`,
          );
        }
      }
      if (
        entry.kind === "Branch" &&
        typeof entry.outs.connectionUri === "string" &&
        entry.outs.connectionUri !== ""
      ) {
        const uri = new URL(entry.outs.connectionUri);
        const b = s.branches.find((x) => x.id === entry.id);
        const live = b?.roles.find((r) => r.name === decodeURIComponent(uri.username))?.password;
        if (live === undefined || live !== decodeURIComponent(uri.password)) {
          this.fail(
            "secrets-work",
            index,
            `Branch ${entry.id}: connectionUri's role ${uri.username} does not log in`,
          );
        }
      }
      if (entry.kind === "ApiKey") {
        const ok = await this.api("GET", "/users/me", undefined, String(entry.outs.key)).then(
          () => true,
          () => false,
        );
        if (!ok) this.fail("secrets-work", index, `ApiKey ${entry.id}: its key does not authenticate`);
      }
    }
  }
}
