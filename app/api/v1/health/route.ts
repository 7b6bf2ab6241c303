import { openRoute } from "@/lib/http/route";
import { refuseOtherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/responses";
import { liveness } from "@/lib/services/health";

/** Liveness: the process answers. No authentication (load balancers) and no dependency asked. */
export const GET = openRoute(async () => json(liveness(), 200, { "cache-control": "no-store" }));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
