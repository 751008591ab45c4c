#!/usr/bin/env bash
# Production on several instances (docs/deploy.md): one frontend build served by nginx, INSTANCES
# backend-only instances behind it, on PostgreSQL + Redis.
#
#   scripts/prod.sh start            migrate once, build the frontend once, start the instances, then nginx
#   scripts/prod.sh stop             stop nginx and every instance (each finishes what it is doing)
#   scripts/prod.sh restart          rolling restart: one instance at a time, each healthy before the next
#   scripts/prod.sh status           each instance's /_health, and nginx
#   scripts/prod.sh build            only the frontend build
#   scripts/prod.sh stop-instance N / start-instance N / kill-instance N     one instance (N from 1)
#
# The environment (every variable: docs/deploy.md): DATABASE_URL (PostgreSQL), REDIS_URL, SECRET_KEY,
# PUBLIC_URL (where people reach nginx; its port is the one nginx listens on), FORWARDED_ALLOW_IPS (127.0.0.1:
# nginx's address as the instances see it), INSTANCES (2),
# WORKERS (worker processes per instance, 1), BACKEND_PORT_BASE (8001: instance N listens on BASE+N-1),
# PROD_DIR (var/prod: pids, logs, nginx's files), REFLEX_WEB_WORKDIR (.web: where the frontend is built),
# SKIP_BUILD=1 (reuse the build already there),
# NGINX_EXPOSE_UPSTREAM=1 (tests only: the websocket handshake names the instance it reached).
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"

INSTANCES="${INSTANCES:-2}"
WORKERS="${WORKERS:-1}"
BACKEND_PORT_BASE="${BACKEND_PORT_BASE:-8001}"
PROD_DIR="${PROD_DIR:-$ROOT/var/prod}"
BUILD_DIR="${REFLEX_WEB_WORKDIR:-$ROOT/.web}/build/client"
HEALTH_WAIT_SECONDS="${HEALTH_WAIT_SECONDS:-120}"
STOP_WAIT_SECONDS="${STOP_WAIT_SECONDS:-30}"

die() { echo "prod: $*" >&2; exit 1; }

check_env() {
  [ -n "${DATABASE_URL:-}" ] || die "DATABASE_URL must name the PostgreSQL database (postgresql://user:pass@host:5432/db)"
  case "$DATABASE_URL" in postgresql*|postgres*) ;; *) die "several instances need PostgreSQL, not $DATABASE_URL" ;; esac
  [ -n "${REDIS_URL:-}" ] || die "REDIS_URL must name the Redis that holds the shared state (redis://host:6379/0)"
  [ -n "${SECRET_KEY:-}" ] || die "SECRET_KEY must be set (python -c 'import secrets; print(secrets.token_urlsafe(48))')"
  [ -n "${PUBLIC_URL:-}" ] || die "PUBLIC_URL must be where people reach the app, e.g. https://volley.example.org"
  export APP_ENV=production
  PUBLIC_URL="${PUBLIC_URL%/}"
  export PUBLIC_URL
  # The build and the instances reach the backend where the pages come from: nginx, at PUBLIC_URL.
  export REFLEX_API_URL="$PUBLIC_URL"
  export GRANIAN_WORKERS="$WORKERS" REFLEX_USE_GRANIAN=true
  # nginx, on this machine, reaches the instances from 127.0.0.1: only its X-Forwarded-For names the visitor.
  export FORWARDED_ALLOW_IPS="${FORWARDED_ALLOW_IPS:-127.0.0.1}"
  export REFLEX_ENV_MODE=prod
}

port_of() { echo $((BACKEND_PORT_BASE + $1 - 1)); }
pid_file() { echo "$PROD_DIR/instance-$1.pid"; }
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

healthy() {
  python - "$1" <<'PY'
import sys, urllib.request
try:
    with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/_health", timeout=3) as r:
        sys.exit(0 if r.status == 200 else 1)
except Exception:
    sys.exit(1)
PY
}

wait_healthy() {
  local n="$1" port waited=0
  port="$(port_of "$n")"
  until healthy "$port"; do
    alive "$(pid_file "$n")" || die "instance $n exited while starting: see $PROD_DIR/instance-$n.log"
    [ "$waited" -lt "$HEALTH_WAIT_SECONDS" ] || die "instance $n not healthy after ${HEALTH_WAIT_SECONDS}s: see $PROD_DIR/instance-$n.log"
    sleep 1
    waited=$((waited + 1))
  done
}

check_services() {
  python - <<'PY' || die "PostgreSQL or Redis is not reachable (DATABASE_URL, REDIS_URL)"
import os, sys
import redis, sqlalchemy as sa
redis.Redis.from_url(os.environ["REDIS_URL"], socket_connect_timeout=3).ping()
with sa.create_engine(os.environ["DATABASE_URL"]).connect() as c:
    c.execute(sa.text("select 1"))
PY
}

build() {
  echo "==> building the frontend once (reflex export --frontend-only), for $PUBLIC_URL"
  "$ROOT/scripts/setup.sh" >/dev/null
  reflex export --frontend-only --no-zip --env prod --loglevel warning
  [ -f "$BUILD_DIR/index.html" ] || die "the build has no $BUILD_DIR/index.html"
}

