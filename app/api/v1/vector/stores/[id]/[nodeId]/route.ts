import { upsertChatflow } from "@/lib/access/permissions";
import { z } from "zod";
import { route } from "@/lib/http/route";
import { nodeIdSchema } from "@/lib/schemas/graph";
import { clearVectorStore } from "@/lib/services/vector-stores";
import { refuseOtherMethods } from "@/lib/http/methods";

const params = z.object({ id: z.uuid({ error: "must be a UUID" }), nodeId: nodeIdSchema });

/** Clears one store node: every chunk (and embedding) it holds. */
export const DELETE = route({ auth: upsertChatflow, params }, async ({ params, caller }) =>
  clearVectorStore(params.id, params.nodeId, caller),
);

export const { GET, HEAD, POST, PUT, PATCH } = refuseOtherMethods("DELETE");
