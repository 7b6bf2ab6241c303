import { route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { manageKeys } from "@/lib/http/policies";
import { createApiKeySchema } from "@/lib/schemas/api-key";
import { createApiKey, listApiKeysDto } from "@/lib/services/api-keys";

export const GET = route({ auth: manageKeys }, async ({ caller }) => listApiKeysDto(caller));

export const POST = route({ auth: manageKeys, body: createApiKeySchema }, async ({ body, caller }) =>
  json(await createApiKey(body, caller), 201),
);
