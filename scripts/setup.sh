#!/usr/bin/env bash
# Installs everything the app needs into the project folder: a venv with the pinned
# Python packages, and bun and axe-core from the npm registry (Reflex builds the frontend with bun;
# the browser tests check every page with axe-core).
# Safe to run again: it only does what is missing or out of date.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"

PYTHON="${PYTHON:-python3}"
UV_VERSION=0.13.9
if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv"
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.requirements.sha
want=$(sha256sum requirements.txt | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "==> installing Python packages (requirements.txt)"
  # uv installs the pinned packages (downloads in parallel, no compiling) in a fraction of pip's time.
  .venv/bin/python -m pip install --quiet --disable-pip-version-check "uv==$UV_VERSION" 2>&1 \
    | { grep -v "^WARNING: Location '.*' is ignored" || true; }
  # (grep drops this machine's pip notes about absent local mirrors)
  .venv/bin/uv pip install --quiet --python .venv/bin/python -r requirements.txt
  echo "$want" > "$stamp"
fi

# bun builds the frontend; axe-core is the accessibility checker the browser tests inject.
# One npm install for both: npm drops from .tools/ whatever a later install does not name.
BUN_VERSION=1.4.4
AXE_VERSION=4.11.0
axe_have=$(node -p "require('./.tools/node_modules/axe-core/package.json').version" 2>/dev/null || true)
if [ "$(.tools/node_modules/.bin/bun --version 2>/dev/null)" != "$BUN_VERSION" ] || [ "$axe_have" != "$AXE_VERSION" ]; then
  echo "==> installing bun $BUN_VERSION and axe-core $AXE_VERSION (npm registry) into .tools/"
  command -v npm >/dev/null || { echo "npm is required (Node.js 20+)"; exit 1; }
  npm install --silent --no-audit --no-fund --save-exact --prefix .tools "bun@$BUN_VERSION" "axe-core@$AXE_VERSION"
fi
