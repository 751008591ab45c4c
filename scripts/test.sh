#!/usr/bin/env bash
# Runs every test tier: services, API, end-to-end in Chromium.
# DATABASE_URL (PostgreSQL) and REDIS_URL, when set, are used and must be reachable.
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$ROOT/scripts/setup.sh"
cd "$ROOT"

if [ ! -x /usr/bin/chromium ]; then
  echo "==> installing Chromium (Debian package) for the browser tests"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

python -m pytest "$@"
