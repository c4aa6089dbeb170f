import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import type { EmulatorContext } from "../context";
import { badRequest } from "../errors";
import type { BranchRecord, DatabaseRecord, ProjectRecord } from "../records";
import { historyStart, LSN, pointLsn, pointTime } from "./branches";

// Schemas: a branch database's schema as SQL, now or at a point of the branch's history, and the
// unified diff of two of them (docs/api-rules.md §12). With the data plane the schema is read from
// Postgres's catalog; without it no database holds any object, so every schema is the empty dump
// and every diff is empty, as the service answers for empty databases.

/** A point of a branch's history as a request gives it: an LSN, a timestamp, or neither (now). */
export interface SchemaPoint {
  lsn?: string | undefined;
  timestamp?: string | undefined;
}

/** One side of a schema read: a branch's database at a point, and the names its parameters have. */
export interface SchemaSide {
  project: ProjectRecord;
  branch: BranchRecord;
  database: DatabaseRecord;
  point: SchemaPoint;
  /** The query parameters' prefix, `""` or `"base_"`, for the messages. */
  prefix: string;
}

/** The moment a point names, undefined for now; throws 400 for both, a malformed LSN, or a point outside the branch's history. */
function pointMs(ctx: EmulatorContext, side: SchemaSide): number | undefined {
  const { lsn, timestamp } = side.point;
  const { prefix, branch, project } = side;
  if (lsn !== undefined && timestamp !== undefined) {
    throw badRequest(`give only one of ${prefix}lsn and ${prefix}timestamp`);
  }
  if (lsn === undefined && timestamp === undefined) return undefined;
  if (lsn !== undefined && !LSN.test(lsn)) {
    throw badRequest(`${prefix}lsn must be an LSN like 0/1F0A3B8, got ${JSON.stringify(lsn)}`);
  }
  const ms = lsn !== undefined ? pointTime(ctx, branch, lsn) : Date.parse(timestamp as string);
  const named = lsn !== undefined ? `${prefix}lsn ${lsn}` : `${prefix}timestamp ${timestamp}`;
  const now = ctx.clock.now();
  const oldest = historyStart(project, branch, now);
  if (ms > now) throw badRequest(`${named} is in the future of branch ${branch.id}`);
  if (ms < oldest) {
    throw badRequest(
      `${named} is outside the history of branch ${branch.id} (from ${new Date(oldest).toISOString()})`,
    );
  }
  return ms;
}

/** The schema of one side as SQL: of the branch's head, or as it was at the point (docs/api-rules.md §12). */
export async function schemaOf(ctx: EmulatorContext, side: SchemaSide): Promise<string> {
  // A reading of the WAL now, so an LSN the client has just read is not taken for the future.
  await ctx.data?.noteTime();
  const atMs = pointMs(ctx, side);
  if (ctx.data === undefined) return "";
  const lsn = side.point.lsn ?? (atMs === undefined ? undefined : pointLsn(ctx, side.branch, atMs));
  return ctx.data.schemaAt(side.branch, side.database.id, lsn?.toUpperCase());
}

/** How a side is named in a diff's header: its branch, and its point when one was asked for. */
function label(side: SchemaSide): string {
  const at = side.point.lsn ?? side.point.timestamp;
  return `${side.database.name} (branch ${side.branch.id}${at === undefined ? "" : ` at ${at}`})`;
}

/** The unified diff from `base`'s schema to `target`'s; the empty string when they are the same. */
export async function compareSchemas(
  ctx: EmulatorContext,
  target: SchemaSide,
  base: SchemaSide,
): Promise<string> {
  const [from, to] = await Promise.all([schemaOf(ctx, base), schemaOf(ctx, target)]);
  if (from === to) return "";
  return createTwoFilesPatch(label(base), label(target), from, to, undefined, undefined, {
    context: 3,
    headerOptions: FILE_HEADERS_ONLY,
  });
}
