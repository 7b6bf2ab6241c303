/**
 * Every handler route() returns carries its options (auth policy, params/query/body schemas) under
 * this symbol, so tests can check that the OpenAPI document (lib/openapi) names the very schemas a
 * route validates with. Wrappers (withCors, header adders) pass it on with keepRouteOptions.
 */
export const ROUTE_OPTIONS = Symbol.for("switchyard.routeOptions");

/** The options route() was given for this handler, if it came from route(). */
export function routeOptionsOf(handler: unknown): unknown {
  return typeof handler === "function" ? (handler as unknown as Record<symbol, unknown>)[ROUTE_OPTIONS] : undefined;
}

/** Marks `wrapper` with the options of the handler it wraps; returns the wrapper. */
export function keepRouteOptions<T extends object>(wrapper: T, inner: unknown): T {
  const options = routeOptionsOf(inner);
  if (options !== undefined) Object.defineProperty(wrapper, ROUTE_OPTIONS, { value: options });
  return wrapper;
}
