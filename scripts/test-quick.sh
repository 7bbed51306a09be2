#!/usr/bin/env bash
# `npm run test:quick`: the inner loop, in a minute or two. Lint and types of the whole tree (seconds),
# then the unit, component and API tests the change reaches: those of the files changed since the base
# (committed, staged, unstaged or new) and of every file that imports them, directly or not (jest's
# --changedSince), or every package's when `shared` changed. The base is QUICK_BASE, else the branch's upstream, else HEAD (uncommitted work).
# Browser journeys and the PostgreSQL server run are `npm test`'s.
set -euo pipefail
cd "$(dirname "$0")/.."

base=${QUICK_BASE:-$(git rev-parse --verify --quiet '@{upstream}' 2>/dev/null || git rev-parse HEAD)}

echo "== lint and types"
npx biome check .
bash scripts/lint-probes.sh
npx tsc -p tsconfig.json --noEmit

JEST=(node --experimental-vm-modules --no-warnings=ExperimentalWarning node_modules/jest/bin/jest.js)
changed=$({ git diff --name-only "$base"; git ls-files --others --exclude-standard; } | sort -u)
# Every package imports `shared` by its package name, a path jest's per-package projects do not follow
# back to the change: a change to it runs every package's tests.
if grep -q '^shared/' <<<"$changed"; then
  echo "== shared changed since $(git rev-parse --short "$base"): every package's tests"
  "${JEST[@]}" "$@"
else
  echo "== tests the change reaches (since $(git rev-parse --short "$base"))"
  "${JEST[@]}" --changedSince="$base" --passWithNoTests "$@"
fi
