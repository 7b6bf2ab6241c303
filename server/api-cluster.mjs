// @ts-check
// `API_PROCESSES=N npm start` (N > 1): this process becomes the primary of a Node cluster. It owns
// the embedded database's thread (when the database is embedded) and forks N API processes that
// share the listening port (the primary hands out connections round-robin) and the database's
// socket, so the app uses every core. They share caches' invalidations and rate limits through
// Redis (REDIS_URL), as queue mode's API processes do. The first process starts alone (it migrates
// and loads the example flows); the others start once it listens. A process that dies is replaced.
import cluster from "node:cluster";

/** What the primary sends its API processes to make them stop as on SIGTERM. */
export const SHUTDOWN = "switchyard:shutdown";

/**
 * Checks the settings of a cluster start; returns the reason it cannot run, or null.
 * @param {{ processes: number, redisUrl?: string, embedded: boolean, thread: boolean }} s
 */
export function clusterProblem({ processes, redisUrl, embedded, thread }) {
  if (!Number.isInteger(processes) || processes < 1 || processes > 64)
    return "API_PROCESSES must be a whole number from 1 to 64";
  if (processes === 1) return null;
  if (!redisUrl)
    return "API_PROCESSES above 1 needs REDIS_URL: the processes share cache invalidations and rate limits through Redis";
  if (embedded && !thread)
    return "API_PROCESSES above 1 needs the embedded database on its own thread (unset PGLITE_THREAD=false): PGlite allows one opener";
  return null;
}

/**
 * Runs the primary: forks `processes` API processes (this script again, as cluster workers), the
 * first one alone, replaces any that dies, and on SIGTERM/SIGINT passes the signal on, waits for
 * them all to finish (each has its own grace period) and resolves `stopped` with the exit code.
 * @param {{ processes: number, log?: (line: string) => void }} options
 * @returns {Promise<number>} the exit code once every API process has stopped after a signal
 */
export function runPrimary({ processes, log = (line) => console.log(line) }) {
  let stopping = false;
  const fork = () => cluster.fork();
  const workers = () => Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
  return new Promise((resolve) => {
    let failed = false;
    cluster.on("exit", (worker, code, signal) => {
      if (stopping) {
        if (code !== 0) failed = true;
        if (workers().length === 0) resolve(failed ? 1 : 0);
        return;
      }
      log(
        `[switchyard] API process ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}): starting another`,
      );
      fork();
    });
    const first = fork();
    first.once("listening", () => {
      for (let i = 1; i < processes; i++) fork();
    });
    const onSignal = (/** @type {NodeJS.Signals} */ sig) => {
      if (stopping) {
        log(`${sig} again: exiting now.`);
        for (const w of workers()) w.process.kill("SIGKILL");
        resolve(1);
        return;
      }
      stopping = true;
      log(`${sig}: stopping ${workers().length} API process(es).`);
      // A message, not the signal: a Ctrl-C already reached them (same process group), and a second
      // signal would make them exit at once instead of finishing their requests.
      for (const w of workers()) if (w.isConnected()) w.send(SHUTDOWN);
      if (workers().length === 0) resolve(0);
    };
    process.on("SIGTERM", () => onSignal("SIGTERM"));
    process.on("SIGINT", () => onSignal("SIGINT"));
  });
}
