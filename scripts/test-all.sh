#!/usr/bin/env bash
# `npm test`: every test. Type check; format, lint and dependency rules; unit + integration on
# in-memory PGlite, the integration suite again on the PostgreSQL server (a fresh database per test
# file, dropped after), a set of integration files through the embedded database thread (server/pglite-wire.mjs),
# then the browser tests in Debian's Chromium against a production build.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

step() { printf '\n==> %s\n' "$*"; }

if ! command -v "${CHROMIUM_PATH:-/usr/bin/chromium}" >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    step "Installing Debian's Chromium for the browser tests"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing: install it with 'sudo apt-get install -y chromium' (or set CHROMIUM_PATH)." >&2
    exit 1
  fi
fi

PG_URL="${TEST_PG_URL:-postgresql://postgres@127.0.0.1:5432/postgres}"

# Flowise's 24 marketplace chatflows (tests/support/flowise-marketplace.ts): read from the flowise@3.1.4
# package, fetched once from the npm registry and unpacked in /tmp (never into the project), so the
# marketplace tests run rather than skip. Only the tarball is fetched: nothing is installed or run.
if [ -z "${FLOWISE_MARKETPLACE_DIR:-}" ] && [ ! -f /tmp/flowise-npm/package/marketplaces/chatflows/"Conversation Chain.json" ]; then
  step "Fetching Flowise 3.1.4's marketplace templates (npm pack, unpacked in /tmp/flowise-npm)"
  mkdir -p /tmp/flowise-npm
  tarball=$(cd /tmp/flowise-npm && npm pack flowise@3.1.4 --silent)
  tar -xzf "/tmp/flowise-npm/$tarball" -C /tmp/flowise-npm package/marketplaces
fi

step "Type check"
npx tsc --noEmit -p .

step "Format, lint and dependency rules"
bash scripts/lint.sh

step "Unit and integration tests (embedded PGlite)"
npx vitest run

step "Integration tests on PostgreSQL ($PG_URL)"
if node -e "const c=new (require('pg').Client)({connectionString:process.argv[1]});c.connect().then(()=>c.end()).catch(()=>process.exit(1))" "$PG_URL"; then
  TEST_PG_URL="$PG_URL" npx vitest run --project integration
else
  echo "PostgreSQL is not reachable at $PG_URL: start it (see README) or set TEST_PG_URL." >&2
  exit 1
fi

step "Integration tests through the embedded database's own thread (what npm start runs)"
# server/pglite-wire.mjs serves PGlite over a socket to the app's pg pool; the whole suite passes this
# way too (TEST_PGLITE_THREAD=true npx vitest run --project integration), these files cover the hot path,
# transactions, vectors and versions in CI time.
TEST_PGLITE_THREAD=true npx vitest run --project integration \
  tests/integration/prediction.test.ts tests/integration/prediction-streaming.test.ts \
  tests/integration/chat-messages.test.ts tests/integration/chatflows.test.ts tests/integration/versions.test.ts \
  tests/integration/chatflow-tests.test.ts tests/integration/retrieval.test.ts tests/integration/upsert-vector.test.ts \
  tests/integration/domains-analysis.test.ts tests/integration/session-history-cache.test.ts tests/security/fuzz.test.ts

step "Production build"
npx next build

step "Browser tests (Chromium)"
npx playwright test
