/** Types of fast-routes.mjs (plain ESM so scripts/start.mjs can run it under node). */
export declare const API_RESPONSE_HEADERS: Readonly<Record<string, string>>;
/**
 * A request listener that answers the requests it serves and returns true, or returns false for
 * Next to answer; `served` counts the requests it answered.
 */
export type FastRoutes = ((
  req: import("node:http").IncomingMessage,
  res: import("node:http").ServerResponse,
) => boolean) & { readonly served: number };
export declare function loadFastRoutes(
  root: string,
  distDir?: string,
): Promise<{ fast: FastRoutes; reason: null } | { fast: null; reason: string }>;
export declare function createFastRoutes(
  POST: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>,
  started: Promise<unknown>,
): FastRoutes;
