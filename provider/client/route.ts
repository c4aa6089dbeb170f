/**
 * What a route module (`api/*.ts`) is to the client: every value it exports is a route, a function
 * taking the client's context first and then the method's own parameters. `createClient` binds each
 * route to its context, and `CloudDbClient`'s methods are the routes' types with the context taken
 * off, so a route's signature and doc are written once, in its module.
 */
import type { ClientContext } from "./context";

/** A route answering once: it gets the context resolved when the method is called. */
export type Route<A extends unknown[], R> = (ctx: ClientContext, ...args: A) => R;

const ITERABLE: unique symbol = Symbol("pulumi-clouddb.iterableRoute");

/**
 * A route answering with an async iterable: it gets the context maker, so each `for await`
 * resolves the key and starts its deadline then, and a bad argument throws at the call.
 */
export type IterableRoute<A extends unknown[], R> = ((context: () => ClientContext, ...args: A) => R) & {
  readonly [ITERABLE]: true;
};

/** Declares an iterable route (see `IterableRoute`). */
export function iterableRoute<A extends unknown[], R>(
  route: (context: () => ClientContext, ...args: A) => R,
): IterableRoute<A, R> {
  return Object.assign(route, { [ITERABLE]: true as const });
}

/** A route module's routes as client methods: each route's parameters after the context. */
export type Methods<M> = {
  [K in keyof M]: M[K] extends IterableRoute<infer A, infer R>
    ? (...args: A) => R
    : M[K] extends Route<infer A, infer R>
      ? (...args: A) => R
      : never;
};

type AnyRoute = Route<never[], unknown> | IterableRoute<never[], unknown>;

/**
 * One method per route, as own properties (so a test can stub one). A route that answers once is
 * bound through an async function, which turns a synchronous throw (configuration, an argument)
 * into a rejection.
 */
export function bindRoutes<M extends Record<string, AnyRoute>>(
  context: () => ClientContext,
  routes: M,
): Methods<M> {
  const methods: Record<string, (...args: never[]) => unknown> = {};
  for (const [name, route] of Object.entries(routes)) {
    methods[name] =
      ITERABLE in route
        ? (...args: never[]) => route(context, ...args)
        : async (...args: never[]) => (route as Route<never[], unknown>)(context(), ...args);
  }
  // The loop gives every key of `routes` the method its type names.
  return methods as Methods<M>;
}
