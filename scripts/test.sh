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
exit $status
