import { pageOfQuery } from "@/common/schemas/pagination";
import { PAGE_HEADER_DOCS, pagedArray } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { manageChatflows } from "@/common/access/permissions";
import { chatflowResponseSchema, createChatflowSchema, listChatflowsQuerySchema } from "@/common/schemas/chatflow";
import { createChatflow, listChatflowsFor } from "@/lib/services/chatflows";
import { refuseOtherMethods } from "@/lib/http/methods";
import { chatflowSummaryResponseSchema } from "@/common/schemas/responses";
import { z } from "zod";

export const GET = route(
  {
    auth: manageChatflows,
    query: listChatflowsQuerySchema,
    docs: {
      tag: "Chatflows",
      summary: "List chatflows",
      description:
        "Without graphs and settings; builders and their keys see their own chatflows, admins every one. `type` keeps one kind (CHATFLOW or AGENTFLOW), as Flowise's filter.",
      callersNote: "builders and their keys: own chatflows only",
      responses: {
        200: {
          description: "Chatflows the caller may see (without graphs)",
          schema: z.array(chatflowSummaryResponseSchema),
          headers: PAGE_HEADER_DOCS,
        },
      },
    },
  },
  async ({ req, caller, query }) =>
    pagedArray(req, await listChatflowsFor(caller, query.type ? { type: query.type } : {}, pageOfQuery(query))),
);

export const POST = route(
  {
    auth: manageChatflows,
    body: { json: createChatflowSchema },
    idempotency: {},
    docs: {
      tag: "Chatflows",
      summary: "Create a chatflow",
      description: "A name and optionally a graph, run settings and sharing; the first save is version 1, the draft.",
      responses: { 201: { description: "The new chatflow", schema: chatflowResponseSchema } },
    },
  },
  async ({ body, caller }) => json(await createChatflow(body, caller), 201),
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
