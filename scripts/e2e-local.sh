#!/usr/bin/env bash
# Builds and runs browser tests under one lock: several people (or agents) share .next on one
# machine (the servers themselves take free ports). Usage: bash scripts/e2e-local.sh [playwright args…]
set -euo pipefail
cd "$(dirname "$0")/.."
exec flock /tmp/switchyard-e2e.lock bash -c 'npx next build >/tmp/switchyard-build.log 2>&1 || { tail -40 /tmp/switchyard-build.log; exit 1; }; npx playwright test "$@"' _ "$@"
