import { ApiReference } from "@/components/studio/ApiReference";
import { swaggerUiVersion } from "@/lib/http/swagger-ui-assets";

/** The API reference: Swagger UI over GET /api/v1/openapi.json (the document of every route). */
export default function ApiDocsPage() {
  return <ApiReference version={swaggerUiVersion()} />;
}
