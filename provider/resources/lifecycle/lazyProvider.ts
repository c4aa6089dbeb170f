import type * as pulumi from "@pulumi/pulumi";

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
 * A dynamic provider that requires its methods module by `ref` (see `moduleRef`) when a method is
 * called and forwards to it. Pulumi serializes the provider into the state as code: this way that
 * code is a few lines holding one string, never the client, its schemas or its registries.
 */
export function lazyProvider<Inputs, Outputs>(ref: string): pulumi.dynamic.ResourceProvider<Inputs, Outputs> {
  const methods = (): ResourceMethods<Inputs, Outputs> => require(ref);
  return {
    configure: (req) => methods().configure(req).catch(rethrow),
    check: (olds, news) => methods().check(olds, news).catch(rethrow),
    diff: (id, olds, news) => methods().diff(id, olds, news).catch(rethrow),
    create: (inputs) => methods().create(inputs).catch(rethrow),
    read: (id, props) => methods().read(id, props).catch(rethrow),
    update: (id, olds, news) => methods().update(id, olds, news).catch(rethrow),
    delete: (id, props) => methods().remove(id, props).catch(rethrow),
  };
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
