// Stacks made with 0.0.x require this file by its path (`pulumi-clouddb/lib/provider/resources/
// lifecycle/lazyProvider`) from the code in their state: it never moves, and `lazyProvider` keeps
// taking the module paths those states pass (`statePaths.ts`).
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { kindOfStatePath } from "./statePaths";

/** What a resource's methods module exports: the provider's methods as plain functions. */
export interface ResourceMethods<Inputs, Outputs> {
  configure(req: pulumi.dynamic.ConfigureRequest): Promise<void>;
  check(olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult<Inputs>>;
  /** The dynamic provider's host reads the changes and replaces; the plugin also the detailed diff. */
  diff(
    id: string,
    olds: Outputs,
    news: Inputs,
  ): Promise<pulumi.dynamic.DiffResult & { detailedDiff?: Record<string, string> }>;
  create(inputs: Inputs): Promise<pulumi.dynamic.CreateResult<Outputs>>;
  read(id: string, props?: Outputs): Promise<pulumi.dynamic.ReadResult<Outputs>>;
  update(id: string, olds: Outputs, news: Inputs): Promise<pulumi.dynamic.UpdateResult<Outputs>>;
  remove(id: string, props: Outputs): Promise<void>;
}

/**
 * A dynamic provider of the kind `ref` names, its methods module loaded when a method is called.
 * `ref` is the kind's type name (`Branch`: what the state's code holds since 0.1.0, see
 * `provider/dynamic.ts`), or the path of its methods module as earlier states hold it (found in
 * `statePaths.ts`, so the module may have moved since); another path is required as it is. Pulumi
 * serializes the provider into the state as code: this way that code is a few lines holding one
 * string, never the client, its schemas or its registries.
 */
export function lazyProvider<Inputs, Outputs>(ref: string): pulumi.dynamic.ResourceProvider<Inputs, Outputs> {
  const kind = /^[A-Z]\w*$/.test(ref) ? ref : kindOfStatePath(ref);
  const methods = (): ResourceMethods<Inputs, Outputs> =>
    kind === undefined ? require(ref) : (kindTable().methodsOf(kind) as ResourceMethods<Inputs, Outputs>);
  return {
    configure: (req) => methods().configure(req).catch(rethrow),
    check: (olds, news) => methods().check(olds, news).catch(rethrow),
    diff: (id, olds, news) => methods().diff(id, olds, news).catch(rethrow),
    create: (inputs) => methods().create(inputs).catch(rethrow),
    read: async (id, props) => {
      const state = stateOf(props);
      const result = await methods().read(id, state).catch(rethrow);
      // Read without a state (`get`), what the host sends back is all the read made: plain JSON,
      // so a field the API left out is no `undefined` its protobuf encoding refuses.
      return state === undefined ? (JSON.parse(JSON.stringify(result)) as typeof result) : result;
    },
    update: (id, olds, news) => methods().update(id, olds, news).catch(rethrow),
    delete: (id, props) => methods().remove(id, props).catch(rethrow),
  };
}

/**
 * The state a read is for, or none. The dynamic-provider host passes the resource's properties; a
 * resource read with `get` (`Branch.get(name, importId)`) has only the code and bookkeeping this
 * package adds (`__provider`, `__owner`): no state, so the id is the kind's import id, as for
 * `pulumi import`.
 */
function stateOf<Outputs>(props: Outputs | undefined): Outputs | undefined {
  if (props === undefined) return undefined;
  const own = Object.entries(props as Record<string, unknown>).filter(
    ([key, value]) => !key.startsWith("__") && value !== undefined,
  );
  return own.length === 0 ? undefined : props;
}

/**
 * The kinds' table (`provider/dynamic.ts`), required by a path computed at run time: it requires
 * every kind's methods, and those reach this module, so a static import would close a circle.
 */
function kindTable(): { methodsOf(type: string): ResourceMethods<unknown, unknown> } {
  return require(path.join(__dirname, "..", "..", "dynamic"));
}

/** Whether this process is Pulumi's dynamic-provider host (its main module), which prints errors as below. */
const UNDER_HOST = /[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/.test(require.main?.filename ?? "");

/** Rethrows a method's error: shaped for the host's line under the host, as it is elsewhere. */
const rethrow = (err: unknown): never => {
  if (UNDER_HOST) forHost(err);
  throw err;
};

/**
 * Rethrows `err` shaped for Pulumi's dynamic-provider host, which prints a failed call as
 * `${error}: ${error.stack}` (and answers the engine with `error.message`). The errors of this
 * package carry no stack frames (they would point into its build), so that line would end in a
 * dangling `: `; instead it reads `<name>: <message>`, the message unchanged for the engine.
 */
export function forHost(err: unknown): never {
  if (err instanceof Error && err.stack === "") {
    const { name, message } = err;
    Object.defineProperty(err, "toString", { value: () => name, configurable: true });
    err.stack = message;
  }
  throw err;
}
