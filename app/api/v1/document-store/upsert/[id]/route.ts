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
      summary: "Upsert a document store",
      description:
        "Loads and splits every loader, embeds the new chunks and writes them; the record manager's exact counts (a second upsert of the same files skips every chunk).",
      responses: { 200: { description: "What was written", schema: documentStoreUpsertResultSchema } },
      errors: [422, 502, 503, 504],
    },
  },
  async ({ params, caller }) => upsertDocumentStore(params.id, caller),
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
