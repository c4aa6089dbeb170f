/**
 * The base of every resource class, in the program's process. A Pulumi dynamic resource sends its
 * provider as code (`__provider`), which the dynamic-provider plugin loads with `require` and calls
 * `.handler()` on. `pulumi.dynamic.Resource` writes that code by serializing the provider object's
 * closure, which loads a TypeScript parser and an inspector session into every program (about a
 * third of a second). Our providers are one line (require the methods module by its specifier, see
 * `lazyProvider`), so the code is written here instead: same format, same type token, no serializer.
 */
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import * as log from "@pulumi/pulumi/log";
import { CustomResource } from "@pulumi/pulumi/resource";
import { moduleRef } from "../lifecycle/moduleRef";
import { outputNames, secretsOf } from "./declare";
import { deprecatedInputWarnings } from "./deprecatedInputs";
import { warnPlaintextApiKey } from "./plaintextKey";
import { ownerInput, seedOutputs, withSecretOutputs } from "./props";
import type { ResourceDeclaration } from "./shapes";

/** This package's `provider/dynamic` module: `pulumi-clouddb/lib/provider/dynamic.js` installed, a path in a checkout. */
const DYNAMIC = moduleRef(require.resolve("../../dynamic"));
/** What the state's code requires: the package's `dynamic` export when installed, so no file path is stored. */
const ENTRY = path.isAbsolute(DYNAMIC) ? DYNAMIC : `${DYNAMIC.slice(0, DYNAMIC.indexOf("/lib/"))}/dynamic`;

/** The `__provider` code of a resource of the kind `type`: it names the kind, never a file of it. */
export function providerSource(type: string): string {
  return `exports.handler = () => require(${JSON.stringify(ENTRY)}).provider(${JSON.stringify(type)});\n`;
}

/**
 * A dynamic resource of this package. Pulumi captures a stack trace for every promise of every
 * input and output it sets up (four per property, formatted through ts-node's source maps), only
 * to print them if the program exits with promises still pending. For a resource of 25 outputs that
 * is most of its construction time, and a program constructs all its resources before the first
 * reaches the engine. So the constructor turns stack capture off while Pulumi sets the resource
 * up; Pulumi turns it back on for the one trace it keeps (where the program declared the
 * resource), and an error thrown on the way gets the caller's stack again.
 */
export abstract class DynamicResource extends CustomResource {
  protected constructor(
    declaration: ResourceDeclaration,
    name: string,
    args: object,
    opts: pulumi.CustomResourceOptions | undefined,
  ) {
    // Every resource passes here in the program's process: the one place to warn, once, about a plaintext key.
    warnPlaintextApiKey();
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(
        `pulumi-nodejs:dynamic/clouddb:${declaration.type}`,
        name,
        {
          ...seedOutputs<Record<string, unknown>>(args, outputNames(declaration)),
          ...ownerInput(name, declaration.type, opts),
          __provider: providerSource(declaration.type),
        },
        withSecretOutputs(opts, secretsOf(declaration)),
      );
    } catch (err) {
      Error.stackTraceLimit = limit;
      if (err instanceof Error) Error.captureStackTrace(err, new.target);
      throw err;
    } finally {
      Error.stackTraceLimit = limit;
    }
    // At preview as at up: an input sent as a field the API marks deprecated says what to use instead.
    for (const warning of deprecatedInputWarnings(declaration.type, args)) void log.warn(warning, this);
  }

  /**
   * Reads an existing object into the program by the id `pulumi import` takes for its kind (the
   * reference's "Import" section, e.g. `<projectId>/<branchId>` for a Branch), as every Pulumi
   * package's `get` does: its outputs as the API has them now, never changed or deleted by this
   * stack. An ApiKey cannot be read: its secret is returned only when it is created.
   */
  static get<T extends DynamicResource>(
    this: new (
      name: string,
      args: never,
      opts?: pulumi.CustomResourceOptions,
    ) => T,
    name: string,
    id: pulumi.Input<pulumi.ID>,
    opts?: pulumi.CustomResourceOptions,
  ): T {
    return new this(name, {} as never, { ...opts, id });
  }
}
