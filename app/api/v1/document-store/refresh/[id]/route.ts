import { idParams, route } from "@/lib/http/route";
import { upsertDocumentStores } from "@/common/access/permissions";
import { documentStoreUpsertResultSchema } from "@/common/schemas/document-store";
import { upsertDocumentStore } from "@/lib/services/document-stores";
import { refuseOtherMethods } from "@/lib/http/methods";

export const POST = route(
  {
    auth: upsertDocumentStores,
    params: idParams,
    docs: {
      tag: "Vector stores",
      summary: "Refresh a document store",
      description:
        "Re-processes every loader and writes the store, as an upsert: unchanged chunks are skipped, chunks of changed sources replaced.",
      responses: { 200: { description: "What was written", schema: documentStoreUpsertResultSchema } },
      errors: [422, 502, 503, 504],
    },
  },
  async ({ params, caller }) => upsertDocumentStore(params.id, caller),
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
