import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const script = path.join(import.meta.dirname, "run-node.sh");
const JEMALLOC = "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2";
/** What the node started by run-node.sh sees: its malloc library (from its own maps) and settings. */
function probe(env: Record<string, string | undefined>) {
  // The runner's own settings out (npm start may have set them for this process), the case's in.
  const { LD_PRELOAD: _p, MALLOC_ARENA_MAX: _a, MALLOC_CONF: _c, SWITCHYARD_MALLOC: _s, ...clean } = process.env;
  const out = execFileSync(
    "sh",
    [
      script,
      "-e",
      `const maps = require("fs").readFileSync("/proc/self/maps", "utf8");
       console.log(JSON.stringify({ jemalloc: maps.includes("libjemalloc"), preload: process.env.LD_PRELOAD ?? null,
         arenas: process.env.MALLOC_ARENA_MAX ?? null, conf: process.env.MALLOC_CONF ?? null }))`,
    ],
    { encoding: "utf8", env: { ...clean, NODE_BINARY: process.execPath, ...env } },
  );
  return JSON.parse(out) as { jemalloc: boolean; preload: string | null; arenas: string | null; conf: string | null };
}

describe("server/run-node.sh (how npm start runs node)", () => {
  it("uses the machine's jemalloc by default, with two arenas, else glibc's", () => {
    const chosen = probe({});
    expect(chosen.arenas).toBe("2");
    if (fs.existsSync(JEMALLOC)) {
      // Debian's libjemalloc2 (on this machine kind; .ci/run installs it) must be found.
      expect(chosen).toMatchObject({ jemalloc: true, preload: JEMALLOC, conf: "narenas:2" });
      // A caller's jemalloc settings win.
      expect(probe({ MALLOC_CONF: "narenas:1" })).toMatchObject({ jemalloc: true, conf: "narenas:1" });
    } else if (chosen.preload) {
      // Another system's jemalloc, at one of the other paths run-node.sh knows.
      expect(chosen).toMatchObject({ jemalloc: true, conf: "narenas:2" });
      expect(path.basename(chosen.preload)).toBe("libjemalloc.so.2");
    } else {
      // None: glibc's malloc, nothing preloaded.
      expect(chosen).toMatchObject({ jemalloc: false, conf: null });
    }
  });

  it("uses glibc's malloc with two arenas when SWITCHYARD_MALLOC=system", () => {
    expect(probe({ SWITCHYARD_MALLOC: "system" })).toMatchObject({
      jemalloc: false,
      preload: null,
      arenas: "2",
      conf: null,
    });
  });

  it("leaves a caller's LD_PRELOAD and MALLOC_ARENA_MAX alone", () => {
    // An empty-named preload would fail: use the C library itself, always present where node runs.
    const libc = fs.readFileSync("/proc/self/maps", "utf8").match(/\/\S*libc\.so\.6/)?.[0];
    expect(libc).toBeTruthy();
    expect(probe({ LD_PRELOAD: libc, MALLOC_ARENA_MAX: "4" })).toMatchObject({
      jemalloc: false,
      preload: libc,
      arenas: "4",
    });
  });
});
