#!/usr/bin/env bash
# Runs a command with a private, unlocked Secret Service (GNOME Keyring) on
# its own D-Bus session, for tests that store secrets through QtKeychain:
#   tests/common/with_keyring.sh COMMAND [ARGS...]
# The keyring lives in a temporary $XDG_DATA_HOME, so the user's own
# keychain is never touched. Exits 77 (ctest's skip code) when dbus or
# gnome-keyring is not installed.
set -euo pipefail
if [ -z "${HEARTH_KEYRING_INNER:-}" ]; then
    if ! command -v dbus-run-session >/dev/null || ! command -v gnome-keyring-daemon >/dev/null; then
        echo "SKIP: dbus-run-session or gnome-keyring-daemon not installed (packages dbus, gnome-keyring)" >&2
        exit 77
    fi
    # The real models and the Python venv stay where the user's home has them.
    export HEARTH_MODELS_DIR="${HEARTH_MODELS_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/hearth/models}"
    export HEARTH_VENV="${HEARTH_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/hearth/venv}"
    home=$(mktemp -d)
    trap 'rm -rf "$home"' EXIT
    status=0
    HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" \
        XDG_RUNTIME_DIR="$home/run" HEARTH_KEYRING_INNER=1 \
        dbus-run-session -- "$0" "$@" || status=$?
    exit $status
fi
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
# --unlock reads the password of a new "login" keyring from stdin and
# creates it; --components=secrets starts only the Secret Service.
eval "$(printf 'hearth-test' | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL SSH_AUTH_SOCK 2>/dev/null || true
"$@"
