import { route } from "@/lib/http/route";
import { readChatflowVersions } from "@/common/access/permissions";
import { versionDiffQuery, versionDiffResponseSchema, versionParams } from "@/common/schemas/chatflow-version";
import { diffChatflowVersions } from "@/lib/services/chatflow-versions";
import { refuseOtherMethods } from "@/lib/http/methods";

/** What changed from version `against` to version `n`. */
export const GET = route(
  {
    auth: readChatflowVersions,
    params: versionParams,
    query: versionDiffQuery,
    docs: {
      tag: "Versions",
      summary: "What changed from version `against` (default: n − 1) to version n",
      description:
        "Nodes and edges added and removed, each changed input (old → new) and run setting. Credentials appear by name only.",
      responses: { 200: { description: "The difference", schema: versionDiffResponseSchema } },
    },
  },
  async ({ params, query, caller }) => diffChatflowVersions(params.id, params.n, query.against, caller),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
