import { z } from "zod";
import { route } from "@/lib/http/route";
import { upsertDocumentStores } from "@/common/access/permissions";
import { documentStorePreviewSchema, previewDocumentStoreSchema } from "@/common/schemas/document-store";
import { previewDocumentStore } from "@/lib/services/document-stores";
import { refuseOtherMethods } from "@/lib/http/methods";

const bodySchema = previewDocumentStoreSchema.extend({ storeId: z.uuid({ error: "must be a UUID" }) });

export const POST = route(
  {
    auth: upsertDocumentStores,
    body: { json: bodySchema },
    docs: {
      tag: "Vector stores",
      summary: "Preview a document store's chunks",
      description:
        "Loads and splits the store's loaders without embedding or writing anything: the first `previewChunkCount` chunks and the totals.",
      responses: { 200: { description: "The chunks the loaders give", schema: documentStorePreviewSchema } },
      errors: [404, 422, 502],
    },
  },
  async ({ body, caller }) => previewDocumentStore(body.storeId, { previewChunkCount: body.previewChunkCount }, caller),
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
