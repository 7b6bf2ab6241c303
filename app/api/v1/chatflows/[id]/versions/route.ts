import { idParams, route } from "@/lib/http/route";
import { readChatflowVersions } from "@/common/access/permissions";
import { listVersions } from "@/lib/services/chatflow-versions";
import { refuseOtherMethods } from "@/lib/http/methods";

/** The chatflow's versions, newest first: `{version, publishedVersion, versions: [...]}`. */
export const GET = route({ auth: readChatflowVersions, params: idParams }, async ({ params, caller }) =>
  listVersions(params.id, caller),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
