#!/usr/bin/env bash
# Every user-visible string has a Simplified Chinese translation: lupdate
# scans the sources as they are now into a copy of hearth_zh_CN.ts (so a
# string added since the last update shows up as unfinished), and lrelease
# must report 0 unfinished.
#
#   check_translations.sh SOURCE_DIR LUPDATE LRELEASE
set -euo pipefail
src=$1 lupdate=$2 lrelease=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$src/translations/hearth_zh_CN.ts" "$tmp/hearth_zh_CN.ts"
(cd "$src" && "$lupdate" -silent -locations none -extensions cpp,h,qml app/lib app/desktop qml -ts "$tmp/hearth_zh_CN.ts")
out=$("$lrelease" "$tmp/hearth_zh_CN.ts" -qm "$tmp/hearth_zh_CN.qm")
echo "$out"
if ! grep -q " 0 unfinished" <<<"$out"; then
    echo "zh_CN has unfinished strings: add them to scripts/i18n/zh_CN.tsv, then run" >&2
    echo "  cmake --build build/dev --target update_translations && scripts/i18n/apply" >&2
    exit 1
fi
