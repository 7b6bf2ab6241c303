import type { RouteFile } from "@/lib/openapi/declared";
import { OPENAPI_ROUTE_FILE } from "@/lib/openapi/route-index";
import * as openApiRoute from "./route";
import { ROUTE_FILES } from "./routes.generated";

/** Every documented route module, the document's own included: what scripts and tests make the document from. */
export const DOCUMENTED_ROUTES: readonly RouteFile[] = [
  ...ROUTE_FILES,
  { file: OPENAPI_ROUTE_FILE, module: openApiRoute },
];
