#!/usr/bin/env bash
# One name, version, summary and icon everywhere Hearth shows them: the
# executables' --version, the manual pages, the Debian changelog, the
# AppStream release, the desktop entry, the CPack summary and the About
# dialog (in both languages).
#
#   check_metadata.sh SOURCE_DIR BUILD_DIR VERSION HEARTH_CLI HEARTH_APP ENGINE_RUN
set -euo pipefail
src=$1 build=$2 version=$3 cli=$4 app=$5 runner=$6
status=0
expect() { # expect WHAT ACTUAL WANTED
    if [ "$2" = "$3" ]; then
        echo "ok   $1: $2"
    else
        echo "FAIL $1: '$2', expected '$3'"
        status=1
    fi
}
word_after() { grep -o -m1 -E "$1" | grep -o -E '[0-9]+\.[0-9]+\.[0-9]+' | head -n1; }

expect "hearth --version" "$("$cli" --version | word_after "$version")" "$version"
expect "Hearth --version" "$(QT_QPA_PLATFORM=offscreen "$app" --version | word_after "$version")" "$version"
expect "hearth-engine-run --version" "$("$runner" --version | word_after "$version")" "$version"
for page in hearth.1 Hearth.1; do
    expect "man page $page" "$(word_after '"Hearth [0-9.]+"' <"$build/packaging/linux/$page")" "$version"
done
expect "Debian changelog" "$(head -n1 "$build/packaging/linux/changelog" | word_after '\([0-9.]+\)')" "$version"
metainfo=$src/packaging/linux/org.hearth.Hearth.metainfo.xml
expect "AppStream newest release" "$(word_after '<release version="[0-9.]+"' <"$metainfo")" "$version"

summary="Chat with language models that run on your own computer"
summary_zh="与在你自己的电脑上运行的语言模型聊天"
desktop=$src/packaging/linux/org.hearth.Hearth.desktop
expect "desktop Comment" "$(sed -n 's/^Comment=//p' "$desktop")" "$summary"
expect "desktop Comment[zh_CN]" "$(sed -n 's/^Comment\[zh_CN\]=//p' "$desktop")" "$summary_zh"
expect "AppStream summary" "$(sed -n 's:.*<summary>\(.*\)</summary>.*:\1:p' "$metainfo")" "$summary"
expect "AppStream summary (zh_CN)" "$(sed -n 's:.*<summary xml\:lang="zh_CN">\(.*\)</summary>.*:\1:p' "$metainfo")" \
    "$summary_zh"
expect "CPack summary" "$(sed -n 's/^set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "\(.*\)")$/\1/p' "$src/packaging/cpack.cmake")" \
    "$summary"
expect "About dialog" "$(grep -o -F "qsTr(\"$summary\")" "$src/qml/common/AboutDialog.qml" | head -n1)" \
    "qsTr(\"$summary\")"
expect "About dialog (zh_CN)" "$(awk -F'\t' -v s="$summary" '$1=="AboutDialog" && $2==s {print $3}' \
    "$src/scripts/i18n/zh_CN.tsv")" "$summary_zh"

id=org.hearth.Hearth
expect "desktop Icon" "$(sed -n 's/^Icon=//p' "$desktop")" "$id"
expect "AppStream id" "$(sed -n 's:.*<id>\(.*\)</id>.*:\1:p' "$metainfo")" "$id"
expect "desktop file name set by the app" \
    "$(grep -o -E 'setDesktopFileName\(QStringLiteral\("[^"]+"\)\)' "$src/app/desktop/main.cpp" | cut -d'"' -f2)" "$id"
exit $status
