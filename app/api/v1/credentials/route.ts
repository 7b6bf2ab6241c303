import { route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { listCredentialsPolicy, manageCredentials } from "@/common/access/permissions";
import { createCredentialSchema } from "@/common/schemas/credential";
import { createCredential, listCredentials } from "@/lib/services/credentials";
import { refuseOtherMethods } from "@/lib/http/methods";

export const GET = route({ auth: listCredentialsPolicy }, async ({ caller }) => listCredentials(caller));

export const POST = route(
  { auth: manageCredentials, body: { json: createCredentialSchema } },
  async ({ body, caller }) => json(await createCredential(body, caller), 201),
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
