#!/usr/bin/env bash
# The SIMD kernel objects (compiled with AVX2 / AVX-512 / dotprod flags) may
# define no symbol but their register*Kernels functions. Any other global or
# weak definition (an inline function or template emitted from a shared
# header) could be picked by the linker for code that runs on a CPU without
# those instructions, and crash it there. (DW.ref.__gxx_personality_v0, the
# exception-handling personality's address, is data and the same for all.)
#
#   check_simd_symbols.sh OBJECT...
set -euo pipefail
command -v nm >/dev/null || { echo "SKIP: nm not installed"; exit 77; }
[ $# -gt 0 ] || { echo "no objects given"; exit 1; }
status=0
for obj in "$@"; do
    [ -f "$obj" ] || { echo "missing object: $obj"; exit 1; }
    syms=$(nm -C --defined-only "$obj")
    bad=$(echo "$syms" | awk '$2 ~ /^[TWVDBRuiv]$/ { $1 = ""; $2 = ""; print }' |
          grep -v -e '^ *hearth::cpu::register[A-Za-z0-9]*Kernels(' -e '^ *DW.ref.__gxx_personality_v0$' || true)
    if [ -n "$bad" ]; then
        echo "$obj defines symbols other than its registration functions:"
        # shellcheck disable=SC2001 # a prefix on every line, not one substitution
        echo "$bad" | sed 's/^/    /'
        status=1
    fi
done
[ $status -eq 0 ] && echo "$# kernel objects export only their registration functions"
exit $status
