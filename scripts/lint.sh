#!/usr/bin/env bash
# `npm run lint` (and a step of `npm test`): Biome's format and lint check, then the dependency rules
# of .dependency-cruiser.cjs. Both run, so one pass lists every problem; either failing fails. A lint
# warning fails too (--error-on-warnings): a warning nobody has to fix piles up (35 did) and hides the
# new one. Where a rule is wrong for one line, say so there: `// biome-ignore lint/<group>/<rule>: <why>`.
# Fix with `npm run format` (layout), `npm run lint:fix` (Biome's safe fixes) and by hand for the rest.
set -uo pipefail
cd "$(dirname "$0")/.."

ok=true
npx biome check --error-on-warnings . || ok=false
npx depcruise . --config .dependency-cruiser.cjs || ok=false
if [ "$ok" != true ]; then
  echo "Format, lint or dependency rules failed (see above)." >&2
  exit 1
fi
