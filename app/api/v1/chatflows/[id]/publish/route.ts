import { idParams, route } from "@/lib/http/route";
import { publishChatflow } from "@/common/access/permissions";
import { publishResponseSchema, publishVersionSchema } from "@/common/schemas/chatflow-version";
import { publishVersion } from "@/lib/services/chatflow-versions";
import { refuseOtherMethods } from "@/lib/http/methods";

/** Publishes a version: the prediction API, vector upsert, widget and public pages run it from now on. */
export const POST = route(
  {
    auth: publishChatflow,
    params: idParams,
    body: { json: publishVersionSchema },
    idempotency: {},
    docs: {
      tag: "Versions",
      summary: "Publish a version",
      description:
        "The prediction API, vector upsert, the widget and the public pages run the published version. 409 when the chatflow requires passing tests and the version's fail or have not run.",
      responses: { 200: { description: "The published version", schema: publishResponseSchema } },
      errors: [409],
    },
  },
  async ({ params, body, caller }) => publishVersion(params.id, body.version, caller),
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
