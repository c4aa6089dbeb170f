/**
 * The shape of a resource declaration and the types derived from it: the Args a program passes,
 * the Inputs and Outputs the provider works with, the class's fields. Every public declaration file
 * of the package refers to this one, and Pulumi compiles a program with the TypeScript it bundles
 * (3.8) when the project brings none: so this module is written in what TypeScript 3.8 reads (no
 * key remapping, template literal types or `const` type parameters; those live in `declare.ts`,
 * which no public declaration file refers to). `tests/e2e/publicSurface.test.ts` compiles a program
 * with that TypeScript. Like the rest of `public/`, it loads neither zod nor the client.
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

/** A list; its items are not lists (see `ValueOf`). */
export interface ArrayType {
  readonly type: "array";
  readonly items: ElementType;
}

/** An object of named properties, e.g. `Timeouts`. */
export interface ObjectType {
  readonly type: "object";
  /** The type's name in a schema. */
  readonly name: string;
  readonly properties: { readonly [name: string]: Property };
}

/** A value of any of the scalar types (see `ValueOf`). */
export interface UnionType {
  readonly oneOf: readonly (ScalarType | EnumType)[];
}

/** A map from any string to values of one scalar type, e.g. Postgres settings by name. */
export interface MapType {
  readonly type: "map";
  readonly values: ScalarType;
}

/** A type that is not a list. */
export type ElementType = ScalarType | EnumType | ObjectType | UnionType;

export type Type = ElementType | ArrayType | MapType;

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
  /**
   * Left out, the API fills it in (a generated name, the default parent, the project's compute
   * settings); left out later, it is no opinion and the object keeps what it has.
   */
  readonly computed?: true;
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
  /** How messages name an object of the kind: `branch`, `API key`. */
  readonly noun: string;
  /**
   * The API family its calls belong to: the client's route module `provider/client/api/<family>.ts`
   * and response schemas `provider/client/schemas/<family>.ts`, the emulator's
   * `families/<family>.ts` and `routes/<family>.ts` (in kebab case there).
   */
  readonly family: string;
  readonly inputs: { readonly [name: string]: Input };
  /** What the class exposes; the state also keeps the inputs that are not outputs. */
  readonly outputs: { readonly [name: string]: Output };
  /**
   * What an id given to `pulumi import` carries, in order, joined by `/`: the parents a read needs,
   * then the object's own key (`["projectId", "branchId"]` for `<projectId>/<branchId>`). Left out,
   * the kind cannot be imported.
   */
  readonly importId?: readonly string[];
}

/**
 * A component resource: children of the package's kinds, made by the provider plugin's `Construct`
 * for every language and by a class in TypeScript. Its inputs are arguments (nothing is diffed: its
 * children are).
 */
