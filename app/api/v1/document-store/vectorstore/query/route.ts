import { z } from "zod";
import { route } from "@/lib/http/route";
import { readDocumentStores } from "@/common/access/permissions";
import { documentStoreQueryResultSchema, queryDocumentStoreSchema } from "@/common/schemas/document-store";
import { queryDocumentStore } from "@/lib/services/document-stores";
import { refuseOtherMethods } from "@/lib/http/methods";

const bodySchema = queryDocumentStoreSchema.extend({ storeId: z.uuid({ error: "must be a UUID" }) });

export const POST = route(
  {
    auth: readDocumentStores,
    body: { json: bodySchema },
    docs: {
      tag: "Vector stores",
      summary: "Query a document store",
      description:
        "The store node's top chunks for `query`, best first, with their scores (Flowise's vectorstore query).",
      responses: { 200: { description: "The chunks found", schema: documentStoreQueryResultSchema } },
      errors: [404, 422, 502, 503, 504],
    },
  },
  async ({ body, caller }) => queryDocumentStore(body.storeId, body.query, caller),
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
