#!/usr/bin/env bash
# The Linux desktop files are valid: the desktop entry (desktop-file-validate),
# the AppStream metadata (appstreamcli), the MIME type (well-formed, matches
# *.gguf and the GGUF magic), and the rendered icons exist. A validator that
# is not installed is skipped with a message.
#
#   check_linux_packaging.sh SOURCE_DIR ICONS_DIR
set -euo pipefail
src=$1/packaging/linux icons=$2
status=0
if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$src/org.hearth.Hearth.desktop" || status=1
else
    echo "desktop-file-validate not installed (desktop-file-utils): skipped"
fi
if command -v appstreamcli >/dev/null; then
    appstreamcli validate --no-net --pedantic "$src/org.hearth.Hearth.metainfo.xml" || status=1
else
    echo "appstreamcli not installed (appstream): skipped"
fi
python3 - "$src/org.hearth.Hearth.mime.xml" "$src/org.hearth.Hearth.desktop" <<'PY' || status=1
import sys, xml.etree.ElementTree as ET
ns = {'m': 'http://www.freedesktop.org/standards/shared-mime-info'}
root = ET.parse(sys.argv[1]).getroot()
t = root.find('m:mime-type', ns)
assert t is not None and t.get('type') == 'application/x-gguf', 'no application/x-gguf type'
assert t.find("m:glob[@pattern='*.gguf']", ns) is not None, 'no *.gguf glob'
assert t.find(".//m:match[@value='GGUF']", ns) is not None, 'no GGUF magic'
assert 'MimeType=application/x-gguf;' in open(sys.argv[2], encoding='utf-8').read(), 'desktop entry lacks the type'
print('MIME type: ok')
PY
for size in 16 32 48 128 256 512; do
    png="$icons/${size}x${size}/apps/org.hearth.Hearth.png"
    [ -s "$png" ] || { echo "missing icon $png"; status=1; }
done
exit $status
