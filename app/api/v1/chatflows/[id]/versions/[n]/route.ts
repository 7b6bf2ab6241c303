import { route } from "@/lib/http/route";
import { readChatflowVersions } from "@/common/access/permissions";
import { versionDetailResponseSchema, versionParams } from "@/common/schemas/chatflow-version";
import { getVersionDetail } from "@/lib/services/chatflow-versions";
import { refuseOtherMethods } from "@/lib/http/methods";

/** One version with its graph and run settings. */
export const GET = route(
  {
    auth: readChatflowVersions,
    params: versionParams,
    docs: {
      tag: "Versions",
      summary: "Read one version of a chatflow (graph and run settings)",
      description: "The graph and run settings saved as version `n`, with its message and who saved it.",
      responses: { 200: { description: "The version", schema: versionDetailResponseSchema } },
    },
  },
  async ({ params, caller }) => getVersionDetail(params.id, params.n, caller),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
