/**
 * What a resource declaration is, and the types derived from it. A declaration is plain data: each
 * input (its type, whether it is required, how a change is applied) and each output (its type,
 * whether it may be null or absent, whether it is a secret), in the vocabulary of a Pulumi package
 * schema, each documented by the JSDoc on its property. The Args a program passes, the Inputs and
 * Outputs the provider works with, the class's fields, the outputs it seeds and the secrets it asks
 * for all come from it, so they cannot disagree. The data sources (`declareFunction`) and the
 * provider's configuration (`declareConfig`) are declared in the same vocabulary; the package schema
 * is derived from all three. Like the rest of `public/`, this module loads neither zod nor the
 * client, and its declarations reach neither.
 */
import type * as pulumi from "@pulumi/pulumi";

/** How a change of one input is applied: a new object, an in-place update, or nothing at all. */
export type Change = "replace" | "update" | "ignore";

// ---------------------------------------------------------------- types

/** A scalar: `integer` is a whole number (a TypeScript `number`). */
export interface ScalarType {
  readonly type: "string" | "number" | "integer" | "boolean";
}

/**
 * A string from a list. An open list is one the API may grow: a program gives one of the listed
 * values, and the state records whatever value the API reports.
 */
export interface EnumType {
  readonly type: "string";
  /** The type's name in a schema, e.g. `EndpointType`. */
  readonly name: string;
  readonly enum: readonly string[];
  readonly open: boolean;
}

export interface ArrayType {
  readonly type: "array";
  readonly items: Type;
}

/** An object of named properties, e.g. `Timeouts`. */
export interface ObjectType {
  readonly type: "object";
  /** The type's name in a schema. */
  readonly name: string;
  readonly properties: { readonly [name: string]: Property };
}

/** A value of any of the types. */
export interface UnionType {
  readonly oneOf: readonly Type[];
}

export type Type = ScalarType | EnumType | ArrayType | ObjectType | UnionType;

/** A property of an object type: present unless `optional`, never null unless `nullable`. */
export interface Property {
  readonly type: Type;
  readonly optional?: true;
  readonly nullable?: true;
}

/** An input: optional unless `required`. */
export interface Input {
  readonly type: Type;
  readonly required?: true;
  /** How a change of it is applied. */
  readonly change: Change;
}

/** An output: always in the state unless `optional`, never null unless `nullable`. */
export interface Output extends Property {
  /** Kept as a Pulumi secret, encrypted in the state. */
  readonly secret?: true;
}

/** One resource kind, declared. Document each input and output with a one-line JSDoc. */
export interface ResourceDeclaration {
  /** The type name: `clouddb:<type>` in the token `pulumi-nodejs:dynamic/clouddb:<type>`. */
  readonly type: string;
  /** The methods module the provider loads, as `moduleRef` gives it. */
  readonly methods: string;
  readonly inputs: { readonly [name: string]: Input };
  /** What the class exposes; the state also keeps the inputs that are not outputs. */
  readonly outputs: { readonly [name: string]: Output };
}

/** An argument of a function (a data source): optional unless `required`. */
export interface Argument {
  readonly type: Type;
  readonly required?: true;
}

/** One function (a data source), declared. Document each input and output with a one-line JSDoc. */
export interface FunctionDeclaration {
  /** The function's name, e.g. `getProjects`: `clouddb:index:<name>` in a package schema. */
  readonly name: string;
  readonly inputs: { readonly [name: string]: Argument };
  /** What the function returns; a `secret` output holds a credential. */
  readonly outputs: { readonly [name: string]: Output };
}

/** A setting of the provider's configuration: `clouddb:<name>` in a stack, always optional. */
export interface Setting {
  readonly type: ScalarType;
  /** Kept as a Pulumi secret (`pulumi config set --secret`). */
  readonly secret?: true;
}

