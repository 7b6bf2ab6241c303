import { idParams, route } from "@/lib/http/route";
import { domainUsers } from "@/common/access/permissions";
import { getAnalysisRun } from "@/lib/services/domains-analysis";
import { refuseOtherMethods } from "@/lib/http/methods";

/** GET /api/v1/domains/runs/{id}: progress of one analysis run. */
export const GET = route({ auth: domainUsers, params: idParams }, async ({ params }) => getAnalysisRun(params.id));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
