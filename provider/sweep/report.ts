/** What `clouddb sweep` prints (a table) and writes (`--report`, JSON). */
import type { Finding } from "./find";

/** A duration in the largest whole units that say it: `3d4h`, `2h5m`, `40s`. */
export function ageOf(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const [d, h, m] = [Math.floor(s / 86400), Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60)];
  if (d > 0) return `${d}d${h}h`;
  if (h > 0) return `${h}h${m}m`;
  if (m > 0) return `${m}m`;
  return `${s}s`;
}

/** When a found branch was made: its mark's time, else the API's. */
function madeAt(f: Finding): number {
  return Date.parse(f.createdAt ?? f.branch.created_at);
}

/** The findings as a table: branch id and name, stack, pull request, age, why. */
export function table(found: readonly Finding[], now: number): string {
  const rows = [
    ["BRANCH", "NAME", "STACK", "PR", "AGE", "WHY"],
    ...found.map((f) => [
      f.branch.id,
      f.branch.name,
      `${f.project}/${f.stack}`,
      f.pullRequest ?? "-",
      ageOf(now - madeAt(f)),
      f.why,
    ]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows
    .map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  "))
    .join("\n");
}

/** The JSON report of a run: what it found, what it deleted, what failed. */
export interface SweepReport {
  projectId: string;
  backend: string;
  mode: "dry-run" | "delete";
  at: string;
  found: {
    branchId: string;
    name: string;
    project: string;
    stack: string;
    pullRequest: string | null;
    createdAt: string;
    expiresAt: string | null;
    reason: Finding["reason"];
    why: string;
  }[];
  deleted: string[];
  errors: string[];
}

/** The report's entry of a finding. */
export function reported(f: Finding): SweepReport["found"][number] {
  return {
    branchId: f.branch.id,
    name: f.branch.name,
    project: f.project,
    stack: f.stack,
    pullRequest: f.pullRequest ?? null,
    createdAt: f.createdAt ?? f.branch.created_at,
    expiresAt: f.branch.expires_at ?? null,
    reason: f.reason,
    why: f.why,
  };
}
