import { route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { manageKeys } from "@/common/access/permissions";
import { createApiKeySchema } from "@/common/schemas/api-key";
import { createApiKey, listApiKeysDto } from "@/lib/services/api-keys";
import { refuseOtherMethods } from "@/lib/http/methods";

export const GET = route({ auth: manageKeys }, async ({ caller }) => listApiKeysDto(caller));

export const POST = route({ auth: manageKeys, body: { json: createApiKeySchema } }, async ({ body, caller }) =>
  json(await createApiKey(body, caller), 201),
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
