# Sourced by the other scripts: the project-local toolchain on PATH.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$ROOT/.venv/bin:$ROOT/.tools/node_modules/.bin:$PATH"
export REFLEX_USE_SYSTEM_BUN=1
export REFLEX_TELEMETRY_ENABLED=false
export PYTHONUNBUFFERED=1
# Compiled modules are kept (in __pycache__, which git ignores): the tests start many Python processes, each of which
# would otherwise compile the app and rewrite the tests' assertions anew (about 20 s a process).
unset PYTHONDONTWRITEBYTECODE
