import { route } from "@/lib/http/route";
import { readChatflowVersions } from "@/common/access/permissions";
import { versionDiffQuery, versionParams } from "@/common/schemas/chatflow-version";
import { diffChatflowVersions } from "@/lib/services/chatflow-versions";
import { refuseOtherMethods } from "@/lib/http/methods";

/** What changed from version `against` to version `n`. */
export const GET = route(
  { auth: readChatflowVersions, params: versionParams, query: versionDiffQuery },
  async ({ params, query, caller }) => diffChatflowVersions(params.id, params.n, query.against, caller),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
