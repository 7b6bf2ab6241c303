import { idParams, route } from "@/lib/http/route";
import { manageCredentials } from "@/common/access/permissions";
import { updateCredentialSchema } from "@/common/schemas/credential";
import { deleteCredential, updateCredential } from "@/lib/services/credentials";
import { refuseOtherMethods } from "@/lib/http/methods";

export const PUT = route(
  { auth: manageCredentials, params: idParams, body: { json: updateCredentialSchema } },
  async ({ params, body, caller }) => updateCredential(params.id, body, caller),
);

export const DELETE = route({ auth: manageCredentials, params: idParams }, async ({ params, caller }) =>
  deleteCredential(params.id, caller),
);

export const { GET, HEAD, POST, PATCH } = refuseOtherMethods("PUT", "DELETE");
