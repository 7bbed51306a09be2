#!/usr/bin/env bash
# `npm test`: every suite. Lint and types, unit and component tests, the API on PGlite and on a
# PostgreSQL 15 server, then browser journeys in Chromium against the freshly built app.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-test-tools.sh

echo "== lint and types"
npx biome check .
bash scripts/lint-probes.sh
npx tsc -p tsconfig.json --noEmit

echo "== unit, component and API tests (PGlite)"
# PGlite loads its WebAssembly with a dynamic import, which jest runs only with VM modules on.
JEST=(node --experimental-vm-modules --no-warnings=ExperimentalWarning node_modules/jest/bin/jest.js --ci)
"${JEST[@]}"

echo "== API tests on PostgreSQL 15"
bash scripts/with-postgres.sh "${JEST[@]}" --selectProjects server

echo "== build"
node scripts/build-all.mjs
# Each module as built here could be published to the shell built here (the server's publish rule).
node --import tsx scripts/check-module-skew.ts

echo "== browser journeys (Chromium)"
npm test -w e2e
