import { openRoute } from "@/lib/http/route";
import { refuseOtherMethods } from "@/lib/http/methods";
import { liveness } from "@/lib/services/health";

/** Liveness: the process answers. No authentication (load balancers) and no dependency asked. */
export const GET = openRoute(async () => liveness());

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
