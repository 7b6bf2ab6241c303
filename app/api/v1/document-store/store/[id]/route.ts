import { idParams, route } from "@/lib/http/route";
import { manageDocumentStores, readDocumentStores } from "@/common/access/permissions";
import { documentStoreResponseSchema, updateDocumentStoreSchema } from "@/common/schemas/document-store";
import { deletedResponseSchema } from "@/common/schemas/responses";
import {
  deleteDocumentStore,
  getDocumentStoreOrThrow,
  toDocumentStoreDto,
  updateDocumentStore,
} from "@/lib/services/document-stores";
import { refuseOtherMethods } from "@/lib/http/methods";

export const GET = route(
  {
    auth: readDocumentStores,
    params: idParams,
    docs: {
      tag: "Vector stores",
      summary: "Read a document store",
      description: "Its graph, status (empty, upserted, stale) and chunk count.",
      responses: { 200: { description: "The store", schema: documentStoreResponseSchema } },
    },
  },
  async ({ params, caller }) => toDocumentStoreDto(await getDocumentStoreOrThrow(params.id, caller)),
);

export const PUT = route(
  {
    auth: manageDocumentStores,
    params: idParams,
    body: { json: updateDocumentStoreSchema, maxBytes: 20 * 1024 * 1024 },
    docs: {
      tag: "Vector stores",
      summary: "Update a document store",
      description: "Name, description or graph; a new graph marks an upserted store stale until the next upsert.",
      responses: { 200: { description: "The updated store", schema: documentStoreResponseSchema } },
      errors: [422],
    },
  },
  async ({ params, body, caller }) => updateDocumentStore(params.id, body, caller),
);

export const DELETE = route(
  {
    auth: manageDocumentStores,
    params: idParams,
    docs: {
      tag: "Vector stores",
      summary: "Delete a document store with its chunks",
      description: "Its chunks go too (and their vectors in a remote index). Flows reading it then fail with 404.",
      responses: { 200: { description: "Deleted", schema: deletedResponseSchema } },
    },
  },
  async ({ params, caller }) => deleteDocumentStore(params.id, caller),
);

export const { POST, PATCH } = refuseOtherMethods("GET", "PUT", "DELETE");
