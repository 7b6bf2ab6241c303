// GET /domains, the unversioned path of SEED-API.md: the same handler as /api/v1/domains.
export { GET } from "../api/v1/domains/route";
