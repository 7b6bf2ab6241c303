import { route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { enforceRateLimit } from "@/lib/access/rate-limit";
import { clientIp } from "@/lib/access/client-ip";
import { setupAdminSchema } from "@/common/schemas/user";
import { needsSetup, setupFirstAdmin } from "@/lib/services/users";
import { refuseOtherMethods } from "@/lib/http/methods";

/** Whether the one-time setup is still open. */
export const GET = route({ auth: { anonymous: true, session: true } }, async () => ({
  needsSetup: await needsSetup(),
}));

/** Creates the first admin; 409 once any user exists. */
export const POST = route({ auth: { anonymous: true }, body: { json: setupAdminSchema } }, async ({ req, body }) => {
  await enforceRateLimit(`setup:${clientIp(req)}`, 10, 60_000);
  return json(await setupFirstAdmin(body), 201);
});

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
