import { upsertChatflow } from "@/lib/http/policies";
import { idParams, route } from "@/lib/http/route";
import { listVectorStores } from "@/lib/services/vector-stores";

/** The store nodes of a chatflow with their chunk counts (studio panel). */
export const GET = route({ auth: upsertChatflow, params: idParams }, async ({ params, caller }) =>
  listVectorStores(params.id, caller),
);
