import { route } from "@/lib/http/route";
import { manageChatflows } from "@/common/access/permissions";
import { restoreVersionSchema, versionParams } from "@/common/schemas/chatflow-version";
import { restoreVersion } from "@/lib/services/chatflow-versions";
import { json } from "@/lib/http/responses";
import { refuseOtherMethods } from "@/lib/http/methods";

/** Restores version `n` as a new version (the new draft); answers the chatflow. */
export const POST = route(
  { auth: manageChatflows, params: versionParams, body: { json: restoreVersionSchema } },
  async ({ params, body, caller }) => json(await restoreVersion(params.id, params.n, caller, body.message), 201),
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
