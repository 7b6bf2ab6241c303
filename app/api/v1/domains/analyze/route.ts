import { route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { analyzeDomainsBody } from "@/common/schemas/domain";
import { domainUsers } from "@/common/access/permissions";
import { startDomainAnalysis } from "@/lib/services/domains-analysis";
import { refuseOtherMethods } from "@/lib/http/methods";
import { startAnalysisResponseSchema } from "@/common/schemas/responses";

/** POST /api/v1/domains/analyze: queues one run of the chatflow per chosen domain; 202 with the run. */
export const POST = route(
  {
    auth: domainUsers,
    body: { json: analyzeDomainsBody, maxBytes: 2 * 1024 * 1024 },
    idempotency: {},
    docs: {
      tag: "Domains",
      summary: "Queue an analysis run of a chatflow over chosen domains",
      description:
        "The domains by `ids` or by a `filter` (as the list takes it), and the chatflow that analyses each one. 202 with the run, or 200 with `run: null` when nothing matches.",
      callersNote: "also needs `predict` on that chatflow",
      errors: [404],
      responses: {
        200: { description: "Nothing to analyse (`run: null`)", schema: startAnalysisResponseSchema },
        202: { description: "The queued run", schema: startAnalysisResponseSchema },
      },
    },
  },
  async ({ body, caller }) => {
    const result = await startDomainAnalysis(body, caller);
    return json(result, result.run ? 202 : 200);
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
