import { idParams, route } from "@/lib/http/route";
import { publishChatflow } from "@/common/access/permissions";
import { publishVersionSchema } from "@/common/schemas/chatflow-version";
import { publishVersion } from "@/lib/services/chatflow-versions";
import { refuseOtherMethods } from "@/lib/http/methods";

/** Publishes a version: the prediction API, vector upsert, widget and public pages run it from now on. */
export const POST = route(
  { auth: publishChatflow, params: idParams, body: { json: publishVersionSchema } },
  async ({ params, body, caller }) => publishVersion(params.id, body.version, caller),
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
