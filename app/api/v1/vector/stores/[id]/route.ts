import { upsertChatflow } from "@/common/access/permissions";
import { idParams, route } from "@/lib/http/route";
import { listVectorStores } from "@/lib/services/vector-stores";
import { refuseOtherMethods } from "@/lib/http/methods";

/** The store nodes of a chatflow with their chunk counts (studio panel). */
export const GET = route({ auth: upsertChatflow, params: idParams }, async ({ params, caller }) =>
  listVectorStores(params.id, caller),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
