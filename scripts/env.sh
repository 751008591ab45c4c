# Sourced by the other scripts: the project-local toolchain on PATH.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$ROOT/.venv/bin:$ROOT/.tools/node_modules/.bin:$PATH"
export REFLEX_USE_SYSTEM_BUN=1
export REFLEX_TELEMETRY_ENABLED=false
export PYTHONUNBUFFERED=1
