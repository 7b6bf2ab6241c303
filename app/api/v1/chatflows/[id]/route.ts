import { idParams, route } from "@/lib/http/route";
import { chatflowResponseSchema, updateChatflowSchema } from "@/common/schemas/chatflow";
import { deleteChatflow, getChatflowOrThrow, toChatflowDto, updateChatflow } from "@/lib/services/chatflows";
import { manageChatflows } from "@/common/access/permissions";
import { refuseOtherMethods } from "@/lib/http/methods";
import { deletedResponseSchema } from "@/common/schemas/responses";

export const GET = route(
  {
    auth: manageChatflows,
    params: idParams,
    docs: {
      tag: "Chatflows",
      summary: "Read a chatflow",
      description: "The chatflow's latest version (the draft): graph, run settings, sharing and the published version.",
      responses: { 200: { description: "The chatflow", schema: chatflowResponseSchema } },
    },
  },
  async ({ params, caller }) => toChatflowDto(await getChatflowOrThrow(params.id, caller)),
);

export const PUT = route(
  {
    auth: manageChatflows,
    params: idParams,
    body: { json: updateChatflowSchema, maxBytes: 5 * 1024 * 1024 },
    docs: {
      tag: "Chatflows",
      summary: "Update a chatflow",
      description: "Any subset of fields; `expectedVersion` turns on conflict detection (409).",
      callersNote: "`ownerId`: admins only",
      responses: { 200: { description: "The updated chatflow", schema: chatflowResponseSchema } },
      errors: [409, 422],
    },
  },
  async ({ params, body, caller }) => updateChatflow(params.id, body, caller),
);

export const DELETE = route(
  {
    auth: manageChatflows,
    params: idParams,
    docs: {
      tag: "Chatflows",
      summary: "Delete a chatflow with its messages and files",
      description: "Its versions, messages, uploaded files, test cases, feedback, leads and stored chunks go too.",
      responses: { 200: { description: "Deleted", schema: deletedResponseSchema } },
    },
  },
  async ({ params, caller }) => deleteChatflow(params.id, caller),
);

export const { POST, PATCH } = refuseOtherMethods("GET", "PUT", "DELETE");
