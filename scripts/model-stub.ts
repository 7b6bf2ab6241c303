/**
 * `tsx scripts/model-stub.ts`: the scripted OpenAI-compatible model stub on 127.0.0.1:4011
 * (MODEL_STUB_PORT / MODEL_STUB_HOST override; MODEL_STUB_TRANSCRIPT sets the transcription text;
 * MODEL_STUB_LATENCY_MS delays every chat/embeddings answer, like a network-bound model).
 * Point the app at it with OPENAI_BASE_URL=http://127.0.0.1:4011/v1 OPENAI_API_KEY=stub.
 * Stops cleanly on SIGINT / SIGTERM.
 */
import { z } from "zod";
import { createModelStub, DEFAULT_TRANSCRIPT } from "../dev/model-stub/server";

const envSchema = z.object({
  MODEL_STUB_HOST: z.string().min(1).default("127.0.0.1"),
  MODEL_STUB_PORT: z.coerce.number().int().min(0).max(65535).default(4011),
  MODEL_STUB_TRANSCRIPT: z.string().default(DEFAULT_TRANSCRIPT),
  MODEL_STUB_EMBEDDING_DIMENSIONS: z.coerce.number().int().min(1).max(4096).default(64),
  MODEL_STUB_LATENCY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
});

async function main(): Promise<void> {
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) console.error(`model-stub: ${issue.path.join(".")}: ${issue.message}`);
    process.exit(2);
  }
  const env = parsed.data;
  const stub = await createModelStub({
    host: env.MODEL_STUB_HOST,
    port: env.MODEL_STUB_PORT,
    transcript: env.MODEL_STUB_TRANSCRIPT,
    embeddingDimensions: env.MODEL_STUB_EMBEDDING_DIMENSIONS,
    latencyMs: env.MODEL_STUB_LATENCY_MS,
  });
  console.log(`model-stub listening on ${stub.url} (OpenAI-compatible; set OPENAI_BASE_URL=${stub.url})`);
  const stop = (signal: string) => {
    console.log(`model-stub: ${signal}, shutting down`);
    stub.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

main().catch((err) => {
  console.error(`model-stub failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
