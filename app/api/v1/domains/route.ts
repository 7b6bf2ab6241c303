import { json } from "@/lib/http/responses";
import { nextPageHeaders, PAGE_HEADER_DOCS } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { addDomainsBody, listDomainsQuery } from "@/common/schemas/domain";
import { domainUsers } from "@/common/access/permissions";
import { addDomains, listDomains } from "@/lib/services/domains";
import { refuseOtherMethods } from "@/lib/http/methods";
import { addDomainsResponseSchema, domainListResponseSchema } from "@/common/schemas/responses";

/** GET /api/v1/domains (and GET /domains): filters, search, sort and paging. */
export const GET = route(
  {
    auth: domainUsers,
    query: listDomainsQuery,
    docs: {
      tag: "Domains",
      summary: "List domains (filters, search, sort, paging); also at GET /domains",
      description:
        "Filters `isValid`, `hasAnalysis`, `analysisStatus` and `searchTerm`; `sort` is a field with an optional direction (`name`, `createdAt:desc`, `-analyzedAt`); `page` and `limit` (at most 100).",
      responses: {
        200: { description: "A page of domains", schema: domainListResponseSchema, headers: PAGE_HEADER_DOCS },
      },
    },
  },
  async ({ req, query }) => {
    const domains = await listDomains(query);
    return json(domains, 200, nextPageHeaders(req, domains.nextCursor));
  },
);

/** POST /api/v1/domains: `{ name }` or `{ names: [...] }` (up to 10,000). */
export const POST = route(
  {
    auth: domainUsers,
    body: { json: addDomainsBody, maxBytes: 4 * 1024 * 1024 },
    idempotency: {},
    docs: {
      tag: "Domains",
      summary: "Add domains: `{ name }` or `{ names: [...] }`",
      description:
        "At most 10,000 names per call; duplicates are merged, names already stored are counted as known, invalid ones are reported with why and never stored.",
      responses: {
        200: {
          description: "What was added, known or invalid (invalid names are reported with why, never stored)",
          schema: addDomainsResponseSchema,
        },
      },
    },
  },
  async ({ body }) => addDomains(body),
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
