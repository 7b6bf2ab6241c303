/**
 * Child process of kill-during-upsert.test.ts (run with tsx): reopens the database named by
 * DATABASE_URL (a PGlite data dir or a PostgreSQL database), prints what the keyword store holds,
 * then upserts batches of text files until it is killed. One JSON line per event on stdout:
 *   {chatflowId, counts}  chunks stored per source when the database was reopened
 *   {started: [files]}    an upsert of these files begins
 *   {done: [files], numAdded}
 * Usage: tsx upsert-child.ts <tag>   (file names are <tag>-<upsert>-<file>.txt)
 */
import { getDb } from "../../../lib/db/client";
import { migrateDatabase } from "../../../lib/db/migrate";
import { createChatflow } from "../../../lib/services/chatflows";
import { upsertVectors } from "../../../lib/services/upsert";
import { systemCaller } from "../../../dev/callers";

/**
 * Each upsert stores FILES_PER_UPSERT files of CHUNKS_PER_FILE chunks in one transaction: 2,400 rows,
 * more than one INSERT statement (the store writes 2,000 rows per statement), so a kill can land
 * between statements.
 */
export const FILES_PER_UPSERT = 3;
export const CHUNKS_PER_FILE = 800;
const FLOW_NAME = "kill during upsert";

const node = (id: string, type: string, inputs: Record<string, unknown> = {}) => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { inputs },
});
const edge = (source: string, output: string, target: string, input: string) => ({
  id: `${source}-${target}`,
  source,
  sourceHandle: `${source}:out:${output}`,
  target,
  targetHandle: `${target}:in:${input}`,
});
const graph = {
  nodes: [
    node("splitter", "recursiveTextSplitter", { chunkSize: 80, chunkOverlap: 0 }),
    node("loader", "textFileLoader"),
    node("keywordStore", "keywordStore", { topK: 3 }),
    // A store must feed a chain to make a valid flow; an upsert never builds or calls the model.
    node("chatModel", "chatOpenAICompatible", { temperature: 0 }),
    node("qa", "conversationalRetrievalQAChain"),
  ],
  edges: [
    edge("splitter", "textSplitter", "loader", "textSplitter"),
    edge("loader", "document", "keywordStore", "document"),
    edge("keywordStore", "retriever", "qa", "retriever"),
    edge("chatModel", "chatModel", "qa", "model"),
  ],
};

/** Paragraphs of ~75 characters with a chunk size of 80: one chunk each, none merged. */
function textFile(name: string) {
  const paragraphs = Array.from(
    { length: CHUNKS_PER_FILE },
    (_, i) => `Paragraph ${i} of ${name}: the quick brown fox jumps over a lazy dog.`,
  );
  return { name, mime: "text/plain", ext: ".txt", bytes: Buffer.from(paragraphs.join("\n\n")) };
}

const say = (event: object) => process.stdout.write(`${JSON.stringify(event)}\n`);

async function flowId(): Promise<string> {
  const existing = await (await getDb()).chatflow.findFirst({ where: { name: FLOW_NAME } });
  return existing?.id ?? (await createChatflow({ name: FLOW_NAME, graph: graph as never }, systemCaller)).id;
}

async function main(): Promise<void> {
  const tag = process.argv[2];
  await migrateDatabase(); // a fresh PGlite data dir on the first run; getDb() does not migrate
  const chatflowId = await flowId();
  const rows = await (await getDb()).documentChunk.groupBy({
    by: ["source"],
    where: { chatflowId },
    _count: { _all: true },
  });
  say({ chatflowId, counts: Object.fromEntries(rows.map((r) => [r.source, r._count._all])) });
  for (let u = 0; ; u++) {
    const files = Array.from({ length: FILES_PER_UPSERT }, (_, f) => textFile(`${tag}-${u}-${f}.txt`));
    say({ started: files.map((f) => f.name) });
    const { numAdded } = await upsertVectors({
      chatflowId,
      caller: systemCaller,
      files,
      overrideConfig: {},
      returnSourceDocuments: false,
    });
    say({ done: files.map((f) => f.name), numAdded });
  }
}

// Only as a script: the test imports the constants above.
if (process.argv[1] === import.meta.filename) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
