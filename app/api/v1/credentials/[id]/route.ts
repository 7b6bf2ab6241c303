import { idParams, route } from "@/lib/http/route";
import { manageCredentials } from "@/common/access/permissions";
import { updateCredentialSchema } from "@/common/schemas/credential";
import { deleteCredential, updateCredential } from "@/lib/services/credentials";
import { refuseOtherMethods } from "@/lib/http/methods";
import { credentialResponseSchema, deletedResponseSchema } from "@/common/schemas/responses";

export const PUT = route(
  {
    auth: manageCredentials,
    params: idParams,
    body: { json: updateCredentialSchema },
    docs: {
      tag: "Credentials",
      summary: "Rename, replace values, share or transfer a credential",
      description:
        "Any subset of fields; new `data` replaces the values. Sharing with all builders and changing the owner are for admins.",
      callersNote: "`sharedWithBuilders`, `ownerId`: admins only",
      responses: { 200: { description: "The credential, without values", schema: credentialResponseSchema } },
    },
  },
  async ({ params, body, caller }) => updateCredential(params.id, body, caller),
);

export const DELETE = route(
  {
    auth: manageCredentials,
    params: idParams,
    docs: {
      tag: "Credentials",
      summary: "Delete a credential",
      description: "Nodes that named it fail to build until another credential is chosen.",
      responses: { 200: { description: "Deleted", schema: deletedResponseSchema } },
    },
  },
  async ({ params, caller }) => deleteCredential(params.id, caller),
);

export const { GET, HEAD, POST, PATCH } = refuseOtherMethods("PUT", "DELETE");
