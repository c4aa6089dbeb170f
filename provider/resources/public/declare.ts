/**
 * How a resource is declared, and what is derived from a declaration at run time (the shapes and
 * the derived types are in `shapes.ts`). A declaration is plain data: each
 * input (its type, whether it is required, how a change is applied) and each output (its type,
 * whether it may be null or absent, whether it is a secret), in the vocabulary of a Pulumi package
 * schema, each documented by the JSDoc on its property. The Args a program passes, the Inputs and
 * Outputs the provider works with, the class's fields, the outputs it seeds and the secrets it asks
 * for all come from it, so they cannot disagree. The data sources (`declareFunction`) and the
 * provider's configuration (`declareConfig`) are declared in the same vocabulary; the package schema
 * is derived from all three. Like the rest of `public/`, this module loads neither zod nor the
 * client, and its declarations reach neither.
 */
import type {
  Argument,
  ChangesOf,
  ComponentDeclaration,
  ElementType,
  EnumType,
  FunctionDeclaration,
  Input,
  ObjectType,
  Output,
  Property,
  ResourceDeclaration,
  ScalarType,
  SecretsOf,
  Setting,
} from "./shapes";

// The shapes and derived types are in `shapes.ts`, which public declaration files refer to.
export type * from "./shapes";

export const STRING = { type: "string" } as const;
export const NUMBER = { type: "number" } as const;
export const INTEGER = { type: "integer" } as const;
export const BOOLEAN = { type: "boolean" } as const;

/** A list of `items`. */
export function arrayOf<const T extends ElementType>(
  items: T,
): { readonly type: "array"; readonly items: T } {
  return { type: "array", items };
}

/** A map from strings to `values`. */
export function mapOf<const T extends ScalarType>(values: T): { readonly type: "map"; readonly values: T } {
  return { type: "map", values };
}

/** A string from `values`; `open` when the API may report others (see `EnumType`). */
export function enumOf<const V extends readonly string[], const O extends boolean = false>(
  name: string,
  values: V,
  options?: { open: O },
): { readonly type: "string"; readonly name: string; readonly enum: V; readonly open: O } {
  return { type: "string", name, enum: values, open: (options?.open ?? false) as O };
}

/** An object type named `name`; document each property with a one-line JSDoc. */
export function objectType<const P extends ObjectType["properties"]>(
  name: string,
  properties: P & Exactly<P, Property>,
): { readonly type: "object"; readonly name: string; readonly properties: P } {
  return { type: "object", name, properties };
}

/** A value of any of `types`. */
export function oneOf<const T extends readonly (ScalarType | EnumType)[]>(
  ...types: T
): { readonly oneOf: T } {
  return { oneOf: types };
}

/**
 * Declares a resource kind. The compiler refuses a field it does not know (a typo such as
 * `secert`) and an output named like a credential (`password`, `key`, `token`, `*Uri`, ...) that is
 * not a secret.
 */
export function declareResource<const D extends ResourceDeclaration>(
  declaration: D & {
    inputs: Exactly<D["inputs"], Input>;
    outputs: Exactly<D["outputs"], Output> & CredentialsSecret<D["outputs"]>;
    importId?: readonly (keyof D["inputs"] | keyof D["outputs"])[];
  },
): D {
  return declaration;
}

/** Declares a function (a data source); the compiler refuses the same mistakes as in `declareResource`. */
export function declareFunction<const D extends FunctionDeclaration>(
  declaration: D & {
    inputs: Exactly<D["inputs"], Argument>;
    outputs: Exactly<D["outputs"], Output> & CredentialsSecret<D["outputs"]>;
  },
): D {
  return declaration;
}

/** Declares a component resource; the compiler refuses the same mistakes as in `declareResource`. */
export function declareComponent<const D extends ComponentDeclaration>(
  declaration: D & {
    inputs: Exactly<D["inputs"], Argument>;
    outputs: Exactly<D["outputs"], Output> & CredentialsSecret<D["outputs"]>;
  },
): D {
  return declaration;
}

/** Declares the provider's configuration: each setting with its type and a one-line JSDoc. */
export function declareConfig<const C extends { readonly [name: string]: Setting }>(
  settings: C & Exactly<C, Setting> & CredentialsSecret<C>,
): C {
  return settings;
}

/** Names of outputs that hold a credential: each must be declared `secret: true`. */
type CredentialName =
  | "key"
  | "password"
  | "token"
  | "secret"
  | `${string}Key`
  | `${string}Password`
  | `${string}Token`
  | `${string}Secret`
  | `${string}Uri`;

type CredentialsSecret<O> = {
  readonly [K in keyof O]: K extends CredentialName ? { secret: true } : unknown;
};

/** Each field of `F` with no key beyond those of `Field`. */
type Exactly<F, Field> = { readonly [K in keyof F]: Record<Exclude<keyof F[K], keyof Field>, never> };

// ---------------------------------------------------------------- derived values

/** The output names, in declaration order: each is seeded so it is an Output on the object. */
export function outputNames<D extends ResourceDeclaration>(declaration: D): (keyof D["outputs"] & string)[] {
  return Object.keys(declaration.outputs);
}

/** The outputs (of a resource or a function) kept as Pulumi secrets, in declaration order. */
export function secretsOf<D extends Pick<ResourceDeclaration, "outputs">>(declaration: D): SecretsOf<D>[] {
  return Object.keys(declaration.outputs).filter(
    (name) => declaration.outputs[name]?.secret === true,
  ) as SecretsOf<D>[];
}

/**
 * The shape of an import id carrying `names` (a declaration's `importId`) of an object of kind
 * `kind`: `<projectId>/<branchId>`; a `name` is shown as the kind's, `<roleName>`.
 */
export function importIdShape(kind: string, names: readonly string[]): string {
  return names.map((name) => `<${name === "name" ? `${kind.toLowerCase()}Name` : name}>`).join("/");
}

/** The change table: how a change of each input is applied. */
export function changesOf<D extends ResourceDeclaration>(declaration: D): ChangesOf<D> {
  return Object.fromEntries(
    Object.entries(declaration.inputs).map(([name, input]) => [name, input.change]),
  ) as ChangesOf<D>;
}

/** The inputs the API fills in when left out (declared `computed`), in declaration order. */
export function computedOf<D extends ResourceDeclaration>(declaration: D): (keyof D["inputs"] & string)[] {
  return Object.keys(declaration.inputs).filter((name) => declaration.inputs[name]?.computed === true);
}
