import { z } from "zod";
import { pageOfQuery, pageParams } from "@/common/schemas/pagination";
import { PAGE_HEADER_DOCS, pagedArray } from "@/lib/http/pagination";
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
    query: z.object(pageParams("document-stores")),
    docs: {
      tag: "Vector stores",
      summary: "List document stores",
      description: "Without graphs, newest first, with each store's node and chunk count; `limit`/`cursor` pages it.",
      callersNote: "builders and their keys: own stores only",
      responses: {
        200: {
          description: "The stores the caller may see",
          schema: documentStoreListSchema,
          headers: PAGE_HEADER_DOCS,
        },
      },
    },
  },
  async ({ req, query, caller }) => pagedArray(req, await listDocumentStoresFor(caller, pageOfQuery(query))),
);

export const POST = route(
  {
    auth: manageDocumentStores,
    body: { json: createDocumentStoreSchema, maxBytes: 20 * 1024 * 1024 },
    idempotency: {},
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
