import { route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { manageDocumentStores, readDocumentStores } from "@/common/access/permissions";
import {
  createDocumentStoreSchema,
  documentStoreListSchema,
  documentStoreResponseSchema,
} from "@/common/schemas/document-store";
import { createDocumentStore, listDocumentStoresFor } from "@/lib/services/document-stores";
import { refuseOtherMethods } from "@/lib/http/methods";

export const GET = route(
  {
    auth: readDocumentStores,
    docs: {
      tag: "Vector stores",
      summary: "List document stores",
      description: "Without graphs, last changed first, with each store's node and chunk count. Not paged.",
      callersNote: "builders and their keys: own stores only",
      responses: { 200: { description: "The stores the caller may see", schema: documentStoreListSchema } },
    },
  },
  async ({ caller }) => listDocumentStoresFor(caller),
);

export const POST = route(
  {
    auth: manageDocumentStores,
    body: { json: createDocumentStoreSchema, maxBytes: 20 * 1024 * 1024 },
    docs: {
      tag: "Vector stores",
      summary: "Create a document store",
      description:
        "A name and a graph of loaders (with saved files or URLs), a splitter, embeddings and exactly one vector or keyword store node, checked like a chatflow's nodes.",
      responses: { 201: { description: "The new store", schema: documentStoreResponseSchema } },
      errors: [422],
    },
  },
  async ({ body, caller }) => json(await createDocumentStore(body, caller), 201),
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
