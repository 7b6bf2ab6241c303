import { idParams, route } from "@/lib/http/route";
import { domainUsers } from "@/lib/http/policies";
import { getAnalysisRun } from "@/lib/services/domains-analysis";

/** GET /api/v1/domains/runs/{id}: progress of one analysis run. */
export const GET = route({ auth: domainUsers, params: idParams }, async ({ params }) => getAnalysisRun(params.id));
