import { refuseOtherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/responses";
import { openRoute } from "@/lib/http/route";
import { openApiDocument } from "@/lib/openapi/document";

/**
 * The OpenAPI 3.1 document of every route (lib/openapi). Public like /ping: it holds no secrets and
 * API clients fetch it without credentials; any credentials sent are ignored. openRoute (like
 * /health) gives it a request id and a log line.
 */
export const GET = openRoute(async () => json(openApiDocument(), 200, { "cache-control": "public, max-age=300" }));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
