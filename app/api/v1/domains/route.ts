import { route } from "@/lib/http/route";
import { addDomainsBody, listDomainsQuery } from "@/common/schemas/domain";
import { domainUsers } from "@/common/access/permissions";
import { addDomains, listDomains } from "@/lib/services/domains";
import { refuseOtherMethods } from "@/lib/http/methods";

/** GET /api/v1/domains (and GET /domains): filters, search, sort and paging. */
export const GET = route({ auth: domainUsers, query: listDomainsQuery }, async ({ query }) => listDomains(query));

/** POST /api/v1/domains: `{ name }` or `{ names: [...] }` (up to 10,000). */
export const POST = route(
  { auth: domainUsers, body: { json: addDomainsBody, maxBytes: 4 * 1024 * 1024 } },
  async ({ body }) => addDomains(body),
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
