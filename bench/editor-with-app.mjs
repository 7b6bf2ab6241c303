// Runs bench/editor.ts against the built app, started here on its own port and data directory
// (or against BENCH_URL when given). Part of `npm run bench`; needs `npm run build` first.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const run = (env) =>
  spawnSync("npx", ["tsx", "bench/editor.ts"], { cwd: root, stdio: "inherit", env: { ...process.env, ...env } })
    .status ?? 1;

if (process.env.BENCH_URL) process.exit(run({}));
if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) {
  console.log("editor bench skipped: no build (run `npm run build`, or set BENCH_URL to a running app).");
  process.exit(0);
}
const port = String(3400 + Math.floor(Math.random() * 500));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-editor-bench-"));
const creds = { ADMIN_EMAIL: "bench@switchyard.test", ADMIN_PASSWORD: "bench-password-1" };
const app = spawn(process.execPath, ["server/start.mjs", "--no-build"], {
  cwd: root,
  stdio: "ignore",
  env: {
    ...process.env,
    ...creds,
    PORT: port,
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: `pglite:${dataDir}/pglite`,
    LOAD_EXAMPLE_FLOWS: "false",
  },
});
const url = `http://127.0.0.1:${port}`;
let status = 1;
try {
  for (let i = 0; i < 120; i++) {
    if (
      await fetch(`${url}/api/v1/ping`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 500));
  }
  status = run({ BENCH_URL: url, BENCH_EMAIL: creds.ADMIN_EMAIL, BENCH_PASSWORD: creds.ADMIN_PASSWORD });
} finally {
  app.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(status);
