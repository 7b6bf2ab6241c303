import { route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { manageChatflows } from "@/lib/http/policies";
import { createCredentialSchema } from "@/lib/schemas/credential";
import { createCredential, listCredentials } from "@/lib/services/credentials";
import { refuseOtherMethods } from "@/lib/http/methods";

export const GET = route({ auth: manageChatflows }, async () => listCredentials());

export const POST = route({ auth: { session: true, basicAdmin: true }, body: createCredentialSchema }, async ({ body }) =>
  json(await createCredential(body), 201),
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
