#!/usr/bin/env bash
# Proves biome.json's server import rules still bite: each probe writes a tiny file where the rule
# applies, lints it alone and expects the rule's refusal (or, for a control, no refusal), then deletes
# it. A rule that silently stopped matching (a renamed folder, a glob typo) fails here, not in review.
# The rules and the allow-list: server/src/resources/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

# Inside the tree, where the overrides' globs reach: a folder of a resource that does not exist.
probe_dir="server/src/resources/lint-probe-$$"
probe_db="server/src/db/lint-probe-$$.ts"
cleanup() { rm -rf "$probe_dir" "$probe_db"; }
trap cleanup EXIT
mkdir -p "$probe_dir"

failures=0
# probe <refused|allowed> <file> <what it checks> <source>
probe() {
  local expect=$1 file=$2 label=$3 source=$4 output status=0
  printf '%s\nexport const probe = 1;\n' "$source" >"$file"
  output=$(npx biome lint --max-diagnostics=5 "$file" 2>&1) || status=$?
  rm -f "$file"
  if [[ $expect == refused ]] && { [[ $status -eq 0 ]] || ! grep -q noRestrictedImports <<<"$output"; }; then
    echo "lint probe FAILED: $label was not refused"
    failures=$((failures + 1))
  elif [[ $expect == allowed && $status -ne 0 ]]; then
    echo "lint probe FAILED: $label was refused"
    echo "$output"
    failures=$((failures + 1))
  else
    echo "lint probe ok: $label $expect"
  fi
}

# HTTP errors belong to routes, plugins/ and app.ts; data files throw domain/ errors.
probe refused "$probe_dir/probeData.ts" 'a data file importing HttpError' \
  "import { HttpError } from '../../plugins/errors'; void HttpError;"
probe refused "$probe_dir/probeData.ts" "a data file importing sensible's errors" \
  "import { httpErrors } from '@fastify/sensible'; void httpErrors;"
probe refused "$probe_db" 'a db/ file importing HttpError' \
  "import { HttpError } from '../plugins/errors'; void HttpError;"
probe allowed "$probe_dir/routes.ts" 'a route file importing HttpError' \
  "import { HttpError } from '../../plugins/errors'; void HttpError;"
probe allowed "$probe_dir/probeData.ts" 'a data file importing the domain errors' \
  "import { NotFound } from '../../domain/errors'; void NotFound;"

# A resource reaches another only through the allow-list.
probe refused "$probe_dir/probeData.ts" "a data file importing another resource's inner file" \
  "import { probe as inner } from '../patients/notOnTheList'; void inner;"
probe refused "$probe_dir/routes.ts" "a route file importing another resource's inner file" \
  "import { probe as inner } from '../users/notOnTheList'; void inner;"
probe allowed "$probe_dir/probeData.ts" 'a data file importing a listed file' \
  "import { probe as listed } from '../settings/settingsData'; void listed;"

if ((failures > 0)); then
  echo "$failures lint probe(s) failed: see biome.json's overrides and server/src/resources/README.md"
  exit 1
fi
