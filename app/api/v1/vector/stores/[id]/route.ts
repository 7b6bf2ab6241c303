import { upsertChatflow } from "@/common/access/permissions";
import { idParams, route } from "@/lib/http/route";
import { listVectorStores } from "@/lib/services/vector-stores";
import { refuseOtherMethods } from "@/lib/http/methods";
import { vectorStoreResponseSchema } from "@/common/schemas/responses";
import { z } from "zod";

/** The store nodes of a chatflow with their chunk counts (studio panel). */
export const GET = route(
  {
    auth: upsertChatflow,
    params: idParams,
    docs: {
      tag: "Vector stores",
      summary: "A chatflow's store nodes with their chunk counts",
      description: "Each vector or keyword store node of the chatflow's latest version, with how many chunks it holds.",
      responses: { 200: { description: "Store nodes", schema: z.array(vectorStoreResponseSchema) } },
    },
  },
  async ({ params, caller }) => listVectorStores(params.id, caller),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
