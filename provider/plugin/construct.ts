/**
 * `Construct`: the package's components (`PreviewEnvironment`) made by the plugin for a program in
 * any language. The engine sends the component's inputs and options and the address of its resource
 * monitor; the component is made here as in a TypeScript program, with its children registered by
 * the package's type tokens (the engine sends each back to this plugin's `Check`, `Create`, ...),
 * and the answer is its URN and outputs once every child's registration is done. The steps follow
 * `@pulumi/pulumi`'s own provider server, whose class is not exported.
 */
import * as pulumi from "@pulumi/pulumi";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import * as runtimeConfig from "@pulumi/pulumi/runtime/config";
import * as rpc from "@pulumi/pulumi/runtime/rpc";
import * as settings from "@pulumi/pulumi/runtime/settings";
import {
  CHILD_KINDS,
  type Children,
  type MakeChild,
  makePreviewEnvironment,
} from "../components/previewEnvironment";
import { PREVIEW_ENVIRONMENT, type PreviewEnvironmentArgs } from "../components/previewEnvironment.declared";
import { outputNames, secretsOf } from "../resources/public/declare";
import { DECLARATIONS } from "../resources/public/kinds";
import { seedOutputs, withSecretOutputs } from "../resources/public/props";
import { Struct } from "./packaged";
import { token } from "./token";

/** What `@pulumi/pulumi` marks internal but its own provider server runs a `Construct` with. */
interface RuntimeInternals {
  deserializeInputs(inputs: unknown, dependencies: unknown): Promise<Record<string, unknown>>;
  awaitFeatureSupport(): Promise<void>;
  withLocalStorage<T>(run: () => Promise<T>): Promise<T>;
  waitForRPCs(): Promise<void>;
}
const internals = (): RuntimeInternals => ({
  ...(require("@pulumi/pulumi/provider/server") as Pick<RuntimeInternals, "deserializeInputs">),
  ...(require("@pulumi/pulumi/runtime/settings") as Pick<
    RuntimeInternals,
    "awaitFeatureSupport" | "waitForRPCs"
  >),
  ...(require("@pulumi/pulumi/runtime/state") as Pick<RuntimeInternals, "withLocalStorage">),
});

/** An output's value once known (a URN always is, at preview too). */
function knownValue<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

/** A resource of this package, by type token. */
class PackageResource extends pulumi.CustomResource {}

/** The component itself, which registers its outputs once its children are made. */
class Component extends pulumi.ComponentResource {
  finish(outputs: Record<string, unknown>): void {
    this.registerOutputs(outputs);
  }
}

/** A child of a kind of this package, registered with the engine by its type token. */
function nativeChild(type: string): MakeChild {
  const declaration = DECLARATIONS.find((d) => d.type === type);
  if (declaration === undefined) throw new Error(`the package has no kind ${type}`);
  return (name, args, opts) =>
    new PackageResource(
      token(type),
      name,
      seedOutputs<Record<string, unknown>>(args, outputNames(declaration)),
      withSecretOutputs(opts, secretsOf(declaration)),
    );
}

/** The children of an environment made by the plugin: the package's resources. */
function nativeChildren(): Children {
  return Object.fromEntries(CHILD_KINDS.map((type) => [type, nativeChild(type)])) as Children;
}

/** The component of a type token, made under `opts`: its URN and outputs. */
function makeComponent(
  type: string,
  name: string,
  inputs: Record<string, unknown>,
  opts: pulumi.ComponentResourceOptions,
): { urn: pulumi.Output<string>; state: Record<string, unknown> } {
  if (type !== token(PREVIEW_ENVIRONMENT.type)) throw new Error(`the package has no component ${type}`);
  const component = new Component(type, name, {}, opts);
  const state = makePreviewEnvironment(
    component,
    name,
    inputs as unknown as PreviewEnvironmentArgs,
    nativeChildren(),
  );
  component.finish(state as unknown as Record<string, unknown>);
  return { urn: component.urn, state: state as unknown as Record<string, unknown> };
}

/** Points `@pulumi/pulumi`'s runtime at the engine and monitor of this request, with its config. */
async function configureRuntime(request: proto.ConstructRequest, engineAddress: string): Promise<void> {
  settings.resetOptions(
    request.getProject(),
    request.getStack(),
    request.getParallel(),
    engineAddress,
    request.getMonitorendpoint(),
    request.getDryrun(),
    request.getOrganization(),
  );
  await internals().awaitFeatureSupport();
  runtimeConfig.setAllConfig(
    Object.fromEntries(request.getConfigMap().entries()),
    request.getConfigsecretkeysList(),
  );
}

/** The component's options as the request sends them. */
function optionsOf(request: proto.ConstructRequest): pulumi.ComponentResourceOptions {
  const providers: Record<string, pulumi.ProviderResource> = {};
  for (const [pkg, ref] of request.getProvidersMap().entries()) {
    providers[pkg] = new pulumi.DependencyProviderResource(ref);
  }
  return {
    ...(request.getParent() === "" ? {} : { parent: new pulumi.DependencyResource(request.getParent()) }),
    dependsOn: request.getDependenciesList().map((urn) => new pulumi.DependencyResource(urn)),
    protect: request.getProtect() === true,
    providers,
    aliases: request.getAliasesList().flatMap((alias) => (alias.hasUrn() ? [alias.getUrn()] : [])),
  };
}

/** How to fail each `Construct` in flight. */
const inFlight = new Set<(err: unknown) => void>();
let watching = false;

/**
 * A failure no promise handled while a component is made (a child's input whose lookup failed is
 * one: the runtime registers the child and nobody awaits it) fails the `Construct`s in flight with
 * it, as `@pulumi/pulumi`'s own provider server does, instead of ending the process with every
 * other request. Outside a `Construct` such a failure is written to stderr, which the engine logs.
 */
function watchUnhandled(): void {
  if (watching) return;
  watching = true;
  const fail = (err: unknown) => {
    if (inFlight.size === 0) process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    for (const reject of inFlight) reject(err);
  };
  process.on("unhandledRejection", fail);
  process.on("uncaughtException", fail);
}

/** Answers a `Construct`: the component made, or the first failure of its making. */
export function construct(
  request: proto.ConstructRequest,
  engineAddress: string,
): Promise<proto.ConstructResponse> {
  watchUnhandled();
  return new Promise((resolve, reject) => {
    inFlight.add(reject);
    constructed(request, engineAddress)
      .then(resolve, reject)
      .finally(() => inFlight.delete(reject));
  });
}

/** Makes the component and waits for its children's registrations. */
function constructed(
  request: proto.ConstructRequest,
  engineAddress: string,
): Promise<proto.ConstructResponse> {
  const { withLocalStorage, deserializeInputs } = internals();
  return withLocalStorage(async () => {
    await configureRuntime(request, engineAddress);
    const inputs = await deserializeInputs(request.getInputs(), request.getInputdependenciesMap());
    const made = makeComponent(request.getType(), request.getName(), inputs, optionsOf(request));
    const response = new proto.ConstructResponse();
    response.setUrn(await knownValue(made.urn));
    const [state, dependencies] = await rpc.serializeResourceProperties(
      `construct(${request.getType()}, ${request.getName()})`,
      made.state,
    );
    const stateDependencies = response.getStatedependenciesMap();
    for (const [key, resources] of dependencies) {
      const deps = new proto.ConstructResponse.PropertyDependencies();
      deps.setUrnsList(await Promise.all([...resources].map((r) => knownValue(r.urn))));
      stateDependencies.set(key, deps);
    }
    response.setState(Struct.fromJavaScript(state));
    await internals().waitForRPCs();
    return response;
  });
}
