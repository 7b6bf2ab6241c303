// A server process for tests that kill and restart the app without a production build: the app's
// start-up (instrumentation.ts: migrations, admin, the agentflow takeover, the trigger run sweeps) and every real route
// handler of app/api, served by plain node:http (dev/route-server.ts) instead of Next.js.
// Prints `READY <url>` once it listens on 127.0.0.1 (a free port).
import { loadApiRoutes, routesOf, serveRoutes } from "../../dev/route-server";

const { bootstrapOrExit } = await import("../../lib/services/bootstrap");
await bootstrapOrExit();
(await import("../../lib/services/agentflow-recovery")).startAbandonedRunRecovery();
(await import("../../lib/services/trigger-run-leases")).startTriggerRunSweeps();
const server = await serveRoutes(routesOf(await loadApiRoutes()));
console.log(`READY ${server.url}`);
