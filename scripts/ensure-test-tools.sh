#!/usr/bin/env bash
# Installs what the test suites need and the machine lacks: Debian's Chromium (browser tests; no
# test tool downloads a browser of its own) and Debian's PostgreSQL 15 server (API tests on PostgreSQL).
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/lib/postgresql/15/bin/initdb ] || missing+=(postgresql-15)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Missing ${missing[*]}: install them with apt-get (needs root)." >&2
  exit 1
fi
echo "Installing ${missing[*]} from Debian's packages..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# policy-rc.d keeps apt from starting the packaged PostgreSQL service: the tests start their own.
printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
chmod +x /usr/sbin/policy-rc.d
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
rm -f /usr/sbin/policy-rc.d
