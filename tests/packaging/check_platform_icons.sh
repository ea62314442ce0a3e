#!/usr/bin/env bash
# The icons the macOS and Windows packages are built with, made here by
# render_icons as their builds make them: a Windows .ico holding 16–256 px
# PNGs (each entry's size what its directory says), a macOS iconset with
# the ten files iconutil expects (each PNG its stated size), and the
# Windows resource script (icon + VERSIONINFO) compiled by MinGW's windres
# where it is installed.
#
#   check_platform_icons.sh SOURCE_DIR RENDER_ICONS VERSION
set -euo pipefail
src=$1 render=$2 version=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export QT_QPA_PLATFORM=offscreen
svg=$src/resources/icons/hearth.svg
"$render" --ico "$svg" "$work/hearth.ico" 16 24 32 48 64 128 256
"$render" --iconset "$svg" "$work/Hearth.iconset"
python3 - "$work" <<'PY'
import os, struct, sys
work = sys.argv[1]
def png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])
ico = open(os.path.join(work, "hearth.ico"), "rb").read()
reserved, kind, count = struct.unpack("<HHH", ico[:6])
assert (reserved, kind, count) == (0, 1, 7), (reserved, kind, count)
for i in range(count):
    w, h, _, _, planes, bits, size, offset = struct.unpack("<BBBBHHII", ico[6 + 16 * i:22 + 16 * i])
    edge = w or 256
    assert (w, h, planes, bits) == (w, w, 1, 32), (w, h, planes, bits)
    assert png_size(ico[offset:offset + size]) == (edge, edge), f"entry {i}"
print("ico: 7 sizes, 16-256 px, each PNG the size its entry states")
names = sorted(os.listdir(os.path.join(work, "Hearth.iconset")))
want = sorted(f"icon_{s}x{s}{x}.png" for s in (16, 32, 128, 256, 512) for x in ("", "@2x"))
assert names == want, names
for n in names:
    s = int(n.split("_")[1].split("x")[0]) * (2 if "@2x" in n else 1)
    assert png_size(open(os.path.join(work, "Hearth.iconset", n), "rb").read()) == (s, s), n
print("iconset: the ten files iconutil expects, each its stated size")
PY
if command -v x86_64-w64-mingw32-windres >/dev/null; then
    IFS=. read -r major minor patch <<<"$version"
    sed -e "s|@HEARTH_RC_ICON@|$work/hearth.ico|; s|@PROJECT_VERSION_MAJOR@|$major|g" \
        -e "s|@PROJECT_VERSION_MINOR@|$minor|g; s|@PROJECT_VERSION_PATCH@|$patch|g; s|@PROJECT_VERSION@|$version|g" \
        -e "s|@HEARTH_RC_DESCRIPTION@|Hearth|; s|@HEARTH_RC_FILENAME@|Hearth.exe|g" \
        "$src/packaging/windows/hearth.rc.in" >"$work/hearth.rc"
    x86_64-w64-mingw32-windres "$work/hearth.rc" -O coff -o "$work/hearth.res.o"
    echo "rc: the resource script compiles (windres)"
else
    echo "windres not installed (g++-mingw-w64-x86-64-posix): the resource script was not compiled"
fi
