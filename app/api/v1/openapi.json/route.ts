import { z } from "zod";
import { refuseOtherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/responses";
import { openRoute } from "@/lib/http/route";
import { openApiDocument } from "@/lib/openapi/document";
import type { RouteFile } from "@/lib/openapi/declared";
import { OPENAPI_ROUTE_FILE } from "@/lib/openapi/route-index";
import { ROUTE_FILES } from "./routes.generated";

/**
 * The OpenAPI 3.1 document of every route, made from the routes' own declarations (lib/openapi).
 * Public like /ping: it holds no secrets and API clients fetch it without credentials; any
 * credentials sent are ignored. openRoute (like /health) gives it a request id and a log line.
 */
export const GET = openRoute(
  {
    docs: {
      tag: "Health",
      summary: "This OpenAPI document",
      description:
        "Generated from the routes' own declarations (policy, schemas, documented answers). Needs no credentials.",
      responses: {
        200: { description: "The OpenAPI 3.1 document of every route", schema: z.record(z.string(), z.unknown()) },
      },
    },
  },
  async () => json((document ??= openApiDocument(allRoutes())), 200, { "cache-control": "public, max-age=300" }),
);

/** The document never changes while the process runs (the routes are the build's): made once. */
let document: ReturnType<typeof openApiDocument> | undefined;

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");

let routes: readonly RouteFile[] | undefined;
/** The index holds every other route module; this one adds itself (one list, so the document is built once). */
const allRoutes = () => {
  routes ??= [...ROUTE_FILES, { file: OPENAPI_ROUTE_FILE, module: { GET } }];
  return routes;
};
