#!/usr/bin/env bash
# `npm run test:quick`: the inner loop, in a minute or two. Lint and types of the whole tree (seconds),
# then the unit, component and API tests the change reaches: those of the files changed since the base
# (committed, staged, unstaged or new) and of every file that imports them, directly or not (jest's
# --changedSince). The base is QUICK_BASE, else the branch's upstream, else HEAD (uncommitted work).
# Browser journeys and the PostgreSQL server run are `npm test`'s.
set -euo pipefail
cd "$(dirname "$0")/.."

base=${QUICK_BASE:-$(git rev-parse --verify --quiet '@{upstream}' 2>/dev/null || git rev-parse HEAD)}

echo "== lint and types"
npx biome check .
npx tsc -p tsconfig.json --noEmit

echo "== tests the change reaches (since $(git rev-parse --short "$base"))"
node --experimental-vm-modules --no-warnings=ExperimentalWarning node_modules/jest/bin/jest.js \
  --changedSince="$base" --passWithNoTests "$@"
