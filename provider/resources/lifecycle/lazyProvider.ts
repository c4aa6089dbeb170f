import type * as pulumi from "@pulumi/pulumi";

/** What a resource's methods module exports: the provider's methods as plain functions. */
export interface ResourceMethods<Inputs, Outputs> {
  configure(req: pulumi.dynamic.ConfigureRequest): Promise<void>;
  check(olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult<Inputs>>;
  diff(id: string, olds: Outputs, news: Inputs): Promise<pulumi.dynamic.DiffResult>;
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
    configure: (req) => methods().configure(req),
    check: (olds, news) => methods().check(olds, news),
    diff: (id, olds, news) => methods().diff(id, olds, news),
    create: (inputs) => methods().create(inputs),
    read: (id, props) => methods().read(id, props),
    update: (id, olds, news) => methods().update(id, olds, news),
    delete: (id, props) => methods().remove(id, props),
  };
}
