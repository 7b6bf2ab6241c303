import { idParams, route } from "@/lib/http/route";
import { readChatflowVersions } from "@/common/access/permissions";
import { listVersions } from "@/lib/services/chatflow-versions";
import { refuseOtherMethods } from "@/lib/http/methods";
import { versionListResponseSchema } from "@/common/schemas/chatflow-version";

/** The chatflow's versions, newest first: `{version, publishedVersion, versions: [...]}`. */
export const GET = route(
  {
    auth: readChatflowVersions,
    params: idParams,
    docs: {
      tag: "Versions",
      summary: "List a chatflow's versions, newest first",
      description:
        "Every save of the graph or run settings (override allow-list, chatbot config, speech-to-text) is a version. `published` marks the one the API runs, `draft` the latest.",
      responses: { 200: { description: "The versions", schema: versionListResponseSchema } },
    },
  },
  async ({ params, caller }) => listVersions(params.id, caller),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
