import { idParams, route } from "@/lib/http/route";
import { updateCredentialSchema } from "@/lib/schemas/credential";
import { deleteCredential, updateCredential } from "@/lib/services/credentials";
import { refuseOtherMethods } from "@/lib/http/methods";

const editors = { session: true, basicAdmin: true };

export const PUT = route({ auth: editors, params: idParams, body: updateCredentialSchema }, async ({ params, body }) =>
  updateCredential(params.id, body),
);

export const DELETE = route({ auth: editors, params: idParams }, async ({ params }) => deleteCredential(params.id));

export const { GET, HEAD, POST, PATCH } = refuseOtherMethods("PUT", "DELETE");
