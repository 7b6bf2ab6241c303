-- CreateTable
CREATE TABLE "DomainCount" (
    "isValid" BOOLEAN NOT NULL,
    "hasAnalysis" BOOLEAN NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "DomainCount_pkey" PRIMARY KEY ("isValid","hasAnalysis")
);

-- Hand-written (Prisma does not model triggers): keep "DomainCount" in step with "Domain", one
-- statement at a time (transition tables), locking buckets in key order so writers cannot deadlock.
-- Bodies are E-strings with \073 for each semicolon: the schema engine's PostgreSQL adapter splits
-- migration scripts on semicolons, which dollar quoting does not survive.
CREATE FUNCTION "domain_count_on_insert"() RETURNS TRIGGER LANGUAGE plpgsql AS E'BEGIN INSERT INTO "DomainCount" ("isValid", "hasAnalysis", "count") SELECT "isValid", "analyzedAt" IS NOT NULL, COUNT(*) FROM "new_rows" GROUP BY 1, 2 ORDER BY 1, 2 ON CONFLICT ("isValid", "hasAnalysis") DO UPDATE SET "count" = "DomainCount"."count" + EXCLUDED."count"\073 RETURN NULL\073 END';

CREATE FUNCTION "domain_count_on_delete"() RETURNS TRIGGER LANGUAGE plpgsql AS E'BEGIN INSERT INTO "DomainCount" ("isValid", "hasAnalysis", "count") SELECT "isValid", "analyzedAt" IS NOT NULL, -COUNT(*) FROM "old_rows" GROUP BY 1, 2 ORDER BY 1, 2 ON CONFLICT ("isValid", "hasAnalysis") DO UPDATE SET "count" = "DomainCount"."count" + EXCLUDED."count"\073 RETURN NULL\073 END';

CREATE FUNCTION "domain_count_on_update"() RETURNS TRIGGER LANGUAGE plpgsql AS E'BEGIN INSERT INTO "DomainCount" ("isValid", "hasAnalysis", "count") SELECT v, a, SUM(n) FROM (SELECT "isValid", "analyzedAt" IS NOT NULL, 1 FROM "new_rows" UNION ALL SELECT "isValid", "analyzedAt" IS NOT NULL, -1 FROM "old_rows") d(v, a, n) GROUP BY v, a HAVING SUM(n) <> 0 ORDER BY v, a ON CONFLICT ("isValid", "hasAnalysis") DO UPDATE SET "count" = "DomainCount"."count" + EXCLUDED."count"\073 RETURN NULL\073 END';

CREATE FUNCTION "domain_count_on_truncate"() RETURNS TRIGGER LANGUAGE plpgsql AS E'BEGIN DELETE FROM "DomainCount"\073 RETURN NULL\073 END';

CREATE TRIGGER "Domain_count_insert" AFTER INSERT ON "Domain" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "domain_count_on_insert"();
CREATE TRIGGER "Domain_count_delete" AFTER DELETE ON "Domain" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "domain_count_on_delete"();
CREATE TRIGGER "Domain_count_update" AFTER UPDATE ON "Domain" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "domain_count_on_update"();
CREATE TRIGGER "Domain_count_truncate" AFTER TRUNCATE ON "Domain"
  FOR EACH STATEMENT EXECUTE FUNCTION "domain_count_on_truncate"();

INSERT INTO "DomainCount" ("isValid", "hasAnalysis", "count")
SELECT "isValid", "analyzedAt" IS NOT NULL, COUNT(*) FROM "Domain" GROUP BY 1, 2;

-- Substring search (ILIKE) on names and analyses: trigram indexes where pg_trgm exists. PostgreSQL
-- servers ship it, embedded PGlite does not load it (searches scan there).
DO E'BEGIN CREATE EXTENSION IF NOT EXISTS pg_trgm\073 CREATE INDEX "Domain_name_trgm_idx" ON "Domain" USING gin ("name" gin_trgm_ops)\073 CREATE INDEX "Domain_analysisText_trgm_idx" ON "Domain" USING gin ("analysisText" gin_trgm_ops)\073 EXCEPTION WHEN OTHERS THEN RAISE NOTICE ''pg_trgm unavailable (%), domain search runs without trigram indexes'', SQLERRM\073 END';
