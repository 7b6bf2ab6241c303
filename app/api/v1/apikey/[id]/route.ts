import { idParams, route } from "@/lib/http/route";
import { revokeApiKey } from "@/lib/services/api-keys";
import { manageKeys } from "@/common/access/permissions";
import { refuseOtherMethods } from "@/lib/http/methods";

export const DELETE = route({ auth: manageKeys, params: idParams }, async ({ params, caller }) =>
  revokeApiKey(params.id, caller),
);

export const { GET, HEAD, POST, PUT, PATCH } = refuseOtherMethods("DELETE");
