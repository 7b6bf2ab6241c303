import type { ZodType } from "zod";
import type { AuthPolicy } from "@/common/access/permissions";
import type { BodySpec } from "./body";
import type { RouteDocs } from "./route-docs";

/**
 * Every handler route() returns carries its declaration (auth policy, params/query/body schemas and
 * its docs) under this symbol: the OpenAPI document (lib/openapi) is made from it, so it names the
 * very schemas a route validates with. Handlers made otherwise (openRoute, declareRoute) carry one
 * too; wrappers (withCors, header adders) pass it on with keepRouteOptions. A non-enumerable
 * property set once when the module loads: requests never read it.
 */
export const ROUTE_OPTIONS = Symbol.for("switchyard.routeOptions");

/** What a route declares about itself: who may call, what it takes, and its documentation. */
export type RouteDeclaration = {
  /** The route's policy, or `"public"` for handlers that take no credentials at all (ping, health, the document). */
  auth: AuthPolicy | "public";
  params?: ZodType;
  query?: ZodType;
  body?: BodySpec<unknown, unknown>;
  /** Present when the route takes an `Idempotency-Key` (lib/http/idempotency.ts). */
  idempotency?: object;
  docs: RouteDocs;
};

/** The declaration of this handler (from route(), openRoute() or declareRoute()), if it has one. */
export function routeOptionsOf(handler: unknown): RouteDeclaration | undefined {
  return typeof handler === "function"
    ? ((handler as unknown as Record<symbol, unknown>)[ROUTE_OPTIONS] as RouteDeclaration | undefined)
    : undefined;
}

/** Attaches a declaration to a handler not made by route() (e.g. a plain function); returns the handler. */
export function declareRoute<T extends object>(handler: T, declaration: RouteDeclaration): T {
  Object.defineProperty(handler, ROUTE_OPTIONS, { value: declaration });
  return handler;
}

/** Marks `wrapper` with the declaration of the handler it wraps; returns the wrapper. */
export function keepRouteOptions<T extends object>(wrapper: T, inner: unknown): T {
  const options = routeOptionsOf(inner);
  return options === undefined ? wrapper : declareRoute(wrapper, options);
}
