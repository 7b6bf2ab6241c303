import { beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import { fixtureKeyOwner } from "../../dev/callers";
import * as domains from "../../app/api/v1/domains/route";
import * as unversioned from "../../app/domains/route";
import { createUser, setupFirstAdmin } from "../../lib/services/users";
import { createApiKey } from "../../lib/services/api-keys";
import { getDb } from "../../lib/db/client";

let session: Record<string, string>;

beforeAll(async () => {
  const admin = await setupFirstAdmin({ email: "admin@example.com", name: "Admin", password: "admin-pass-1" });
  session = await auth.session(admin.id);
  await createUser({ email: "builder@example.com", name: "Builder", password: "builder-pass-1", role: "builder" });
});

const add = (body: unknown, headers = session) => call(domains.POST, { method: "POST", headers, body });
const list = (query = "", headers = session, handler = domains.GET) =>
  call(handler, { path: `/api/v1/domains${query ? `?${query}` : ""}`, headers });
const names = (res: { json: { data: { name: string }[] } }) => res.json.data.map((d) => d.name);

describe("POST /api/v1/domains", () => {
  it("normalises, merges duplicates, reports invalid names without storing them, and counts added / known / invalid", async () => {
    const res = await add({
      names: [
        "Example.COM",
        "https://www.Example.com/path?q=1",
        "example.com.",
        "co.uk",
        "foo.notarealtld",
        "bücher.de",
        "",
        "  ",
        "a..b.com",
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ received: 9, added: 3, alreadyKnown: 0, invalid: 3, duplicates: 1, empty: 2 });
    expect(res.json.invalidNames).toEqual([
      { name: "co.uk", error: "'co.uk' is itself a public suffix" },
      { name: "foo.notarealtld", error: "'.notarealtld' is not a known public suffix" },
      { name: "a..b.com", error: "has an empty label" },
    ]);
    const again = await add({ name: "EXAMPLE.com" });
    expect(again.json).toMatchObject({ received: 1, added: 0, alreadyKnown: 1, invalid: 0 });
    const row = await (await getDb()).domain.findUniqueOrThrow({ where: { name: "xn--bcher-kva.de" } });
    expect(row).toMatchObject({ isValid: true, validationError: null });
    // Invalid names are reported, never stored: sending them again reports them again.
    const stored = await (await getDb()).domain.findMany({
      where: { name: { in: ["co.uk", "foo.notarealtld", "a..b.com"] } },
    });
    expect(stored).toEqual([]);
    const retry = await add({ names: ["foo.notarealtld", "good-one.example.com"] });
    expect(retry.json).toMatchObject({ received: 2, added: 1, alreadyKnown: 0, invalid: 1 });
    expect(retry.json.invalidNames).toEqual([
      { name: "foo.notarealtld", error: "'.notarealtld' is not a known public suffix" },
    ]);
  });

  it("takes 10,000 names in one call and refuses more; refuses a body with both or neither of name and names", async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `bulk-${i}.example.org`);
    const res = await add({ names: many });
    expect(res.json).toMatchObject({ received: 10_000, added: 10_000, alreadyKnown: 0, invalid: 0 });
    const tooMany = await add({ names: [...many, "one-more.org"] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.details[0].field).toBe("body.names");
    expect((await add({})).status).toBe(400);
    expect((await add({ name: "a.com", names: ["b.com"] })).status).toBe(400);
    expect((await add({ name: "a.com", isValid: true })).status).toBe(400);
    await (await getDb()).domain.deleteMany({ where: { name: { startsWith: "bulk-" } } });
  });
});

describe("GET /domains and /api/v1/domains", () => {
  beforeAll(async () => {
    const db = await getDb();
    await db.domain.deleteMany({});
    // 25 domains: alpha-00 … alpha-24.test.com; every 5th invalid, every 3rd analysed.
    for (let i = 0; i < 25; i++) {
      const n = String(i).padStart(2, "0");
      await db.domain.create({
        data: {
          name: i % 5 === 4 ? `alpha-${n}.invalidtld` : `alpha-${n}.example.com`,
          isValid: i % 5 !== 4,
          validationError: i % 5 === 4 ? "not a known public suffix" : null,
          createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)),
          ...(i % 3 === 0
            ? {
                analysisText: i === 6 ? "A Shopping site for SHOES" : `Summary ${n}`,
                analyzedAt: new Date(Date.UTC(2025, 1, 1, 0, 30 - i)),
              }
            : {}),
        },
      });
    }
  });

  it("without parameters answers the first page of all domains, newest first, with pagination facts", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(20);
    expect(res.json.data[0].name).toBe("alpha-24.invalidtld");
    expect(res.json.pagination).toEqual({
      page: 1,
      limit: 20,
      total: 25,
      totalExact: true,
      totalPages: 2,
      hasNext: true,
    });
    const last = await list("page=2");
    expect(names(last)).toEqual([
      "alpha-04.invalidtld",
      "alpha-03.example.com",
      "alpha-02.example.com",
      "alpha-01.example.com",
      "alpha-00.example.com",
    ]);
    expect(last.json.pagination).toEqual({
      page: 2,
      limit: 20,
      total: 25,
      totalExact: true,
      totalPages: 2,
      hasNext: false,
    });
    const beyond = await list("page=9");
    expect(beyond.json.data).toEqual([]);
    expect(beyond.json.pagination.total).toBe(25);
  });

  it("the unversioned GET /domains is the same handler", async () => {
    expect(unversioned.GET).toBe(domains.GET);
    const res = await list("hasAnalysis=true&limit=3", session, unversioned.GET);
    expect(res.json).toEqual((await list("hasAnalysis=true&limit=3")).json);
  });

  it("filters by hasAnalysis (true|analyzed|false|not_analyzed) and isValid, alone and combined", async () => {
    const count = async (q: string) => (await list(q)).json.pagination.total;
    expect(await count("hasAnalysis=true")).toBe(9);
    expect(await count("hasAnalysis=analyzed")).toBe(9);
    expect(await count("hasAnalysis=false")).toBe(16);
    expect(await count("hasAnalysis=not_analyzed")).toBe(16);
    expect(await count("isValid=true")).toBe(20);
    expect(await count("isValid=false")).toBe(5);
    // Analysed: 0,3,6,9,12,15,18,21,24; invalid among them: 9, 24.
    expect(await count("hasAnalysis=true&isValid=true")).toBe(7);
    expect(await count("hasAnalysis=true&isValid=false")).toBe(2);
    expect(await count("hasAnalysis=not_analyzed&isValid=false")).toBe(3);
    const detail = (await list("hasAnalysis=true&limit=1&sort=name")).json.data[0];
    expect(detail).toMatchObject({
      name: "alpha-00.example.com",
      analysis: { text: "Summary 00", json: null },
      isValid: true,
    });
  });

  it("searches name and analysis text case-insensitively, combined with the other filters", async () => {
    // The total of a search is counted by its own query (countSearch): it must agree with the rows.
    const checkTotal = async (query: string, expected: number) =>
      expect((await list(query)).json.pagination.total, query).toBe(expected);
    await checkTotal("searchTerm=ALPHA-1", 10);
    await checkTotal("searchTerm=ALPHA-1&isValid=true", 8);
    await checkTotal("searchTerm=summary%201&hasAnalysis=analyzed", 3);
    await checkTotal("searchTerm=summary%201&hasAnalysis=false", 0);
    await checkTotal("searchTerm=invalidtld&isValid=false&hasAnalysis=true", 2);
    await checkTotal("searchTerm=invalidtld&isValid=false&hasAnalysis=false", 3);
    expect(names(await list("searchTerm=ALPHA-1&sort=name&limit=100"))).toEqual(
      Array.from({ length: 10 }, (_, i) => (i === 4 || i === 9 ? `alpha-1${i}.invalidtld` : `alpha-1${i}.example.com`)),
    );
    expect(names(await list("searchTerm=shoes"))).toEqual(["alpha-06.example.com"]);
    expect(names(await list("searchTerm=Shoes&hasAnalysis=false"))).toEqual([]);
    expect(names(await list("searchTerm=summary%201&hasAnalysis=analyzed&sort=name"))).toEqual([
      "alpha-12.example.com",
      "alpha-15.example.com",
      "alpha-18.example.com",
    ]);
    expect(names(await list("searchTerm=invalidtld&isValid=false&hasAnalysis=true&sort=name"))).toEqual([
      "alpha-09.invalidtld",
      "alpha-24.invalidtld",
    ]);
    // LIKE wildcards are literal characters here.
    expect((await list("searchTerm=%25")).json.pagination.total).toBe(0);
    expect((await list("searchTerm=_")).json.pagination.total).toBe(0);
    expect((await list("searchTerm=a%5C")).json.pagination.total).toBe(0);
    expect(names(await list("searchTerm=-07."))).toEqual(["alpha-07.example.com"]);
    expect((await list("searchTerm=")).json.pagination.total).toBe(25);
  });

  it("sorts by name, createdAt and analyzedAt in either direction", async () => {
    expect(names(await list("sort=name&limit=2"))).toEqual(["alpha-00.example.com", "alpha-01.example.com"]);
    expect(names(await list("sort=name:desc&limit=2"))).toEqual(["alpha-24.invalidtld", "alpha-23.example.com"]);
    expect(names(await list("sort=-name&limit=2"))).toEqual(["alpha-24.invalidtld", "alpha-23.example.com"]);
    expect(names(await list("sort=createdAt:asc&limit=2"))).toEqual(["alpha-00.example.com", "alpha-01.example.com"]);
    // analyzedAt runs backwards from i: newest analysis is alpha-00; unanalysed ones come last.
    expect(names(await list("sort=analyzedAt&limit=2"))).toEqual(["alpha-00.example.com", "alpha-03.example.com"]);
    expect(names(await list("sort=analyzedAt:asc&limit=2"))).toEqual(["alpha-24.invalidtld", "alpha-21.example.com"]);
    expect((await list("sort=analyzedAt:asc&limit=20&page=1")).json.data[9].analyzedAt).toBeNull();
    // Pages that straddle the analysed and the never-analysed domains (those newest first).
    const straddle = await list("sort=analyzedAt&limit=4&page=3");
    expect(names(straddle)).toEqual([
      "alpha-24.invalidtld",
      "alpha-23.example.com",
      "alpha-22.example.com",
      "alpha-20.example.com",
    ]);
    expect(straddle.json.pagination).toMatchObject({ total: 25, totalPages: 7, hasNext: true });
    const valid = await list("sort=analyzedAt:desc&isValid=true&limit=5&page=2");
    expect(names(valid)).toEqual([
      "alpha-18.example.com",
      "alpha-21.example.com",
      "alpha-23.example.com",
      "alpha-22.example.com",
      "alpha-20.example.com",
    ]);
    expect(valid.json.pagination.total).toBe(20);
    expect(names(await list("sort=analyzedAt&hasAnalysis=false&limit=2"))).toEqual([
      "alpha-23.example.com",
      "alpha-22.example.com",
    ]);
    expect(names(await list("sort=analyzedAt&hasAnalysis=true&limit=2&page=5"))).toEqual(["alpha-24.invalidtld"]);
  });

  it("pages with limit up to 100 and totals that stay right under filters", async () => {
    const res = await list("isValid=true&limit=7&page=3");
    expect(res.json.data).toHaveLength(6);
    expect(res.json.pagination).toEqual({
      page: 3,
      limit: 7,
      total: 20,
      totalExact: true,
      totalPages: 3,
      hasNext: false,
    });
    expect((await list("limit=100")).json.data).toHaveLength(25);
  });

  it("answers 400 naming the parameter for any other value", async () => {
    const cases: [string, string][] = [
      ["hasAnalysis=yes", "query.hasAnalysis"],
      ["hasAnalysis=", "query.hasAnalysis"],
      ["isValid=1", "query.isValid"],
      ["isValid=maybe", "query.isValid"],
      ["page=0", "query.page"],
      ["page=-1", "query.page"],
      ["page=1.5", "query.page"],
      ["limit=101", "query.limit"],
      ["limit=0", "query.limit"],
      ["sort=size", "query.sort"],
      ["sort=name:up", "query.sort"],
      ["analysisStatus=done", "query.analysisStatus"],
      [`searchTerm=${"x".repeat(201)}`, "query.searchTerm"],
    ];
    for (const [query, field] of cases) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(
        res.json.error.details.map((d: { field: string }) => d.field),
        query,
      ).toEqual([field]);
    }
  });
});

