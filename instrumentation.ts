// Next.js calls register() once per server process, before the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { bootstrap } = await import("./lib/services/bootstrap");
  await bootstrap();
}
