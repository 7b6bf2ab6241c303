import { route } from "@/lib/http/route";
import { readChatflowVersions } from "@/common/access/permissions";
import { versionParams } from "@/common/schemas/chatflow-version";
import { getVersionDetail } from "@/lib/services/chatflow-versions";
import { refuseOtherMethods } from "@/lib/http/methods";

/** One version with its graph and run settings. */
export const GET = route({ auth: readChatflowVersions, params: versionParams }, async ({ params, caller }) =>
  getVersionDetail(params.id, params.n, caller),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