describe("list totals", () => {
  it("bucket counts kept by triggers agree with counting after inserts, updates, deletes and truncation", async () => {
    const db = await getDb();
    const check = async () => {
      for (const q of [
        "",
        "isValid=true",
        "isValid=false",
        "hasAnalysis=true",
        "hasAnalysis=false",
        "isValid=true&hasAnalysis=false",
        "isValid=false&hasAnalysis=true",
      ]) {
        const hasAnalysis = q.includes("hasAnalysis=true")
          ? { analyzedAt: { not: null } }
          : q.includes("hasAnalysis=false")
            ? { analyzedAt: null }
            : {};
        const isValid = q.includes("isValid=true")
          ? { isValid: true }
          : q.includes("isValid=false")
            ? { isValid: false }
            : {};
        expect((await list(q)).json.pagination.total, q).toBe(
          await db.domain.count({ where: { ...hasAnalysis, ...isValid } }),
        );
      }
    };
    await add({ names: ["count-a.com", "count-b.com", "count-c.invalidtld", "count-d.org"] });
    await check();
    await db.domain.updateMany({
      where: { name: { startsWith: "count-" } },
      data: { analyzedAt: new Date(), analysisText: "x" },
    });
    await db.domain.update({ where: { name: "count-a.com" }, data: { isValid: false } });
    await db.domain.updateMany({ where: { name: "count-b.com" }, data: { analysisText: "unchanged bucket" } });
    await check();
    await db.domain.deleteMany({ where: { name: { in: ["count-a.com", "count-d.org"] } } });
    await check();
    await db.$executeRawUnsafe('TRUNCATE "Domain"');
    expect((await list()).json.pagination.total).toBe(0);
    await add({ names: ["after-truncate.com"] });
    await check();
    expect((await list()).json.pagination.total).toBe(1);
  });
});

