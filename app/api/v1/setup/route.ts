import { route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { enforceRateLimit } from "@/lib/access/rate-limit";
import { clientIp } from "@/lib/access/client-ip";
import { setupAdminSchema } from "@/common/schemas/user";
import { needsSetup, setupFirstAdmin } from "@/lib/services/users";
import { refuseOtherMethods } from "@/lib/http/methods";
import { setupStatusResponseSchema, userResponseSchema } from "@/common/schemas/responses";

/** Whether the one-time setup is still open. */
export const GET = route(
  {
    auth: { anonymous: true, session: true },
    docs: {
      tag: "Users",
      summary: "Whether the one-time setup is open",
      description: "True until the first user exists; the studio shows the setup form then.",
      responses: { 200: { description: "Setup status", schema: setupStatusResponseSchema } },
    },
  },
  async () => ({
    needsSetup: await needsSetup(),
  }),
);

/** Creates the first admin; 409 once any user exists. */
export const POST = route(
  {
    auth: { anonymous: true },
    body: { json: setupAdminSchema },
    docs: {
      tag: "Users",
      summary: "Create the first admin",
      description: "Only while no user exists (409 after). An e-mail, a name and a password of at least 10 characters.",
      callersNote: "until the first user exists; 409 after",
      responses: { 201: { description: "The first admin", schema: userResponseSchema } },
      errors: [409],
      rateLimited: true,
    },
  },
  async ({ req, body }) => {
    await enforceRateLimit(`setup:${clientIp(req)}`, 10, 60_000);
    return json(await setupFirstAdmin(body), 201);
  },
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
