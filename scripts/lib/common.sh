# shellcheck shell=bash
# Shared by the scripts: paths and small helpers. Source it; do not run it.
# The variables are used by the scripts that source this file:
# shellcheck disable=SC2034

HEARTH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HEARTH_CACHE_DIR=${HEARTH_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hearth}
HEARTH_MODELS_DIR=${HEARTH_MODELS_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/hearth/models}
HEARTH_VENV=${HEARTH_VENV:-$HEARTH_CACHE_DIR/venv}
export HEARTH_MODELS_DIR

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Runs a command as root: directly when we are root, else through sudo.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Number of parallel build jobs: the cores we have.
build_jobs() {
    nproc 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo 2
}
