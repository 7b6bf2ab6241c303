import { route } from "@/lib/http/route";
import { preflight, withCors, type OriginResolver } from "@/lib/http/cors";
import { clientIp } from "@/lib/access/client-ip";
import { foreignOrigin } from "@/lib/http/same-origin";
import { runChatflow } from "@/common/access/permissions";
import { createLeadSchema } from "@/common/schemas/feedback";
import { createLead } from "@/lib/services/feedback";
import { corsOriginsForAnyPublicChatflow } from "@/lib/services/public-chatbot";
import { refuseOtherMethods } from "@/lib/http/methods";
import { leadResponseSchema } from "@/common/schemas/responses";

/** The chatflow is in the body: preflights pass for origins some public chatflow allows; the service checks this one's. */
const corsOrigins: OriginResolver = (_params, origin) => corsOriginsForAnyPublicChatflow(origin);

export const OPTIONS = preflight(corsOrigins, ["POST"]);

/**
 * POST /api/v1/leads (flowise-embed posts to `/api/v1/leads/`; proxy.ts serves API paths with a
 * trailing slash without redirecting): the widget's lead form, for chatflows that ask for leads.
 */
export const POST = withCors(
  route(
    {
      auth: runChatflow,
      body: { json: createLeadSchema, maxBytes: 16 * 1024 },
      idempotency: {},
      docs: {
        tag: "Feedback",
        summary: "Leave a lead in the widget's form (Flowise)",
        description: "Only for chatflows that ask for leads (`chatbotConfig.leads.status`); name, email or phone.",
        callersNote: "keys in scope; anyone: public chatflows asking for leads",
        responses: { 200: { description: "The stored lead", schema: leadResponseSchema } },
        errors: [404],
        rateLimited: true,
      },
    },
    async ({ req, body, caller }) =>
      createLead(
        { ...body, chatflowId: body.chatflowid },
        { caller, origin: foreignOrigin(req), clientIp: clientIp(req) },
      ),
  ),
  corsOrigins,
);

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
