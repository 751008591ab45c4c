#!/usr/bin/env bash
# Installs everything the app needs into the project folder: a venv with the pinned
# Python packages, and bun from the npm registry (Reflex builds the frontend with it).
# Safe to run again: it only does what is missing or out of date.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"

PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv"
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.requirements.sha
want=$(sha256sum requirements.txt | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "==> installing Python packages (requirements.txt)"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip 2>&1 \
    | { grep -v "^WARNING: Location '.*' is ignored" || true; }
  # (grep drops this machine's pip notes about absent local mirrors)
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt 2>&1 \
    | { grep -v "^WARNING: Location '.*' is ignored" || true; }
  echo "$want" > "$stamp"
fi

BUN_VERSION=1.4.4
if [ "$(.tools/node_modules/.bin/bun --version 2>/dev/null)" != "$BUN_VERSION" ]; then
  echo "==> installing bun $BUN_VERSION (npm registry) into .tools/"
  command -v npm >/dev/null || { echo "npm is required (Node.js 20+)"; exit 1; }
  npm install --silent --no-audit --no-fund --prefix .tools "bun@$BUN_VERSION"
fi
