import { manageCredentials } from "@/common/access/permissions";
import { credentialTestResponseSchema } from "@/common/schemas/responses";
import { refuseOtherMethods } from "@/lib/http/methods";
import { idParams, route } from "@/lib/http/route";
import { testCredential } from "@/lib/services/credential-test";

export const POST = route(
  {
    auth: manageCredentials,
    params: idParams,
    docs: {
      tag: "Credentials",
      summary: "Test a credential with one call to its provider",
      description:
        "One free call that needs the key (list models, the account, the indexes) to the credential's own host, through the outbound guard, within 10 s. `ok: false` with the provider's status and words when it refused; kinds whose only calls are billed (web searches) or that go to any host (API headers) are not tested. The key is never in the answer.",
      responses: { 200: { description: "What the provider answered", schema: credentialTestResponseSchema } },
    },
  },
  async ({ params, caller }) => testCredential(params.id, caller),
);

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
