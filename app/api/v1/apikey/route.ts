import { pageOfQuery, pageParams } from "@/common/schemas/pagination";
import { PAGE_HEADER_DOCS, pagedArray } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { manageKeys } from "@/common/access/permissions";
import { createApiKeySchema } from "@/common/schemas/api-key";
import { createApiKey, listApiKeysDto } from "@/lib/services/api-keys";
import { refuseOtherMethods } from "@/lib/http/methods";
import { apiKeyResponseSchema, createdApiKeyResponseSchema } from "@/common/schemas/responses";
import { z } from "zod";

export const GET = route(
  {
    auth: manageKeys,
    query: z.object(pageParams("apikey")),
    docs: {
      tag: "API keys",
      summary: "List API keys",
      description:
        "Name, prefix, permissions, chatflow scope, owner, last use and status of each key; never the key itself.",
      callersNote: "builders: own keys",
      responses: {
        200: {
          description: "Keys, never their secrets",
          schema: z.array(apiKeyResponseSchema),
          headers: PAGE_HEADER_DOCS,
        },
      },
    },
  },
  async ({ req, caller, query }) => pagedArray(req, await listApiKeysDto(caller, pageOfQuery(query))),
);

export const POST = route(
  {
    auth: manageKeys,
    body: { json: createApiKeySchema },
    idempotency: {},
    docs: {
      tag: "API keys",
      summary: "Create an API key (shown once)",
      description:
        "The answer holds the key itself, shown this once; only a hash is stored. Permissions default to `predict` and `upsert`; `chatflowIds` scopes the key.",
      callersNote: "builders never get `messages`",
      responses: { 201: { description: "The key, with its secret", schema: createdApiKeyResponseSchema } },
    },
  },
  async ({ body, caller }) => json(await createApiKey(body, caller), 201),
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
