import { route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { analyzeDomainsBody } from "@/common/schemas/domain";
import { domainUsers } from "@/common/access/permissions";
import { startDomainAnalysis } from "@/lib/services/domains-analysis";
import { refuseOtherMethods } from "@/lib/http/methods";

/** POST /api/v1/domains/analyze: queues one run of the chatflow per chosen domain; 202 with the run. */
export const POST = route(
  { auth: domainUsers, body: { json: analyzeDomainsBody, maxBytes: 2 * 1024 * 1024 } },
  async ({ body, caller }) => {
    const result = await startDomainAnalysis(body, caller);
    return json(result, result.run ? 202 : 200);
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
