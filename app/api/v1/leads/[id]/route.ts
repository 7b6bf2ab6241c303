import { pageOfQuery } from "@/common/schemas/pagination";
import { PAGE_HEADER_DOCS, pagedArray } from "@/lib/http/pagination";
import { idParams, route } from "@/lib/http/route";
import { messageAdmins } from "@/common/access/permissions";
import { listLeadsQuery } from "@/common/schemas/feedback";
import { listLeads } from "@/lib/services/feedback";
import { refuseOtherMethods } from "@/lib/http/methods";
import { leadResponseSchema } from "@/common/schemas/responses";
import { z } from "zod";

/** GET /api/v1/leads/{chatflowid}: the leads left in a chatflow's widget, for the Message API's readers (admins). */
export const GET = route(
  {
    auth: messageAdmins,
    params: idParams,
    query: listLeadsQuery,
    docs: {
      tag: "Feedback",
      summary: "The leads left in a chatflow's widget",
      description: "Name, e-mail and phone as the chatflow asked for them; `chatId` narrows to one chat.",
      responses: { 200: { description: "Leads", schema: z.array(leadResponseSchema), headers: PAGE_HEADER_DOCS } },
    },
  },
  async ({ req, params, query: { limit, cursor, ...filters }, caller }) =>
    pagedArray(req, await listLeads(params.id, filters, caller, pageOfQuery({ limit, cursor }))),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
