#!/usr/bin/env bash
# The engine on Windows: cross-builds hearth-engine-run with MinGW-w64
# (scripts/build-windows) and runs it under wine on the real SmolLM2 file,
# next to the native build's hearth-engine-run:
#   - greedy token ids for a few prompts (one in Chinese, passed on the
#     command line: the UTF-16 command line) with the model opened through
#     a file name outside ASCII, on every ISA level this CPU has
#     (HEARTH_CPU_ISA), and with pinned threads: Windows and Linux
#     must print the same ids, and the English prompt the ids llama.cpp
#     gives (tests/data/engine/greedy_smollm2.json);
#   - the platform checks (tools/platform_check.h: UTF-16 paths, a mapping
#     of a file over 4 GiB, CPU detection, affinity, memory) pass on both,
#     and CPU detection and affinity report the same facts.
# ctest runs it as test_windows_engine_wine; it exits 77 (skipped) when
# MinGW-w64, wine or the model is missing.
#
#   tests/windows/run.sh NATIVE_RUNNER WINDOWS_BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
native=${1:?usage: run.sh NATIVE_RUNNER WINDOWS_BUILD_DIR}
build=${2:?usage: run.sh NATIVE_RUNNER WINDOWS_BUILD_DIR}
# shellcheck source=../../scripts/lib/common.sh
source "$root/scripts/lib/common.sh"
model=$HEARTH_MODELS_DIR/SmolLM2-135M-Instruct.Q4_1.gguf

skip() {
    echo "SKIP: $*"
    exit 77
}
command -v x86_64-w64-mingw32-g++-posix >/dev/null || skip "MinGW-w64 not installed (g++-mingw-w64-x86-64-posix)"
command -v wine >/dev/null || skip "wine not installed (wine64)"
[ -f "$model" ] || skip "$model not found (scripts/setup fetches it)"

"$root/scripts/build-windows" "$build" >/dev/null
exe=$build/tools/hearth-engine-run.exe

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# wine: a prefix of our own (made once, ~20 s), no debug chatter, and a
# UTF-8 locale so the command line reaches the program intact.
export WINEPREFIX=${HEARTH_WINEPREFIX:-$HEARTH_CACHE_DIR/wine}
export WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" LC_ALL=C.UTF-8
mkdir -p "$WINEPREFIX"
[ -f "$WINEPREFIX/system.reg" ] || wineboot --init >/dev/null 2>&1 || true
win() { wine "$exe" "$@"; }
winpath() { winepath -w "$1" 2>/dev/null; }

echo "== $(win --version | tr -d '\r')"
echo "== $("$native" --version)"

# The model under a name in three scripts, through a symbolic link.
mkdir -p "$work/模型 Zoë"
linked="$work/模型 Zoë/SmolLM2 ✓.gguf"
ln -s "$model" "$linked"
wlinked=$(winpath "$linked")

levels=(scalar)
features=$("$native" --version)
[[ $features == *AVX2* ]] && levels+=(avx2)
[[ $features == *AVX512BW* ]] && levels+=(avx512)

status=0
prompts=("The capital of France is" "你好，请介绍一下你自己。" "def fibonacci(n):")
# compare ISA PROMPT [--pin]: the same ids from both builds.
compare() {
    local isa=$1 prompt=$2 args=(-p "$2" -n 24 -t 2 "${@:3}") want got
    want=$(HEARTH_CPU_ISA=$isa "$native" -m "$linked" "${args[@]}")
    got=$(HEARTH_CPU_ISA=$isa win -m "$wlinked" "${args[@]}" | tr -d '\r')
    if [ "$want" = "$got" ]; then
        echo "ok   $isa ${3:-} '$prompt': $(sed -n 's/^generated //p' <<<"$got" | cut -c1-60)..."
    else
        echo "FAIL $isa ${3:-} '$prompt'"
        diff <(echo "$want") <(echo "$got") || true
        status=1
    fi
}
for isa in "${levels[@]}"; do
    for prompt in "${prompts[@]}"; do
        compare "$isa" "$prompt"
    done
    compare "$isa" "${prompts[0]}" --pin # workers pinned to processors
done

# llama.cpp's ids for the English prompt (first 24 of its 64).
golden=$(python3 - "$root/tests/data/engine/greedy_smollm2.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
p = next(p for p in doc["prompts"] if p["name"] == "en-capital")
print("generated " + " ".join(map(str, p["output_ids"][:24])))
PY
)
ours=$(win -m "$wlinked" -p "The capital of France is" -n 24 -t 2 | tr -d '\r' | grep '^generated')
if [ "$ours" = "$golden" ]; then
    echo "ok   Windows build = llama.cpp on 'The capital of France is'"
else
    echo "FAIL Windows build differs from llama.cpp: $ours vs $golden"
    status=1
fi

echo "== platform checks (native, then Windows)"
mkdir -p "$work/native" "$work/windows"
"$native" --platform-check "$work/native" | tee "$work/native.txt" || status=1
win --platform-check "$(winpath "$work/windows")" | tr -d '\r' | tee "$work/windows.txt" || status=1
for check in cpu affinity; do
    if ! diff <(grep "^ok $check:" "$work/native.txt") <(grep "^ok $check:" "$work/windows.txt"); then
        echo "FAIL $check: Windows and Linux see this machine differently"
        status=1
    fi
done
[ $status -eq 0 ] && echo "Windows engine under wine: all checks passed"
exit $status
