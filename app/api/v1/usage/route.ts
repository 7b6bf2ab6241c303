import { route } from "@/lib/http/route";
import { readUsagePolicy } from "@/common/access/permissions";
import { usageQuery, usageResponseSchema } from "@/common/schemas/usage";
import { getUsageFor } from "@/lib/services/usage";
import { refuseOtherMethods } from "@/lib/http/methods";

export const GET = route(
  {
    auth: readUsagePolicy,
    query: usageQuery,
    docs: {
      tag: "Usage",
      summary: "Usage and cost of answers",
      description:
        "Requests, failed runs, prompt and completion tokens, cost (USD, at the prices in force when each answer was stored) and p50/p95 latency, per UTC day (`groupBy=day`, every day of the range) or per model (`groupBy=model`), with totals. `chatflowId` limits it to one flow (404 unless the caller may read it); without it, every flow the caller may read. `from` (default: 30 days before `to`) and `to` (default: now; a date alone includes that day) are ISO 8601, at most 366 days apart. Tokens are the provider's counts, or estimated (4 characters a token) where it reported none.",
      callersNote: "builders and their keys: their own flows only",
      responses: { 200: { description: "Usage per group and in total", schema: usageResponseSchema } },
      errors: [404],
    },
  },
  async ({ query, caller }) => getUsageFor(caller, query),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
