#!/usr/bin/env bash
# Cross-compiles the NEON kernel check for arm64 with Debian's
# g++-aarch64-linux-gnu and runs it under qemu-aarch64, twice: on a CPU
# model without dotprod (cortex-a72: the plain NEON kernels) and on `max`
# (dotprod and i8mm too). ctest runs this as test_simd_neon_qemu; it exits
# 77 (skipped) when the cross compiler or qemu-user is not installed.
#
#   tests/backends/neon/run.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: run.sh BUILD_DIR}
for tool in aarch64-linux-gnu-g++ qemu-aarch64 cmake; do
    if ! command -v "$tool" >/dev/null; then
        echo "SKIP: $tool not installed (scripts/setup installs g++-aarch64-linux-gnu and qemu-user)"
        exit 77
    fi
done
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$here" -B "$build" "${generator[@]}" "${launcher[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE="$here/../../../cmake/aarch64-linux-gnu.cmake" >/dev/null
cmake --build "$build"
for cpu in cortex-a72 max; do
    echo "== qemu-aarch64 -cpu $cpu"
    QEMU_CPU=$cpu qemu-aarch64 -L /usr/aarch64-linux-gnu "$build/simd_check_main"
done
