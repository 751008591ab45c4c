#!/usr/bin/env bash
# Runs every test tier: services, API, end-to-end in Chromium.
# DATABASE_URL (PostgreSQL) and REDIS_URL, when set, are used and must be reachable.
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$ROOT/scripts/setup.sh"
cd "$ROOT"

# Chromium's headless shell drives the browser tests; nginx runs the shipped proxy config in the API tier (behind a
# proxy) and the production topology tier (tests/deploy, on PostgreSQL + Redis). Both are Debian packages.
missing=()
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "==> installing ${missing[*]} (Debian packages) for the browser and proxy tests"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The production topology tier runs on PostgreSQL + Redis.
deploy_tier=0
case "${DATABASE_URL:-}" in postgres*) [ -n "${REDIS_URL:-}" ] && deploy_tier=1 ;; esac

if [ "$#" -gt 0 ]; then
  exec python -m pytest "$@"
fi
# Two processes: Playwright's sync API keeps an event loop running in its process,
# which async tests cannot share.
status=0
# Each tier says how long it took (CI's time is the sum).
tier_start=$SECONDS
took() { echo "==> $1: $((SECONDS - tier_start)) s"; tier_start=$SECONDS; }
echo "==> set-up: ${SECONDS} s"
# The end-to-end tier serves one build of the pages. When the sources changed since the last build, it is made now,
# beside the type check (each keeps about one core busy), and waited for before the tests start.
build_pid=""
build_log="$(mktemp)"
if ! python -c 'import sys; from tests.e2e.conftest import _build_is_current; sys.exit(0 if _build_is_current() else 1)'; then
  echo "==> building the pages (beside the checks below)"
  python -m pytest -q -p no:cacheprovider tests/e2e/test_build.py >"$build_log" 2>&1 &
  build_pid=$!
fi
echo "==> import contracts (layers, no cycles; pyproject.toml [tool.importlinter])"
lint-imports --no-cache || status=$?
echo "==> types (mypy over volley_app/, pyproject.toml [tool.mypy])"
mypy || status=$?
if [ -n "$build_pid" ]; then
  wait "$build_pid" || { status=$?; echo "==> the build of the pages failed:"; cat "$build_log"; }
  took "checks and the build of the pages"
fi
rm -f "$build_log"
# The production topology tier waits on its instances most of the time (starting, failing over, handing the
# background loops on): it runs beside the services and API tests, on a database, a Redis database and a frontend
# build of its own (tests/deploy/conftest.py), and its output is shown once it is done.
deploy_pid=""
deploy_log="$(mktemp)"
if [ "$deploy_tier" = 1 ]; then
  echo "==> production topology, beside the tests below: two instances behind nginx, one killed, one stopped"
  read -r deploy_db deploy_redis < <(python - <<'PY'
import os
from urllib.parse import urlsplit, urlunsplit
db, redis = urlsplit(os.environ["DATABASE_URL"]), urlsplit(os.environ["REDIS_URL"])
print(urlunsplit(db._replace(path=db.path + "_deploy")), urlunsplit(redis._replace(path="/7")))
PY
)
  DATABASE_URL="$deploy_db" REDIS_URL="$deploy_redis" \
    python -m pytest -p no:cacheprovider tests/deploy >"$deploy_log" 2>&1 &
  deploy_pid=$!
  # Stopped with the run (an interrupt lets it stop its instances and nginx).
  trap 'kill -INT "$deploy_pid" 2>/dev/null || true' EXIT
fi
# One process more than the cores, up to eight (TEST_PROCESSES overrides): a test waits on its database part of the
# time. Each has a database and a Redis database of its own (tests/conftest.py: Redis has sixteen); a file's tests
# stay in one process, so what a file sets up once is set up once.
processes="${TEST_PROCESSES:-$(( $(nproc) < 8 ? $(nproc) + 1 : 8 ))}"
echo "==> services and API tests ($processes processes)"
python -m pytest tests/unit tests/api -n "$processes" --dist loadfile --ignore=tests/unit/test_live.py || status=$?
# The live-update tests time deliveries within a second, in a process of their own.
python -m pytest tests/unit/test_live.py || status=$?
took "services and API tests"
if [ -n "$deploy_pid" ]; then
  deploy_status=0
  wait "$deploy_pid" || deploy_status=$?
  cat "$deploy_log"
  [ "$deploy_status" = 0 ] || status=$deploy_status
  trap - EXIT
  took "the rest of the production topology tier"
fi
rm -f "$deploy_log"
# E2E=smoke runs the end-to-end tests marked smoke (CI runs them whole on one database, as a smoke on the other).
# The whole tier in two processes unless E2E_PROCESSES says otherwise: each runs its app and browser, serving one
# build of the pages (tests/e2e/conftest.py; the build is reused while the sources are the same). Two take about
# two thirds as long as one: a test waits on its browser most of the time. The few smoke tests run in one (a second
# process would spend longer starting than it saves).
if [ "${E2E:-all}" = smoke ]; then e2e_default=1; else e2e_default=2; fi
e2e_processes="${E2E_PROCESSES:-$e2e_default}"
e2e_args=()
if [ "$e2e_processes" != 1 ]; then
  e2e_args=(-n "$e2e_processes" --dist loadgroup)
fi
if [ "${E2E:-all}" = smoke ]; then
  echo "==> end-to-end smoke tests (Chromium, $e2e_processes processes)"
  python -m pytest tests/e2e -m smoke "${e2e_args[@]}" || status=$?
else
  echo "==> end-to-end tests (Chromium, $e2e_processes processes)"
  python -m pytest tests/e2e "${e2e_args[@]}" || status=$?
fi
took "end-to-end tests"
exit $status
