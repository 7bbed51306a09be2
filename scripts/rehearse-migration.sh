#!/usr/bin/env bash
# A release's migrations rehearsed on the data an older release made (docs/operations.md, "Rehearsing
# a migration"): the older release seeds its demo clinics, exports one and imports it, and seeds the
# large clinic, each into a PostgreSQL database of its own; this tree's migrations then run on each,
# and every visit must keep its day, time, length, dentist, patient, treatment and status, and be
# accepted again when each one is written anew.
#   scripts/rehearse-migration.sh <older commit> [large clinic scale, default 0.1]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${TEST_DATABASE_URL:-}" ]; then exec bash "$root/scripts/with-postgres.sh" "$0" "$@"; fi
older=${1:?usage: scripts/rehearse-migration.sh <older commit> [scale]}
scale=${2:-0.1}
base=${TEST_DATABASE_URL%/*}
work=$(mktemp -d)
tree="$work/older"
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  git -C "$root" worktree remove --force "$tree" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
sql() { psql "$base/$1" -qAtX -v ON_ERROR_STOP=1 -c "$2"; }
step() { printf '\n== %s\n' "$*"; }

step "the older release ($(git -C "$root" log --oneline -1 "$older" | cut -c1-80))"
git -C "$root" worktree add --detach "$tree" "$older" >/dev/null 2>&1
(cd "$tree" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
export PASSWORD_HASH_COST=14

step "demo clinics, as the older release seeds them when it starts"
sql postgres "create database demo"
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
(cd "$tree/server" && DATABASE_URL="$base/demo" PORT=$port exec npx tsx src/main.ts >"$work/older-server.log" 2>&1) &
server_pid=$!
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$port/api/health" >/dev/null 2>&1 && break
  sleep 1
done
token=$(curl -sf "http://127.0.0.1:$port/auth/login" -H 'content-type: application/json' \
  -d '{"username":"admin","password":"admin123"}' | node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token')
curl -sf "http://127.0.0.1:$port/api/backup/export" -H "authorization: Bearer $token" >"$work/export.json"
kill "$server_pid" && wait "$server_pid" 2>/dev/null || true
server_pid=
echo "exported Bright Smile Dental: $(wc -c <"$work/export.json") bytes"

step "that export imported by the older release"
sql postgres "create database imported"
(cd "$tree/server" && DATABASE_URL="$base/imported" npx tsx src/scripts/importClinic.ts "$work/export.json" | tail -1)

step "the large clinic at scale $scale"
sql postgres "create database large"
(cd "$tree/server" && DATABASE_URL="$base/large" npx tsx src/db/seedLarge.ts --scale "$scale" | tail -1)

# What a visit is to the desk; version and updated_at may move when a migration fills a new column.
visit_columns="clinic_id, id, patient_id, dentist_id, date, time, duration, end_time, treatment, status,
  notes, patient_name, patient_phone"
snapshot() { sql "$1" "copy (select $visit_columns from appointments order by clinic_id, id) to stdout" >"$2"; }

failed=0
for database in demo imported large; do
  step "$database: this tree's migrations"
  snapshot "$database" "$work/$database.before"
  started=$(date +%s)
  (cd "$root/server" && DATABASE_URL="$base/$database" npx tsx src/scripts/migrate.ts)
  snapshot "$database" "$work/$database.after"
  visits=$(wc -l <"$work/$database.before")
  if cmp -s "$work/$database.before" "$work/$database.after"; then
    echo "kept: $visits visits unchanged ($(($(date +%s) - started)) s)"
  else
    echo "CHANGED: visits differ after migrating:"
    diff "$work/$database.before" "$work/$database.after" | head -20
    failed=1
  fi
  echo "chairs: $(sql "$database" "select count(*) from chairs"); visits in their dentist's default chair: \
$(sql "$database" "select count(*) from appointments a join chairs c on c.clinic_id = a.clinic_id and c.id = a.chair_id
  where c.default_dentist_id = a.dentist_id") of $visits"
  # Written anew: every visit leaves and comes back through the booking triggers in one transaction
  # that is rolled back, so the rules of this tree meet each of them as a new booking.
  stored=$(sql "$database" "select string_agg(column_name, ', ' order by ordinal_position)
    from information_schema.columns where table_name = 'appointments' and is_generated = 'NEVER'")
  if sql "$database" "begin;
      create temporary table visits_again on commit drop as select $stored from appointments;
      delete from appointments;
      select set_config('dental.keeping_overlaps', 'on', true);
      insert into appointments ($stored) select $stored from visits_again order by clinic_id, id;
      rollback;" >/dev/null 2>"$work/$database.again"; then
    echo "accepted again: every visit written anew"
  else
    echo "REFUSED when written anew: $(head -3 "$work/$database.again")"
    failed=1
  fi
done
step "the older export imported by this tree"
sql postgres "create database imported_now"
(cd "$root/server" && DATABASE_URL="$base/imported_now" npx tsx src/scripts/importClinic.ts "$work/export.json" >"$work/imported_now.log"; sed -n 1p "$work/imported_now.log")
sql imported_now "copy (select $visit_columns from appointments order by clinic_id, id) to stdout" \
  | cut -f3- | sort >"$work/imported_now.visits"
cut -f3- "$work/imported.after" | sort >"$work/imported.visits"
if cmp -s "$work/imported.visits" "$work/imported_now.visits"; then
  echo "kept: the same $(wc -l <"$work/imported_now.visits") visits as the older release's import, migrated"
else
  echo "CHANGED: the import of this tree differs from the older one's:"
  diff "$work/imported.visits" "$work/imported_now.visits" | head -20
  failed=1
fi
exit "$failed"
