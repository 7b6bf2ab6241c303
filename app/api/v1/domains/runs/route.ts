import { route } from "@/lib/http/route";
import { domainUsers } from "@/common/access/permissions";
import { listRecentAnalysisRuns } from "@/lib/services/domains-analysis";
import { refuseOtherMethods } from "@/lib/http/methods";

/** GET /api/v1/domains/runs: the 20 most recent analysis runs with their progress. */
export const GET = route({ auth: domainUsers }, async () => listRecentAnalysisRuns());

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
