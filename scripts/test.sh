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

# The production topology tier (tests/deploy) runs on PostgreSQL + Redis and needs nginx.
deploy_tier=0
case "${DATABASE_URL:-}" in postgres*) [ -n "${REDIS_URL:-}" ] && deploy_tier=1 ;; esac
if [ "$deploy_tier" = 1 ] && ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  echo "==> installing nginx (Debian package) for the production topology tests"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nginx-light >/dev/null \
    || DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nginx >/dev/null
fi

if [ "$#" -gt 0 ]; then
  exec python -m pytest "$@"
fi
# Two processes: Playwright's sync API keeps an event loop running in its process,
# which async tests cannot share.
status=0
echo "==> import contracts (layers, no cycles; pyproject.toml [tool.importlinter])"
lint-imports --no-cache || status=$?
echo "==> services and API tests"
python -m pytest tests/unit tests/api || status=$?
echo "==> end-to-end tests (Chromium)"
python -m pytest tests/e2e || status=$?
if [ "$deploy_tier" = 1 ]; then
  echo "==> production topology: two instances behind nginx, one killed, one stopped (PostgreSQL + Redis)"
  python -m pytest tests/deploy || status=$?
fi
exit $status
