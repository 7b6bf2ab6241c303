import { queueViewers } from "@/common/access/permissions";
import { refuseOtherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { queueView } from "@/lib/services/queue-view";

/** The admin queue view: queue depths, running jobs and workers (admins only; no API key). */
export const GET = route({ auth: queueViewers }, async ({ caller }) => queueView(caller));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
