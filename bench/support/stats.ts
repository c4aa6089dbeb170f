// Small numeric and table helpers for the benchmarks: medians and fixed-width tables.

/** Median of a non-empty list (mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A number with `digits` decimals, or "n/a". */
export function fmt(value: number, digits = 2): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "n/a";
}

/** Milliseconds as seconds with two decimals and a unit. */
export function secs(ms: number): string {
  return `${fmt(ms / 1000)} s`;
}

/** A difference in milliseconds as signed seconds: "+1.20 s", "−0.35 s". */
export function signedSecs(ms: number): string {
  return `${ms < 0 ? "−" : "+"}${secs(Math.abs(ms))}`;
}

/** Bytes as MiB with one decimal and a unit. */
export function mib(bytes: number): string {
  return `${fmt(bytes / (1024 * 1024), 1)} MiB`;
}

/** One benchmark table: a title, a header row and rows of cells. */
export interface Table {
  title: string;
  header: string[];
  rows: string[][];
  /** Lines printed under the table (how the figures were obtained, what a miss means). */
  notes?: string[];
}

/** The table as GitHub-flavoured Markdown (also readable as plain text). */
export function renderTable(table: Table): string {
  const widths = table.header.map((h, i) =>
    Math.max(h.length, ...table.rows.map((r) => (r[i] ?? "").length)),
  );
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  const out = [
    `### ${table.title}`,
    "",
    line(table.header),
    `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`,
    ...table.rows.map(line),
  ];
  if (table.notes && table.notes.length > 0) out.push("", ...table.notes.map((n) => `- ${n}`));
  return `${out.join("\n")}\n`;
}

/** "met" / "MISSED" for a target check. */
export function verdict(ok: boolean): string {
  return ok ? "met" : "MISSED";
}

/** How many requests of a request log went to each route. */
export function countBy(log: readonly { route: string }[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of log) out.set(r.route, (out.get(r.route) ?? 0) + 1);
  return out;
}
