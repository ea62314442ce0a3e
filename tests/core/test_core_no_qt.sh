#!/usr/bin/env bash
# The no-Qt-in-core check passes on the tree and fails once a Qt include is
# added to core/ (so the check itself cannot silently rot).
set -euo pipefail
src=$1
check="$src/scripts/check-core-no-qt"
"$check" "$src"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/core/gguf" "$tmp/backends/cpu"
printf '#pragma once\n#include <cstdint>\n' > "$tmp/core/gguf/ok.h"
"$check" "$tmp" >/dev/null
for inc in '#include <QString>' '#include <QtCore/QObject>' '#  include "qglobal.h"'; do
    printf '#pragma once\n%s\n' "$inc" > "$tmp/core/gguf/bad.h"
    if "$check" "$tmp" >/dev/null 2>&1; then
        echo "check-core-no-qt accepted: $inc" >&2
        exit 1
    fi
done
rm "$tmp/core/gguf/bad.h"
printf 'target_link_libraries(x Qt6::Core)\n' > "$tmp/core/CMakeLists.txt"
if "$check" "$tmp" >/dev/null 2>&1; then
    echo "check-core-no-qt accepted a Qt link in core/CMakeLists.txt" >&2
    exit 1
fi
echo "check-core-no-qt rejects Qt includes and links"
