import { idParams, route } from "@/lib/http/route";
import { messageAdmins } from "@/common/access/permissions";
import { listLeadsQuery } from "@/common/schemas/feedback";
import { listLeads } from "@/lib/services/feedback";
import { refuseOtherMethods } from "@/lib/http/methods";

/** GET /api/v1/leads/{chatflowid}: the leads left in a chatflow's widget, for the Message API's readers (admins). */
export const GET = route(
  { auth: messageAdmins, params: idParams, query: listLeadsQuery },
  async ({ params, query, caller }) => listLeads(params.id, query, caller),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
