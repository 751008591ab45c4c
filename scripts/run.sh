#!/usr/bin/env bash
# Runs the app on the embedded default: SQLite file, in-process state, mail kept in the outbox.
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$ROOT/scripts/setup.sh"
cd "$ROOT"
python -m volley_app.cli migrate
python -m volley_app.cli seed-demo --if-empty
python -m volley_app.cli demo-logins
echo
echo "==> starting: open http://localhost:3000 (first start builds the frontend: 1-2 minutes)"
export REFLEX_HOT_RELOAD_EXCLUDE_PATHS="$ROOT/var:$ROOT/tests:$ROOT/bench"
exec reflex run --env "${REFLEX_RUN_ENV:-prod}" --frontend-port "${FRONTEND_PORT:-3000}" --backend-port "${BACKEND_PORT:-8000}"