export const STRING = { type: "string" } as const;
export const NUMBER = { type: "number" } as const;
export const INTEGER = { type: "integer" } as const;
export const BOOLEAN = { type: "boolean" } as const;

/** A list of `items`. */
export function arrayOf<const T extends Type>(items: T): { readonly type: "array"; readonly items: T } {
  return { type: "array", items };
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
export function oneOf<const T extends readonly Type[]>(...types: T): { readonly oneOf: T } {
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

/** The outputs kept as Pulumi secrets, in declaration order. */
export function secretsOf<D extends ResourceDeclaration>(declaration: D): SecretsOf<D>[] {
  return Object.keys(declaration.outputs).filter(
    (name) => declaration.outputs[name]?.secret === true,
  ) as SecretsOf<D>[];
}

/** The change table: how a change of each input is applied. */
export function changesOf<D extends ResourceDeclaration>(declaration: D): ChangesOf<D> {
  return Object.fromEntries(
    Object.entries(declaration.inputs).map(([name, input]) => [name, input.change]),
  ) as ChangesOf<D>;
}

// ---------------------------------------------------------------- derived types
// The derived types are written inline rather than through helper aliases where an editor shows
// them: a field's type then reads `Output<string | null>`, not the name of a helper.

/** A value of type `T` as the state records it (an open list's values as the API reports them). */
export type ValueOf<T> = T extends { readonly enum: readonly (infer V)[]; readonly open: true }
  ? V | (string & {})
  : T extends { readonly enum: readonly (infer V)[] }
    ? V
    : T extends { readonly type: "string" }
      ? string
      : T extends { readonly type: "number" | "integer" }
        ? number
        : T extends { readonly type: "boolean" }
          ? boolean
          : T extends { readonly type: "array"; readonly items: infer I }
            ? ValueOf<I>[]
            : T extends { readonly type: "object"; readonly properties: infer P }
              ? {
                  -readonly [K in keyof P as IsOptional<P[K]> extends true ? never : K]: PropertyValue<P[K]>;
                } & {
                  -readonly [K in keyof P as IsOptional<P[K]> extends true ? K : never]?:
                    | PropertyValue<P[K]>
                    | undefined;
                } extends infer O
                ? { [K in keyof O]: O[K] }
                : never
              : T extends { readonly oneOf: readonly (infer U)[] }
                ? ValueOf<U>
                : never;

/** A property's value: its type's, or null when `nullable`. */
type PropertyValue<F> = F extends { readonly type: infer T }
  ? F extends { readonly nullable: true }
    ? ValueOf<T> | null
    : ValueOf<T>
  : never;

type IsOptional<F> = F extends { readonly optional: true } ? true : false;

type IsRequired<F> = F extends { readonly required: true } ? true : false;

/** The object whose properties `P` declares. */
export type ObjectOf<P> = ValueOf<{ type: "object"; properties: P }>;

/** The inputs as the provider sees them: plain values, those left out absent. */
export type InputsOf<D extends ResourceDeclaration> = {
  -readonly [K in keyof D["inputs"] as IsRequired<D["inputs"][K]> extends true ? K : never]: ValueOf<
    D["inputs"][K]["type"]
  >;
} & {
  -readonly [K in keyof D["inputs"] as IsRequired<D["inputs"][K]> extends true ? never : K]?:
    | ValueOf<D["inputs"][K]["type"]>
    | undefined;
};

/** Everything the state records: the outputs, and the inputs that are not outputs. */
export type StateOf<D extends ResourceDeclaration> = Omit<InputsOf<D>, keyof D["outputs"]> &
  ObjectOf<D["outputs"]>;

/** A value a program may give for type `T`, without the outer `Input`: any part may be another resource's output. */
type ArgValueOf<T> = T extends { readonly enum: readonly (infer V)[] }
  ? V
  : T extends { readonly type: "array"; readonly items: infer I }
    ? pulumi.Input<ArgValueOf<I>>[]
    : T extends { readonly type: "object"; readonly properties: infer P }
      ? {
          -readonly [K in keyof P as IsOptional<P[K]> extends true ? never : K]: P[K] extends {
            readonly type: infer T;
          }
            ? pulumi.Input<ArgValueOf<T>>
            : never;
        } & {
          -readonly [K in keyof P as IsOptional<P[K]> extends true ? K : never]?: P[K] extends {
            readonly type: infer T;
          }
            ? pulumi.Input<ArgValueOf<T>> | undefined
            : never;
        } extends infer O
        ? { [K in keyof O]: O[K] }
        : never
      : T extends { readonly oneOf: readonly (infer U)[] }
        ? ArgValueOf<U>
        : ValueOf<T>;

/** What a program passes to the class's constructor. */
export type ArgsOf<D extends ResourceDeclaration> = {
  [K in keyof D["inputs"] as IsRequired<D["inputs"][K]> extends true ? K : never]: pulumi.Input<
    ArgValueOf<D["inputs"][K]["type"]>
  >;
} & {
  [K in keyof D["inputs"] as IsRequired<D["inputs"][K]> extends true ? never : K]?: pulumi.Input<
    ArgValueOf<D["inputs"][K]["type"]>
  >;
};

/** The class's fields: one Output per declared output. */
export type OutputFields<D extends ResourceDeclaration> = {
  readonly [K in keyof D["outputs"]]: pulumi.Output<
    PropertyValue<D["outputs"][K]> | (IsOptional<D["outputs"][K]> extends true ? undefined : never)
  >;
};

/** The names of the secret outputs. */
export type SecretsOf<D extends ResourceDeclaration> = {
  [K in keyof D["outputs"]]: D["outputs"][K] extends { readonly secret: true } ? K : never;
}[keyof D["outputs"]] &
  string;

/** The change table's type. */
export type ChangesOf<D extends ResourceDeclaration> = {
  readonly [K in keyof D["inputs"]]: D["inputs"][K]["change"];
};

/** What a program passes to a function: plain values, those left out absent. */
export type FunctionArgsOf<D extends FunctionDeclaration> = {
  -readonly [K in keyof D["inputs"] as IsRequired<D["inputs"][K]> extends true ? K : never]: ValueOf<
    D["inputs"][K]["type"]
  >;
} & {
  -readonly [K in keyof D["inputs"] as IsRequired<D["inputs"][K]> extends true ? never : K]?: ValueOf<
    D["inputs"][K]["type"]
  >;
};

/** What a function returns: readonly fields, the `optional` ones absent rather than undefined. */
export type FunctionResultOf<D extends FunctionDeclaration> = ResultObjectOf<D["outputs"]>;

/** A result's object whose properties `P` declares: readonly fields, the `optional` ones absent rather than undefined. */
export type ResultObjectOf<P> = {
  readonly [K in keyof P as IsOptional<P[K]> extends true ? never : K]: ResultPropertyValue<P[K]>;
} & {
  readonly [K in keyof P as IsOptional<P[K]> extends true ? K : never]?: ResultPropertyValue<P[K]>;
} extends infer O
  ? { [K in keyof O]: O[K] }
  : never;

type ResultPropertyValue<F> = F extends { readonly type: infer T }
  ? F extends { readonly nullable: true }
    ? ResultValueOf<T> | null
    : ResultValueOf<T>
  : never;

/** A value of type `T` in a result: objects as `ResultObjectOf`. */
type ResultValueOf<T> = T extends { readonly type: "array"; readonly items: infer I }
  ? ResultValueOf<I>[]
  : T extends { readonly type: "object"; readonly properties: infer P }
    ? ResultObjectOf<P>
    : ValueOf<T>;

/** The configuration's values: each setting optional. */
export type SettingsOf<C extends { readonly [name: string]: Setting }> = {
  -readonly [K in keyof C]?: ValueOf<C[K]["type"]>;
};
