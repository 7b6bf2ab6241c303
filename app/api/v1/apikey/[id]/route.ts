import { idParams, route } from "@/lib/http/route";
import { revokeApiKey } from "@/lib/services/api-keys";
import { manageKeys } from "@/common/access/permissions";
import { refuseOtherMethods } from "@/lib/http/methods";
import { apiKeyResponseSchema } from "@/common/schemas/responses";

export const DELETE = route(
  {
    auth: manageKeys,
    params: idParams,
    docs: {
      tag: "API keys",
      summary: "Revoke an API key",
      description: "The key stops working at once; it stays listed as revoked.",
      responses: { 200: { description: "The revoked key", schema: apiKeyResponseSchema } },
    },
  },
  async ({ params, caller }) => revokeApiKey(params.id, caller),
);

export const { GET, HEAD, POST, PUT, PATCH } = refuseOtherMethods("DELETE");
