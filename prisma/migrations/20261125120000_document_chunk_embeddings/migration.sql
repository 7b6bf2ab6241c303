-- Written by hand: the pgvector embeddings of "DocumentChunk" (lib/db/queries/document-chunks.ts).
-- They need the extension "vector", which embedded PGlite has and a PostgreSQL server may lack:
-- there this step does nothing (a NOTICE says why), every other table still migrates, and a vector
-- store answers that pgvector is missing (the keyword store needs nothing). Once pgvector is
-- installed, running this file again (psql -f) creates the table; every statement is idempotent.
-- The table is external to schema.prisma (see EXTERNAL_TABLES in lib/db/migrations.ts). The
-- collection is repeated here so a search scans this table alone; exact (brute-force) cosine
-- search: an HNSW index builds and inserts far too slowly on embedded PGlite.
-- One DO statement in an E'' string with \073 for ";": the migration runner splits scripts on semicolons.
DO E'BEGIN IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = ''vector'') THEN CREATE EXTENSION IF NOT EXISTS vector\073 CREATE TABLE IF NOT EXISTS "document_chunk_embeddings" ("chunkId" uuid PRIMARY KEY REFERENCES "DocumentChunk"("id") ON DELETE CASCADE, "chatflowId" uuid NOT NULL, "nodeId" text NOT NULL, "dims" integer NOT NULL, "embedding" vector NOT NULL)\073 CREATE INDEX IF NOT EXISTS "document_chunk_embeddings_collection_idx" ON "document_chunk_embeddings" ("chatflowId", "nodeId")\073 ELSE RAISE NOTICE ''pgvector unavailable: no document_chunk_embeddings table, vector stores are off''\073 END IF\073 EXCEPTION WHEN OTHERS THEN RAISE NOTICE ''pgvector unavailable (%), vector stores are off'', SQLERRM\073 END';
