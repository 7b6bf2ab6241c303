// Next.js calls register() once per server process, before the first request (next start through
// server/start.mjs, and next dev): the start-up migration happens here, not in getDb().
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { bootstrapOrExit } = await import("./lib/services/bootstrap");
  await bootstrapOrExit();
}
