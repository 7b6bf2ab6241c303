import { getEnv } from "../env";
import { migrateDatabase } from "../db/migrate";
import { ensureAdminFromEnv } from "./users";
import { loadExampleFlowsOnce } from "./examples";
import { log } from "../log";

// Operational lines go to the JSON log; "cannot start" stays one plain stderr line (read by people and tests).
const say = (line: string) => log.info(line);

/**
 * Runs once when the server starts (instrumentation.ts): applies migrations, creates the admin
 * from the environment, and loads the example flows on the first start. Processes starting
 * together on one PostgreSQL database take turns (lib/db/migration-lock.ts): one migrates, the
 * others wait for it and then find nothing to do.
 */
export async function bootstrap(): Promise<void> {
  const env = getEnv();
  await migrateDatabase({
    onWait: () => say("waiting for another process to finish migrating the database…"),
    andThen: async (applied) => {
      if (applied.length) say(`applied migrations: ${applied.join(", ")}`);
      const admin = await ensureAdminFromEnv(env);
      if (admin) say(`created admin ${admin.email} from ADMIN_EMAIL`);
      if (env.LOAD_EXAMPLE_FLOWS === "true") {
        const loaded = await loadExampleFlowsOnce();
        if (loaded) say(`loaded ${loaded} example chatflows from flows/`);
      }
    },
  });
  await armSchedules();
}

/**
 * Every enabled schedule armed: timers in embedded mode, BullMQ job schedulers in queue mode (every
 * API process upserts the same ones: still one job per tick). A queue that does not answer is not a
 * reason to refuse to start: schedules are armed again by their next change or the next start.
 */
async function armSchedules(): Promise<void> {
  const { scheduleRunner } = await import("./schedule-runner");
  try {
    const armed = await scheduleRunner().armAll();
    if (armed) say(`armed ${armed} schedule(s)`);
  } catch (err) {
    log.warn({ err: err instanceof Error ? err.message : String(err) }, "could not arm the schedules");
  }
}

/**
 * Start-up as the server runs it: a process that cannot migrate or bootstrap exits with one line
 * saying why (non-zero), instead of staying up without serving.
 */
export async function bootstrapOrExit(): Promise<void> {
  try {
    await bootstrap();
  } catch (err) {
    // A refused connection may carry no message of its own (only a code).
    const e = err as { message?: string; code?: string };
    const message = (err instanceof Error && e.message) || e?.code || String(err);
    console.error(`[switchyard] cannot start: ${message.replace(/\s+/g, " ").trim()}`);
    process.exit(1);
  }
}
