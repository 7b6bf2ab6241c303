import type { Logger } from "../log";
import { idParams, openRoute, parseWith } from "./route";
import { declareRoute } from "./route-options";
import type { RouteDocs } from "./route-docs";

/**
 * openRoute() for a path with an `{id}` (a UUID, 400 otherwise): a route that takes no credentials
 * at all, whose callers prove themselves otherwise (a webhook's signature, a run id as capability).
 * An Authorization header such a caller happens to send is not read. `idempotency` declares (for the
 * OpenAPI document) that the handler takes an `Idempotency-Key`, which it applies itself (answerOnce).
 */
export function openRouteWithId(
  opts: { docs: RouteDocs; idempotency?: object },
  handler: (ctx: { req: Request; id: string; requestId: string; log: Logger }) => Promise<unknown>,
) {
  const handle = async (req: Request, ctx?: { params: Promise<Record<string, string | string[]>> }) => {
    const params = ctx ? await ctx.params : {};
    return openRoute(opts, async (c) => {
      const { id } = parseWith(idParams, params, "path") as { id: string };
      return handler({ ...c, id });
    })(req);
  };
  return declareRoute(handle, {
    auth: "public",
    params: idParams,
    docs: opts.docs,
    ...(opts.idempotency ? { idempotency: opts.idempotency } : {}),
  });
}
