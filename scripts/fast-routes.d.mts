/** Types of fast-routes.mjs (plain ESM so scripts/start.mjs can run it under node). */
export declare const API_RESPONSE_HEADERS: Readonly<Record<string, string>>;
export declare function loadFastRoutes(
  root: string,
  distDir?: string,
): Promise<((req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => boolean) | null>;
export declare function createFastRoutes(
  POST: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>,
  started: Promise<unknown>,
): (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => boolean;
