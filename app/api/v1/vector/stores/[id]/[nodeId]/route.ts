import { upsertChatflow } from "@/common/access/permissions";
import { route } from "@/lib/http/route";
import { storeNodeParams } from "@/common/schemas/graph";
import { clearVectorStore } from "@/lib/services/vector-stores";
import { refuseOtherMethods } from "@/lib/http/methods";
import { clearedStoreResponseSchema } from "@/common/schemas/responses";

/** Clears one store node: every chunk (and embedding) it holds. */
export const DELETE = route(
  {
    auth: upsertChatflow,
    params: storeNodeParams,
    docs: {
      tag: "Vector stores",
      summary: "Clear one store node",
      description: "Deletes every chunk (and embedding) the store node holds; the graph is unchanged.",
      responses: { 200: { description: "How many chunks were deleted", schema: clearedStoreResponseSchema } },
    },
  },
  async ({ params, caller }) => clearVectorStore(params.id, params.nodeId, caller),
);

export const { GET, HEAD, POST, PUT, PATCH } = refuseOtherMethods("DELETE");