describe("a search with more matches than it counts", () => {
  // 1,050 matches of "many-", every other one analysed (newest analysis: the lowest number).
  beforeAll(async () => {
    const db = await getDb();
    await db.domain.deleteMany({});
    await db.domain.createMany({
      data: Array.from({ length: 1050 }, (_, i) => ({
        name: `many-${String(i).padStart(4, "0")}.example.net`,
        isValid: true,
        createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)),
        ...(i % 2 === 0 ? { analysisText: `Shop ${i}`, analyzedAt: new Date(Date.UTC(2025, 2, 1) - i * 1000) } : {}),
      })),
    });
    await db.domain.create({ data: { name: "other.example.org", isValid: true } });
  });

  it("counts 1,000 and says the total is a lower bound; deeper pages count on to their end; hasNext stays exact", async () => {
    const first = await list("searchTerm=MANY-");
    expect(first.json.pagination).toEqual({
      page: 1,
      limit: 20,
      total: 1000,
      totalExact: false,
      totalPages: 50,
      hasNext: true,
    });
    // Page 52 reaches row 1,040: counted to 1,041 (still more), so there is a next page.
    expect((await list("searchTerm=many-&page=52")).json.pagination).toMatchObject({
      total: 1041,
      totalExact: false,
      hasNext: true,
    });
    // Page 53 reaches past the last match: the count is exact again, and the page holds the last 10.
    const last = await list("searchTerm=many-&page=53");
    expect(last.json.pagination).toMatchObject({ total: 1050, totalExact: true, totalPages: 53, hasNext: false });
    expect(last.json.data).toHaveLength(10);
    expect(last.json.data[9].name).toBe("many-0000.example.net");
    // With another filter: 525 analysed matches are counted exactly; the whole list needs no search count.
    expect((await list("searchTerm=many-&hasAnalysis=true")).json.pagination).toMatchObject({
      total: 525,
      totalExact: true,
    });
    expect((await list("")).json.pagination).toMatchObject({ total: 1051, totalExact: true });
  });

  it("sorted by analysis time, a capped count still splits analysed and never-analysed rows right", async () => {
    const page = await list("searchTerm=many-&sort=analyzedAt&limit=20&page=27");
    // Rows 520-539: the last 5 analysed (520-524 in analysis order: many-1040 … many-1048), then the
    // never-analysed ones newest first (many-1049, many-1047, …).
    expect(page.json.pagination).toMatchObject({ total: 1000, totalExact: false, hasNext: true });
    expect(names(page).slice(0, 7)).toEqual([
      "many-1040.example.net",
      "many-1042.example.net",
      "many-1044.example.net",
      "many-1046.example.net",
      "many-1048.example.net",
      "many-1049.example.net",
      "many-1047.example.net",
    ]);
    const deep = await list("searchTerm=many-&sort=analyzedAt&limit=20&page=53");
    expect(deep.json.pagination).toMatchObject({ total: 1050, totalExact: true, hasNext: false });
    expect(names(deep).at(-1)).toBe("many-0001.example.net");
  });
});

