import { upsertChatflow } from "@/common/access/permissions";
import { route } from "@/lib/http/route";
import { storeNodeParams } from "@/common/schemas/graph";
import { clearVectorStore } from "@/lib/services/vector-stores";
import { refuseOtherMethods } from "@/lib/http/methods";

/** Clears one store node: every chunk (and embedding) it holds. */
export const DELETE = route({ auth: upsertChatflow, params: storeNodeParams }, async ({ params, caller }) =>
  clearVectorStore(params.id, params.nodeId, caller),
);

export const { GET, HEAD, POST, PUT, PATCH } = refuseOtherMethods("DELETE");
