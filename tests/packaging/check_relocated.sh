#!/usr/bin/env bash
# A relocated install works: `cmake --install` into one folder, moved to
# another, and run from there; Hearth finds everything it needs from its
# executable (its QML module and translations are compiled in), never from
# the build tree. The window is rendered offscreen, in Chinese, and saved.
#
#   check_relocated.sh BUILD_DIR
set -euo pipefail
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/first" >/dev/null
mv "$work/first" "$work/moved"
bin=$work/moved/bin
"$bin/hearth" --version
QT_QPA_PLATFORM=offscreen "$bin/Hearth" --data-dir "$work/data" --engine fake --lang zh_CN \
    --screenshot "$work/shot.png" --quit-when-done --quit-after 60000
[ -s "$work/shot.png" ] || { echo "FAIL: the relocated Hearth saved no screenshot"; exit 1; }
echo "ok: the relocated install ran and rendered its window"