describe("who may use the domain API", () => {
  it("keys with the domains permission, studio sessions of any role, admin Basic; not builders' Basic or other keys", async () => {
    const domainsKey = await createApiKey(
      { name: "d", permissions: ["domains"], chatflowIds: [] },
      await fixtureKeyOwner(),
    );
    const predictKey = await createApiKey(
      { name: "p", permissions: ["predict"], chatflowIds: [] },
      await fixtureKeyOwner(),
    );
    const builder = await (await getDb()).user.findUniqueOrThrow({ where: { email: "builder@example.com" } });
    expect((await list("", auth.bearer(domainsKey.key))).status).toBe(200);
    expect((await list("", auth.bearer(domainsKey.key), unversioned.GET)).status).toBe(200);
    expect((await add({ name: "keyed.com" }, auth.bearer(domainsKey.key))).status).toBe(200);
    expect((await list("", await auth.session(builder.id))).status).toBe(200);
    expect((await list("", auth.basic("admin@example.com", "admin-pass-1"))).status).toBe(200);
    expect((await list("", auth.bearer(predictKey.key))).status).toBe(403);
    expect((await list("", auth.basic("builder@example.com", "builder-pass-1"))).status).toBe(401);
    expect((await list("", auth.basic("admin@example.com", "wrong"))).status).toBe(401);
    expect((await list("", {})).status).toBe(401);
    expect((await list("", {}, unversioned.GET)).status).toBe(401);
  });
});
