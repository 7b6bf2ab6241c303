import { getEnv } from "../env";
import { getAppliedMigrations } from "../db/client";
import { ensureAdminFromEnv } from "./users";
import { loadExampleFlowsOnce } from "./examples";

/**
 * Runs once when the server starts (instrumentation.ts): applies migrations, creates the admin
 * from the environment, and loads the example flows on the first start.
 */
export async function bootstrap(): Promise<void> {
  const env = getEnv();
  const applied = await getAppliedMigrations();
  if (applied.length) console.log(`[switchyard] applied migrations: ${applied.join(", ")}`);
  const admin = await ensureAdminFromEnv(env);
  if (admin) console.log(`[switchyard] created admin ${admin.email} from ADMIN_EMAIL`);
  if (env.LOAD_EXAMPLE_FLOWS === "true") {
    const loaded = await loadExampleFlowsOnce();
    if (loaded) console.log(`[switchyard] loaded ${loaded} example chatflows from flows/`);
  }
}
