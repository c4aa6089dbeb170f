import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorContext } from "../context";
import { activeDeployment, archiveOf } from "../families/functions";
import {
  type FunctionRequest,
  type FunctionResponse,
  type FunctionRun,
  functionError,
} from "../function-runner";
import type { BranchRecord, DeploymentRecord, FunctionRecord } from "../records";
import { renderConnectionUri } from "../render/endpoints";
import { FUNCTIONS_PREFIX } from "../render/functions";
import { settle } from "../settle";

// The functions' invocation URLs (docs/api-rules.md §27), `/__functions/<branchId>-<slug>/...`: any
// method, path below the function's root, query, headers and body go to the function's active
// deployment, run by the emulator's Workers (function-runner.ts), and its answer comes back. The
// handler sees the path below the root (`/hello?x=1`) on the origin the request came to, as it sees
// its own host on the service. No API key, as the service's URL takes none.

/** The largest request body a function takes here. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Headers about this hop only, which neither the handler nor the caller gets from the other side. */
const HOP_HEADERS = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "upgrade"]);

/** The live branch and its function a URL's `<branchId>-<slug>` names, if both exist. */
function functionAt(
  ctx: EmulatorContext,
  target: string,
): { branch: BranchRecord; fn: FunctionRecord } | undefined {
  // A slug has no dash, so the last one ends the branch id.
  const dash = target.lastIndexOf("-");
  if (dash < 0) return undefined;
  const branchId = target.slice(0, dash);
  const slug = target.slice(dash + 1);
  const projectId = ctx.store.branches.get(branchId)?.project_id;
  if (projectId === undefined || ctx.store.liveProject(projectId) === undefined) return undefined;
  const branch = ctx.store.liveBranch(projectId, branchId);
  const fn = branch?.functions?.find((f) => f.slug === slug);
  return branch === undefined || fn === undefined ? undefined : { branch, fn };
}

/**
 * What a deployment runs with: its variables, and `DATABASE_URL`, the branch's first database as
 * its owner on its read-write endpoint (as the API's connection URI for them), when it has those.
 */
function runOf(
  ctx: EmulatorContext,
  target: string,
  branch: BranchRecord,
  fn: FunctionRecord,
  deployment: DeploymentRecord,
): FunctionRun {
  const endpoint = ctx.store.branchEndpoints(branch.id).find((e) => e.type === "read_write");
  const database =
    endpoint === undefined || branch.databases.length === 0
      ? ""
      : renderConnectionUri(endpoint, branch, ctx.store, ctx.data).connection_uri;
  const env = {
    ...(deployment.environment_values ?? {}),
    ...(database === "" ? {} : { DATABASE_URL: database }),
  };
  return {
    target,
    version: `${fn.id}/${deployment.id}/${database}`,
    archive: () => archiveOf(ctx, deployment),
    env,
  };
}

/** What the function `target` should run now; undefined when nothing of it can run. */
function currentRun(ctx: EmulatorContext, target: string): FunctionRun | undefined {
  const found = functionAt(ctx, target);
  const deployment = found && activeDeployment(found.fn, ctx.clock.now());
  return found && deployment && runOf(ctx, target, found.branch, found.fn, deployment);
}

/** Ends the Workers whose function, active deployment or environment is no longer what they run. */
export function retireFunctions(ctx: EmulatorContext): void {
  ctx.functions.keepOnly((target) => currentRun(ctx, target)?.version);
}

/** The request as the function's handler gets it. */
function requestFor(request: FastifyRequest, target: string): FunctionRequest {
  const below = request.url.slice(`${FUNCTIONS_PREFIX}/${target}`.length);
  const path = below.startsWith("/") ? below : `/${below}`;
  const headers: [string, string][] = [];
  const raw = request.raw.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    if (!HOP_HEADERS.has(name.toLowerCase())) headers.push([name, raw[i + 1] as string]);
  }
  const body = Buffer.isBuffer(request.body) && request.body.length > 0 ? new Uint8Array(request.body) : null;
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  return {
    method: request.method,
    url: `${request.protocol}://${request.headers.host ?? "localhost"}${path}`,
    headers,
    body: hasBody ? body : null,
  };
}

/** Sends the function's answer as it is, but for the headers about the Worker's side of the hop. */
function send(reply: FastifyReply, answer: FunctionResponse): FastifyReply {
  reply.code(answer.status);
  for (const [name, value] of answer.headers)
    if (!HOP_HEADERS.has(name.toLowerCase())) reply.header(name, value);
  return reply.send(Buffer.from(answer.body));
}

/** Registers the invocation route under its prefix (`/__functions`). */
export function invocationRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  // A function's body is its bytes, whatever its content type says.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: MAX_BODY_BYTES }, (_request, body, done) =>
    done(null, body),
  );
  const invoke = async (request: FastifyRequest<{ Params: { target: string } }>, reply: FastifyReply) => {
    settle(ctx);
    const { target } = request.params;
    const found = functionAt(ctx, target);
    if (found === undefined)
      return send(reply, functionError(404, `no function is deployed at ${FUNCTIONS_PREFIX}/${target}/`));
    const deployment = activeDeployment(found.fn, ctx.clock.now());
    if (deployment === undefined)
      return send(
        reply,
        functionError(
          503,
          `function ${found.fn.slug} on branch ${found.branch.id} has no completed deployment yet: wait until a deployment's status is completed`,
        ),
      );
    await ctx.data?.sync();
    const run = runOf(ctx, target, found.branch, found.fn, deployment);
    return send(reply, await ctx.functions.invoke(run, requestFor(request, target)));
  };
  app.all("/:target", invoke);
  app.all("/:target/*", invoke);
}
