#!/bin/sh
# Runs node with the server's memory settings (npm start, npm run serve, the bench's server):
# `sh server/run-node.sh server/start.mjs [args]`. `exec`, so the server keeps this process's pid.
#
# - jemalloc as the process's malloc when the machine has it (Debian: libjemalloc2), unless
#   SWITCHYARD_MALLOC=system or LD_PRELOAD is set already. glibc's malloc keeps what V8's compiler
#   zones and the database thread freed inside its arenas; jemalloc gives freed pages back after a
#   few seconds.
# - Otherwise glibc with two arenas (MALLOC_ARENA_MAX, default there: 8 per core), which keep less
#   at rest than its default.
# The figures behind both: bench/measured.md, "Malloc".
# Both are read when the process starts, so they cannot be set from inside node.
if [ -z "${LD_PRELOAD:-}" ] && [ "${SWITCHYARD_MALLOC:-jemalloc}" = jemalloc ]; then
  for lib in /usr/lib/x86_64-linux-gnu/libjemalloc.so.2 /usr/lib/aarch64-linux-gnu/libjemalloc.so.2 \
    /usr/lib64/libjemalloc.so.2 /usr/lib/libjemalloc.so.2 /usr/local/lib/libjemalloc.so.2; do
    if [ -r "$lib" ]; then
      LD_PRELOAD="$lib"
      # Two arenas, as for glibc below (jemalloc's default, 4 per core, kept more at start-up).
      MALLOC_CONF="${MALLOC_CONF:-narenas:2}"
      export LD_PRELOAD MALLOC_CONF
      break
    fi
  done
fi
MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export MALLOC_ARENA_MAX
exec "${NODE_BINARY:-node}" "$@"
