import { idParams, route } from "@/lib/http/route";
import { revokeApiKey } from "@/lib/services/api-keys";
import { manageKeys } from "@/lib/http/policies";

export const DELETE = route({ auth: manageKeys, params: idParams }, async ({ params, caller }) => revokeApiKey(params.id, caller));
