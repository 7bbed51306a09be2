#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL 15 server on loopback, its data in a temp folder:
#   scripts/with-postgres.sh <command...>   (the command sees TEST_DATABASE_URL)
set -euo pipefail

PG_BIN=/usr/lib/postgresql/15/bin
# A free loopback port unless one is given, so two runs side by side do not clash.
PG_PORT=${PG_PORT:-$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")}
dir=$(mktemp -d)
cleanup() {
  if [ -f "$dir/data/postmaster.pid" ]; then
    runas "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}
trap cleanup EXIT

# initdb refuses to run as root: the server runs as the postgres user when we are root.
runas() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
[ "$(id -u)" -eq 0 ] && chown postgres:postgres "$dir"

runas "$PG_BIN/initdb" -D "$dir/data" -A trust -U app --no-sync -E UTF8 --locale=C.UTF-8 >/dev/null
runas "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $dir -c fsync=off -c max_connections=200" start >/dev/null

export TEST_DATABASE_URL="postgres://app@127.0.0.1:$PG_PORT/postgres"
status=0
"$@" || status=$?
if [ "$status" -ne 0 ]; then
  echo "-- PostgreSQL server log (last 40 lines) --"
  tail -n 40 "$dir/log" || true
fi
exit "$status"