export interface ComponentDeclaration {
  /** The type name: `clouddb:index:<type>`. */
  readonly type: string;
  readonly inputs: { readonly [name: string]: Argument };
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

// ---------------------------------------------------------------- derived types
// The derived types keep each property's doc (they map over `keyof`, or pick like `Pick`), so an
// editor shows it on a class's field and in an Args object.

/** The keys of `T` whose field is a `Field` (for a declaration: the required inputs, the optional properties). */
type KeysWhere<T, Field> = { [K in keyof T]-?: T[K] extends Field ? K : never }[keyof T];

/** `T`'s properties `K`, optional and possibly `undefined`; like `Pick`, it keeps each property's doc. */
type PickUndefinable<T, K extends keyof T> = { [P in K]?: T[P] | undefined };

/** `T`'s properties `K`, optional; like `Pick`, it keeps each property's doc. */
type PickOptional<T, K extends keyof T> = { [P in K]?: T[P] };

/** `T` as one object type, so an editor shows its properties rather than an intersection. */
type Flat<T> = T extends infer O ? { [K in keyof O]: O[K] } : never;

/** The properties of an object type's `P` that may be left out. */
type OptionalProperties<P> = KeysWhere<P, { readonly optional: true }>;

/** The inputs of `I` a program must give. */
type RequiredInputs<I> = KeysWhere<I, { readonly required: true }>;

/** A scalar of type `T` as the state records it (an open list's values as the API reports them). */
type ScalarOf<T> = T extends { readonly enum: readonly (infer V)[]; readonly open: true }
  ? V | (string & {})
  : T extends { readonly enum: readonly (infer V)[] }
    ? V
    : T extends { readonly type: "string" }
      ? string
      : T extends { readonly type: "number" | "integer" }
        ? number
        : T extends { readonly type: "boolean" }
          ? boolean
          : never;

/** A value of type `T` that is not a list: an object, a union of scalars, or a scalar. */
type ElementOf<T> = T extends { readonly type: "object"; readonly properties: infer P }
  ? ObjectOf<P>
  : T extends { readonly oneOf: readonly (infer U)[] }
    ? ScalarOf<U>
    : ScalarOf<T>;

/**
 * A value of type `T` as the state records it. Written without a conditional type that names
 * itself, which TypeScript 3.8 refuses: a list's items and a union's members are not lists, and
 * a union's members are scalars (`declareResource` holds no other).
 */
export type ValueOf<T> = T extends { readonly type: "array"; readonly items: infer I }
  ? ElementOf<I>[]
  : T extends { readonly type: "map"; readonly values: infer V }
    ? { [key: string]: ScalarOf<V> }
    : ElementOf<T>;

/** A property's value: its type's, or null when `nullable`. */
type PropertyValue<F> = F extends { readonly type: infer T }
  ? F extends { readonly nullable: true }
    ? ValueOf<T> | null
    : ValueOf<T>
  : never;

/** Each property of `P` with its value. */
type PropertyValues<P> = { -readonly [K in keyof P]: PropertyValue<P[K]> };

/** The object whose properties `P` declares. */
export type ObjectOf<P> = Flat<
  Pick<PropertyValues<P>, Exclude<keyof P, OptionalProperties<P>>> &
    PickUndefinable<PropertyValues<P>, OptionalProperties<P>>
>;

/** Each input (or function argument) of `I` with its plain value. */
type InputValues<I> = {
  -readonly [K in keyof I]: I[K] extends { readonly type: infer T } ? ValueOf<T> : never;
};

/** The inputs as the provider sees them: plain values, those left out absent. */
export type InputsOf<D extends ResourceDeclaration> = Pick<
  InputValues<D["inputs"]>,
  RequiredInputs<D["inputs"]>
> &
  PickUndefinable<InputValues<D["inputs"]>, Exclude<keyof D["inputs"], RequiredInputs<D["inputs"]>>>;

/** Everything the state records: the outputs, and the inputs that are not outputs. */
export type StateOf<D extends ResourceDeclaration> = Pick<
  InputsOf<D>,
  Exclude<keyof InputsOf<D>, keyof D["outputs"]>
> &
  ObjectOf<D["outputs"]>;

/** A value that is not a list a program may give for type `T`: any part may be another resource's output. */
type ArgElementOf<T> = T extends { readonly type: "object"; readonly properties: infer P }
  ? Flat<
      Pick<ArgValues<P>, Exclude<keyof P, OptionalProperties<P>>> &
        PickUndefinable<ArgValues<P>, OptionalProperties<P>>
    >
  : T extends { readonly oneOf: readonly (infer U)[] }
    ? ArgScalarOf<U>
    : ArgScalarOf<T>;

/** A scalar a program may give: one of a list's values, open or not. */
type ArgScalarOf<T> = T extends { readonly enum: readonly (infer V)[] } ? V : ScalarOf<T>;

/** A value a program may give for type `T`, without the outer `Input`. */
type ArgValueOf<T> = T extends { readonly type: "array"; readonly items: infer I }
  ? pulumi.Input<ArgElementOf<I>>[]
  : T extends { readonly type: "map"; readonly values: infer V }
    ? { [key: string]: pulumi.Input<ArgScalarOf<V>> }
    : ArgElementOf<T>;

/** Each property (or input) of `P` as a program may give it. */
type ArgValues<P> = {
  -readonly [K in keyof P]: P[K] extends { readonly type: infer T } ? pulumi.Input<ArgValueOf<T>> : never;
};

/** What a program passes to the class's constructor. */
export type ArgsOf<D extends Pick<ResourceDeclaration | ComponentDeclaration, "inputs">> = Pick<
  ArgValues<D["inputs"]>,
  RequiredInputs<D["inputs"]>
> &
  PickOptional<ArgValues<D["inputs"]>, Exclude<keyof D["inputs"], RequiredInputs<D["inputs"]>>>;

/** The class's fields: one Output per declared output. */
export type OutputFields<D extends Pick<ResourceDeclaration, "outputs">> = {
  readonly [K in keyof D["outputs"]]: pulumi.Output<
    PropertyValue<D["outputs"][K]> | (D["outputs"][K] extends { readonly optional: true } ? undefined : never)
  >;
};

/** The names of the secret outputs. */
export type SecretsOf<D extends Pick<ResourceDeclaration, "outputs">> = {
  [K in keyof D["outputs"]]: D["outputs"][K] extends { readonly secret: true } ? K : never;
}[keyof D["outputs"]] &
  string;

/** The change table's type. */
export type ChangesOf<D extends ResourceDeclaration> = {
  readonly [K in keyof D["inputs"]]: D["inputs"][K]["change"];
};

/** What a program passes to a function: plain values, those left out absent. */
export type FunctionArgsOf<D extends FunctionDeclaration> = Pick<
  InputValues<D["inputs"]>,
  RequiredInputs<D["inputs"]>
> &
  PickOptional<InputValues<D["inputs"]>, Exclude<keyof D["inputs"], RequiredInputs<D["inputs"]>>>;

/** What a function returns: readonly fields, the `optional` ones absent rather than undefined. */
export type FunctionResultOf<D extends FunctionDeclaration> = ResultObjectOf<D["outputs"]>;

/** Each property of `P` with its value in a result. */
type ResultValues<P> = { readonly [K in keyof P]: ResultPropertyValue<P[K]> };

/** A result's object whose properties `P` declares: readonly fields, the `optional` ones absent rather than undefined. */
export type ResultObjectOf<P> = Flat<
  Pick<ResultValues<P>, Exclude<keyof P, OptionalProperties<P>>> &
    PickOptional<ResultValues<P>, OptionalProperties<P>>
>;

type ResultPropertyValue<F> = F extends { readonly type: infer T }
  ? F extends { readonly nullable: true }
    ? ResultValueOf<T> | null
    : ResultValueOf<T>
  : never;

/** A value that is not a list in a result: objects as `ResultObjectOf`. */
type ResultElementOf<T> = T extends { readonly type: "object"; readonly properties: infer P }
  ? ResultObjectOf<P>
  : ValueOf<T>;

/** A value of type `T` in a result (without a conditional type that names itself, see `ValueOf`). */
type ResultValueOf<T> = T extends { readonly type: "array"; readonly items: infer I }
  ? ResultElementOf<I>[]
  : ResultElementOf<T>;

/** The configuration's values: each setting optional. */
export type SettingsOf<C extends { readonly [name: string]: Setting }> = {
  -readonly [K in keyof C]?: ValueOf<C[K]["type"]>;
};
