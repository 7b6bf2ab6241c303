// A server process for `npm run bench` without a production build (BENCH_SERVER=routes): the same
// start-up as the app (migrations, admin from ADMIN_EMAIL) and the real route handlers the bench
// calls, served by plain node:http (dev/route-server.ts) instead of Next.js. Comparing it with the
// Next.js server in the same run shows what Next's routing and proxy.ts cost per request.
// Prints `READY <url>` once it listens on 127.0.0.1 (port 0: a free one).
import { serveRoutes } from "../dev/route-server";

const { bootstrapOrExit } = await import("../lib/services/bootstrap");
await bootstrapOrExit();
// As instrumentation.ts does for the app: traces only with OTEL_EXPORTER_OTLP_ENDPOINT set.
await (await import("../lib/telemetry/start")).startTracingOrWarn();
const prediction = await import("../app/api/v1/prediction/[id]/route");
const chatflows = await import("../app/api/v1/chatflows/route");
const chatflowImport = await import("../app/api/v1/chatflows/import/route");
const apikey = await import("../app/api/v1/apikey/route");
const ping = await import("../app/api/v1/ping/route");

const server = await serveRoutes([
  { method: "POST", pattern: /^\/api\/v1\/prediction\/(?<id>[^/]+)$/, handler: prediction.POST as never },
  { method: "POST", pattern: /^\/api\/v1\/chatflows$/, handler: chatflows.POST as never },
  { method: "POST", pattern: /^\/api\/v1\/chatflows\/import$/, handler: chatflowImport.POST as never },
  { method: "POST", pattern: /^\/api\/v1\/apikey$/, handler: apikey.POST as never },
  { method: "GET", pattern: /^\/api\/v1\/ping$/, handler: ping.GET as never },
]);
console.log(`READY ${server.url}`);
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
