import { pageOfQuery, pageParams } from "@/common/schemas/pagination";
import { PAGE_HEADER_DOCS, pagedArray } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { listCredentialsPolicy, manageCredentials } from "@/common/access/permissions";
import { createCredentialSchema } from "@/common/schemas/credential";
import { createCredential, listCredentials } from "@/lib/services/credentials";
import { refuseOtherMethods } from "@/lib/http/methods";
import { credentialResponseSchema } from "@/common/schemas/responses";
import { z } from "zod";

export const GET = route(
  {
    auth: listCredentialsPolicy,
    query: z.object(pageParams("credentials")),
    docs: {
      tag: "Credentials",
      summary: "List credentials (never their values)",
      description:
        "Names, types, owners and sharing of the credentials the caller may use; values are encrypted and never returned.",
      callersNote: "builders: own ones plus those shared with all builders",
      responses: {
        200: {
          description: "Credentials without values",
          schema: z.array(credentialResponseSchema),
          headers: PAGE_HEADER_DOCS,
        },
      },
    },
  },
  async ({ req, caller, query }) => pagedArray(req, await listCredentials(caller, pageOfQuery(query))),
);

export const POST = route(
  {
    auth: manageCredentials,
    body: { json: createCredentialSchema },
    idempotency: {},
    docs: {
      tag: "Credentials",
      summary: "Store a credential (encrypted)",
      description:
        "`data` holds the fields of the credential's `type` (an API key and base URL, or request headers with the hosts they may be sent to); it is encrypted at rest and never returned.",
      responses: { 201: { description: "The credential, without values", schema: credentialResponseSchema } },
    },
  },
  async ({ body, caller }) => json(await createCredential(body, caller), 201),
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
