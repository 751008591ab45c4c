#!/usr/bin/env bash
# Runs the app on the embedded default: SQLite file, in-process state, mail kept in the outbox.
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$ROOT/scripts/setup.sh"
cd "$ROOT"
PORT="${PORT:-3000}"
# Only this machine reaches the app unless HOST says otherwise (HOST=0.0.0.0: every network it is on).
HOST="${HOST:-127.0.0.1}"
# Links in email (the demo's seeded mail included) and the browser origins the backend accepts follow the
# port unless set: set before anything writes a link.
export PUBLIC_URL="${PUBLIC_URL:-http://localhost:$PORT}"
if [ "${REFLEX_RUN_ENV:-prod}" = "dev" ]; then
  # Hot reload serves the backend on a port of its own: links to it (email answers, files) go there.
  export BACKEND_URL="${BACKEND_URL:-http://localhost:${BACKEND_PORT:-8000}}"
fi
python -m volley_app.cli migrate
python -m volley_app.cli seed-demo --if-empty
python -m volley_app.cli demo-logins
export REFLEX_HOT_RELOAD_EXCLUDE_PATHS="$ROOT/var:$ROOT/tests:$ROOT/bench:$ROOT/artifacts"
echo
echo "==> starting on http://localhost:$PORT (the first start builds the frontend: 1-2 minutes)"
if [ "${REFLEX_RUN_ENV:-prod}" = "dev" ]; then
  # Hot reload; the backend listens on its own port.
  exec reflex run --env dev --frontend-port "$PORT" --backend-port "${BACKEND_PORT:-8000}" --backend-host "$HOST"
fi
# Production build: one port serves the pages and the backend.
exec reflex run --env prod --frontend-port "$PORT" --backend-port "$PORT" --backend-host "$HOST"