start_instance() {
  local n="$1" port
  port="$(port_of "$n")"
  if alive "$(pid_file "$n")"; then echo "instance $n already runs"; return; fi
  echo "==> instance $n on 127.0.0.1:$port ($WORKERS worker(s))"
  # setsid: the instance and its workers are one process group, stopped together.
  setsid reflex run --env prod --backend-only --backend-host 127.0.0.1 --backend-port "$port" --loglevel warning \
    >>"$PROD_DIR/instance-$n.log" 2>&1 </dev/null &
  echo $! >"$(pid_file "$n")"
}

stop_instance() {
  # SIGTERM: the instance stops taking connections, finishes its requests and events, and exits; its
  # browsers reconnect to the others (a poll they had goes on there).
  local n="$1" file pid waited=0
  file="$(pid_file "$n")"
  alive "$file" || { rm -f "$file"; return; }
  pid="$(cat "$file")"
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid"
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$waited" -ge "$STOP_WAIT_SECONDS" ]; then
      echo "instance $n still running after ${STOP_WAIT_SECONDS}s: killing it"
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid"
      break
    fi
    sleep 1
    waited=$((waited + 1))
  done
  rm -f "$file"
}

kill_instance() {
  local file
  file="$(pid_file "$1")"
  alive "$file" && { kill -KILL -- "-$(cat "$file")" 2>/dev/null || kill -KILL "$(cat "$file")"; }
  rm -f "$file"
}

backends() {
  local list="" n
  for n in $(seq 1 "$INSTANCES"); do list="$list${list:+,}127.0.0.1:$(port_of "$n")"; done
  echo "$list"
}

start_nginx() {
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || die "nginx is not installed (apt-get install nginx)"
  local nginx_bin
  nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
  mkdir -p "$PROD_DIR/nginx"
  local extra=()
  [ "${NGINX_EXPOSE_UPSTREAM:-0}" = 1 ] && extra+=(--expose-upstream)
  python deploy/render_nginx.py --backends "$(backends)" --root "$BUILD_DIR" --prefix "$PROD_DIR/nginx" "${extra[@]}" \
    >"$PROD_DIR/nginx/nginx.conf"
  "$nginx_bin" -t -q -p "$PROD_DIR/nginx" -c "$PROD_DIR/nginx/nginx.conf"
  if alive "$PROD_DIR/nginx/nginx.pid"; then
    "$nginx_bin" -p "$PROD_DIR/nginx" -c "$PROD_DIR/nginx/nginx.conf" -s reload
  else
    "$nginx_bin" -p "$PROD_DIR/nginx" -c "$PROD_DIR/nginx/nginx.conf"
  fi
  echo "==> nginx serves $PUBLIC_URL (backends $(backends))"
}

stop_nginx() {
  local nginx_bin
  nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
  if alive "$PROD_DIR/nginx/nginx.pid"; then
    "$nginx_bin" -p "$PROD_DIR/nginx" -c "$PROD_DIR/nginx/nginx.conf" -s quit
  fi
}

cmd="${1:-start}"
mkdir -p "$PROD_DIR"
case "$cmd" in stop|stop-instance|kill-instance|status) ;; *) check_env ;; esac
case "$cmd" in
  start)
    check_services
    echo "==> applying migrations once, before any instance starts"
    python -m volley_app.cli migrate
    [ "${SKIP_BUILD:-0}" = 1 ] && [ -f "$BUILD_DIR/index.html" ] || build
    # Each `reflex run` empties .states (the embedded mode's saved states) as it starts; empty it once
    # here, so instances starting together do not race to delete the same files.
    rm -rf .states
    for n in $(seq 1 "$INSTANCES"); do start_instance "$n"; done
    for n in $(seq 1 "$INSTANCES"); do wait_healthy "$n"; done
    start_nginx
    echo "==> $INSTANCES instance(s) behind $PUBLIC_URL; logs in $PROD_DIR; stop with scripts/prod.sh stop"
    ;;
  stop)
    stop_nginx
    for n in $(seq 1 "$INSTANCES"); do stop_instance "$n"; done
    ;;
  restart)
    for n in $(seq 1 "$INSTANCES"); do
      stop_instance "$n"
      start_instance "$n"
      wait_healthy "$n"
      echo "instance $n restarted and healthy"
    done
    ;;
  status)
    for n in $(seq 1 "$INSTANCES"); do
      if healthy "$(port_of "$n")"; then echo "instance $n: healthy"; else echo "instance $n: NOT healthy"; fi
    done
    alive "$PROD_DIR/nginx/nginx.pid" && echo "nginx: running" || echo "nginx: not running"
    ;;
  build) build ;;
  start-instance) start_instance "${2:?instance number}"; wait_healthy "$2" ;;
  stop-instance) stop_instance "${2:?instance number}" ;;
  kill-instance) kill_instance "${2:?instance number}" ;;
  *) die "unknown command $cmd (start, stop, restart, status, build, start-instance N, stop-instance N, kill-instance N)" ;;
esac
