import { route } from "@/lib/http/route";
import { manageChatflows } from "@/common/access/permissions";
import { restoreVersionSchema, versionParams } from "@/common/schemas/chatflow-version";
import { restoreVersion } from "@/lib/services/chatflow-versions";
import { json } from "@/lib/http/responses";
import { refuseOtherMethods } from "@/lib/http/methods";
import { chatflowResponseSchema } from "@/common/schemas/chatflow";

/** Restores version `n` as a new version (the new draft); answers the chatflow. */
export const POST = route(
  {
    auth: manageChatflows,
    params: versionParams,
    body: { json: restoreVersionSchema },
    idempotency: {},
    docs: {
      tag: "Versions",
      summary: "Restore a version as a new version (the new draft)",
      description: "Version `n`'s graph and run settings are saved again as the newest version; nothing is published.",
      responses: { 201: { description: "The chatflow at its new version", schema: chatflowResponseSchema } },
    },
  },
  async ({ params, body, caller }) => json(await restoreVersion(params.id, params.n, caller, body.message), 201),
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
