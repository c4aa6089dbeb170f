/**
 * The provider plugin's gRPC `ResourceProvider` service, on the stubs `@pulumi/pulumi` ships.
 *
 * Pulumi's own Node.js provider server does not fit: it ignores `Configure` (a provider gets only
 * the default provider's config) and fails a `Read` without properties. This one keeps each
 * `Configure`'s settings (key, URL, operation timeout) and runs every call under them
 * (`withSettings`), so explicit `pulumi:providers:clouddb` instances each reach their own account.
 * Every resource call goes to the same methods the dynamic resource runs (see `kinds.ts`): this
 * file only translates between the wire and those methods.
 */
import type * as net from "node:net";
import type * as grpc from "@grpc/grpc-js";
import { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { engineAddress } from "../resources/host/engineWatch";
import type { ProviderSettings } from "../resources/host/settings";
import { OWNER, withBookkeepingFrom, withoutBookkeeping } from "../resources/lifecycle/owner";
import type { CommonInputs, CommonState } from "../resources/lifecycle/state";
import { secretsOf } from "../resources/public/declare";
import { deprecatedInputWarnings } from "../resources/public/deprecatedInputs";
import { loadOnce } from "../resources/public/loadOnce";
import { answer, type StructValue, toStruct } from "./answer";
import type { Kind } from "./kinds";
import { Empty, packageSchema, packageVersion } from "./packaged";
import { PACKAGE } from "./token";
import { serveUnary, type UnaryHandler, type UnaryMethod } from "./unaryServer";
import { unwrap, wrap } from "./values";
import { warnOn } from "./warnings";
import {
  type CheckAnswer,
  type DiffAnswer,
  readCheckRequest,
  readDiffRequest,
  writeCheckResponse,
  writeDiffResponse,
} from "./wire";

/*
 * The kinds, the functions and the client behind the settings are loaded on the first call that
 * needs them, not before the plugin prints its port: the engine waits for that port.
 */
const kinds = loadOnce((): typeof import("./kinds") => require("./kinds"));
const functions = loadOnce((): typeof import("./functions") => require("./functions"));
const settings = loadOnce((): typeof import("../resources/host/settings") =>
  require("../resources/host/settings"),
);
const construct = loadOnce((): typeof import("./construct") => require("./construct"));

type Props = Record<string, unknown>;

const toJs = (struct: StructValue | undefined): Props => (struct?.toJavaScript() ?? {}) as Props;

/**
 * A provider's config as `settingsFromConfig` reads it: `clouddb:<key>` from the provider's inputs
 * (an explicit provider's arguments, or the stack's `clouddb:` config for the default one).
 */
function settingsOf(args: Props): ProviderSettings {
  return settings().settingsFromConfig(configOf(args));
}

/** A provider's inputs read as config: `clouddb:<key>` is the input `<key>`, as a string. */
function configOf(args: Props): { get(key: string): string | undefined } {
  const { plain } = unwrap(args);
  return {
    get: (key: string) => {
      const value = plain[key.slice(`${PACKAGE}:`.length)];
      return value === undefined || value === null ? undefined : String(value);
    },
  };
}

/** The lifecycle's names of a property's change, as the engine's detailed diff kinds. */
const PROPERTY_CHANGES = {
  add: proto.PropertyDiff.Kind.ADD,
  "add-replace": proto.PropertyDiff.Kind.ADD_REPLACE,
  delete: proto.PropertyDiff.Kind.DELETE,
  "delete-replace": proto.PropertyDiff.Kind.DELETE_REPLACE,
  update: proto.PropertyDiff.Kind.UPDATE,
  "update-replace": proto.PropertyDiff.Kind.UPDATE_REPLACE,
} as const;

/**
 * The answer to a create or update the engine asks for at preview. The engine takes a provider that
 * answers `Handshake` for one that previews (whatever `Configure` says), so a preview reaches
 * `Create` and `Update`; they answer what the engine answers itself for a provider that does not:
 * the inputs as the state (values not known yet included), sending nothing to the API.
 */
function previewed<R extends proto.CreateResponse | proto.UpdateResponse>(
  response: R,
  inputs: StructValue | undefined,
): R {
  if (inputs !== undefined) response.setProperties(inputs);
  return response;
}

/** The service's state: the settings of the one `Configure` this plugin instance got. */
interface Instance {
  settings: ProviderSettings;
}

/** The `ResourceProvider` service of one plugin process. */
export function resourceProviderService(): grpc.UntypedServiceImplementation {
  const instance: Instance = { settings: {} };

  /** The kind of a request's type token (older engines send only the URN, whose type is its last `::` part but one). */
  const kindOfRequest = (request: { getType?(): string; getUrn(): string }): Kind => {
    const token = request.getType?.() || request.getUrn().split("::")[2] || "";
    return kinds().kindOf(token);
  };
  /** Runs a resource method under this instance's settings, the engine's timeout bounding its waits. */
  const run = <T>(timeoutSeconds: number, method: () => Promise<T>): Promise<T> =>
    settings().withSettings(
      timeoutSeconds > 0
        ? { ...instance.settings, operationTimeoutSeconds: timeoutSeconds }
        : instance.settings,
      method,
    );
  /**
   * The outputs to send: the declared secrets, and the inputs that came in as secrets, wrapped; what
   * the lifecycle records for itself left to the resource's inputs (see `withoutBookkeeping`).
   */
  const outputs = (kind: Kind, props: Props, secretInputs: Iterable<string>): StructValue =>
    toStruct(wrap(withoutBookkeeping(props), [...secretsOf(kind.declaration), ...secretInputs]));
  /** A request's outputs of the state, with what the lifecycle recorded put back from its old inputs. */
  const recorded = (olds: Props, oldInputs: StructValue | undefined): Props =>
    withBookkeepingFrom(olds, unwrap(toJs(oldInputs)).plain);
  /** The declared secrets of a request's kind, for the properties a partial failure carries. */
  const secretsFor = (request: { getType?(): string; getUrn(): string }): readonly string[] => {
    try {
      return secretsOf(kindOfRequest(request).declaration);
    } catch {
      return [];
    }
  };

  return {
    handshake: answer(async (_request: proto.ProviderHandshakeRequest) => {
      const response = new proto.ProviderHandshakeResponse();
      response.setAcceptSecrets(true);
      response.setAcceptResources(false);
      return response;
    }),

    getPluginInfo: answer(async () => {
      const info = new PluginInfo();
      info.setVersion(packageVersion());
      return info;
    }),

    getSchema: answer(async (_request: proto.GetSchemaRequest) => {
      const response = new proto.GetSchemaResponse();
      response.setSchema(packageSchema());
      return response;
    }),

    checkConfig: answer(async (request: proto.CheckRequest) => {
      const response = new proto.CheckResponse();
      const news = toJs(request.getNews());
      response.setInputs(toStruct(news));
      response.setFailuresList(
        settings()
          .configFailures(configOf(news))
          .map((f) => {
            const failure = new proto.CheckFailure();
            failure.setProperty(f.property);
            failure.setReason(f.reason);
            return failure;
          }),
      );
      return response;
    }),

    diffConfig: answer(async (request: proto.DiffRequest) => {
      const response = new proto.DiffResponse();
      const olds = unwrap(toJs(request.getOldInputs() ?? request.getOlds())).plain;
      const news = unwrap(toJs(request.getNews())).plain;
      const changed = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter(
        (key) => JSON.stringify(olds[key]) !== JSON.stringify(news[key]),
      );
      // A new key, URL or timeout changes how the objects are reached, never the objects themselves.
      response.setChanges(
        changed.length > 0
          ? proto.DiffResponse.DiffChanges.DIFF_SOME
          : proto.DiffResponse.DiffChanges.DIFF_NONE,
      );
      response.setDiffsList(changed);
      return response;
    }),

    configure: answer(async (request: proto.ConfigureRequest) => {
      const args = toJs(request.getArgs());
      if (Object.keys(args).length === 0) {
        // An engine that sends only variables (`clouddb:config:apiKey`) instead of arguments.
        for (const [key, value] of request.getVariablesMap().entries()) {
          args[String(key).replace(`${PACKAGE}:config:`, "")] = value;
        }
      }
      instance.settings = settingsOf(args);
      const response = new proto.ConfigureResponse();
      response.setAcceptsecrets(true);
      response.setAcceptresources(false);
      response.setSupportspreview(false);
      return response;
    }),

    check: answer(async (request: proto.CheckRequest): Promise<CheckAnswer> => {
      const kind = kindOfRequest(request);
      const olds = unwrap(toJs(request.getOlds()));
      const news = unwrap(toJs(request.getNews()));
      // The lifecycle derives the create key from the URN (see `lifecycle/owner.ts`).
      const result = await run(0, () =>
        kind.methods().check(olds.plain, { ...news.plain, [OWNER]: request.getUrn() } as CommonInputs),
      );
      const { [OWNER]: _owner, ...inputs } = (result.inputs ?? news.plain) as Props;
      // What a dynamic resource warns in the program's process (see public/deprecatedInputs.ts).
      for (const warning of deprecatedInputWarnings(kind.declaration.type, news.plain)) {
        warnOn(request.getUrn(), warning);
      }
      return {
        // An input named like a secret output (an OAuth client's secret) is kept as secret as it.
        inputs: wrap(inputs, [...news.secrets, ...secretsOf(kind.declaration)]),
        failures: (result.failures ?? []).map((f) => ({ property: f.property, reason: f.reason })),
      };
    }),

    diff: answer(async (request: proto.DiffRequest): Promise<DiffAnswer> => {
      const kind = kindOfRequest(request);
      const olds = recorded(unwrap(toJs(request.getOlds())).plain, request.getOldInputs()) as CommonState;
      const news = unwrap(toJs(request.getNews())).plain as CommonInputs;
      const result = await run(0, () => kind.methods().diff(request.getId(), olds, news));
      // What the preview names: each changed path, judged (as the lifecycle's diff is) from the state's
      // outputs to the new inputs.
      const detailed = Object.entries(result.detailedDiff ?? {});
      return {
        replaces: result.replaces ?? [],
        stables: result.stables ?? [],
        deleteBeforeReplace: result.deleteBeforeReplace === true,
        changes:
          result.changes === true
            ? proto.DiffResponse.DiffChanges.DIFF_SOME
            : result.changes === false
              ? proto.DiffResponse.DiffChanges.DIFF_NONE
              : proto.DiffResponse.DiffChanges.DIFF_UNKNOWN,
        diffs: [...new Set(detailed.map(([path]) => path.split(/[.[]/)[0] ?? path))],
        detailedDiff: new Map(
          detailed.map(([path, change]) => [
            path,
            PROPERTY_CHANGES[change as keyof typeof PROPERTY_CHANGES] ?? proto.PropertyDiff.Kind.UPDATE,
          ]),
        ),
        hasDetailedDiff: detailed.length > 0,
      };
    }),

    create: answer(async (request: proto.CreateRequest) => {
      if (request.getPreview()) return previewed(new proto.CreateResponse(), request.getProperties());
      const kind = kindOfRequest(request);
      const inputs = unwrap(toJs(request.getProperties()));
      const result = await run(request.getTimeout(), () =>
        kind.methods().create({ ...inputs.plain, [OWNER]: request.getUrn() } as CommonInputs),
      );
      const response = new proto.CreateResponse();
      response.setId(result.id);
      response.setProperties(outputs(kind, result.outs as Props, inputs.secrets));
      return response;
    }, secretsFor),

    read: answer(async (request: proto.ReadRequest) => {
      const kind = kindOfRequest(request);
      const state = unwrap(toJs(request.getProperties()));
      const inputs = unwrap(toJs(request.getInputs()));
      // `pulumi import` sends an id alone: the read gets no state, and says when it needs one.
      const props =
        Object.keys(state.plain).length > 0
          ? (withBookkeepingFrom(state.plain, inputs.plain) as CommonState)
          : undefined;
      const result = await run(request.getTimeout(), () => kind.methods().read(request.getId(), props));
      const response = new proto.ReadResponse();
      response.setId(result.id ?? "");
      if (result.props !== undefined) {
        response.setProperties(outputs(kind, result.props as Props, [...state.secrets, ...inputs.secrets]));
      }
      if (result.inputs !== undefined) {
        // An input named like a secret output (an OAuth client's secret) is as secret as it.
        const secrets = [...secretsOf(kind.declaration), ...state.secrets, ...inputs.secrets];
        response.setInputs(toStruct(wrap(result.inputs as Props, secrets)));
      }
      return response;
    }),

    update: answer(async (request: proto.UpdateRequest) => {
      if (request.getPreview()) return previewed(new proto.UpdateResponse(), request.getNews());
      const kind = kindOfRequest(request);
      const olds = unwrap(toJs(request.getOlds()));
      const news = unwrap(toJs(request.getNews()));
      const result = await run(request.getTimeout(), () =>
        kind.methods().update(
          request.getId(),
          recorded(olds.plain, request.getOldInputs()) as CommonState,
          {
            ...news.plain,
            [OWNER]: request.getUrn(),
          } as CommonInputs,
        ),
      );
      const response = new proto.UpdateResponse();
      response.setProperties(outputs(kind, (result.outs ?? {}) as Props, [...olds.secrets, ...news.secrets]));
      return response;
    }, secretsFor),

    delete: answer(async (request: proto.DeleteRequest) => {
      const kind = kindOfRequest(request);
      const props = recorded(
        unwrap(toJs(request.getProperties())).plain,
        request.getOldInputs(),
      ) as CommonState;
      await run(request.getTimeout(), () => kind.methods().remove(request.getId(), props));
      return new Empty();
    }),

    /** A function (data source): its arguments checked against its declaration, run under this instance's settings. */
    invoke: answer(async (request: proto.InvokeRequest) => {
      const served = functions().functionOf(request.getTok());
      const args = unwrap(toJs(request.getArgs())).plain;
      const response = new proto.InvokeResponse();
      const failures = functions().argumentFailures(served.declaration, args);
      if (failures.length > 0) {
        response.setFailuresList(
          failures.map(([property, reason]) => {
            const failure = new proto.CheckFailure();
            failure.setProperty(property);
            failure.setReason(reason);
            return failure;
          }),
        );
        return response;
      }
      const result = await run(0, () => served.run(args));
      response.setReturn(toStruct(wrap(result, secretsOf(served.declaration))));
      return response;
    }),

    /**
     * A component (`PreviewEnvironment`), made here with its children for a program in any language.
     * Under this instance's settings: the engine sends the Construct to the provider the component's
     * options name, so its lookups use that provider's key and URL, as its children do.
     */
    construct: answer(async (request: proto.ConstructRequest) => {
      const address = engineAddress();
      if (address === undefined)
        throw new Error("pulumi-resource-clouddb was started without the engine's address");
      return run(0, () => construct().construct(request, address));
    }),

    cancel: answer(async () => new Empty()),
  };
}

/**
 * Starts the service on a free local port; resolves to the server and its port. Every method of
 * `ResourceProvider` is unary: it is served over HTTP/2 directly (unaryServer.ts, h2.ts), and
 * `Check` and `Diff`, sent for every resource, read their `Struct`s from the wire and write their
 * answers to it directly (wire.ts).
 */
export function serve(): Promise<{ server: net.Server; port: number }> {
  const service = {
    ...ResourceProviderService,
    check: {
      ...ResourceProviderService.check,
      requestDeserialize: readCheckRequest,
      responseSerialize: writeCheckResponse,
    },
    diff: {
      ...ResourceProviderService.diff,
      requestDeserialize: readDiffRequest,
      responseSerialize: writeDiffResponse,
    },
  };
  return serveUnary(
    service as unknown as Record<string, UnaryMethod>,
    resourceProviderService() as unknown as Record<string, UnaryHandler>,
  );
}
