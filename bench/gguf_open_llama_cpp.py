#!/usr/bin/env python3
"""llama.cpp's side of bench_gguf_open: times llama.cpp's own GGUF reader
(gguf_init_from_file with no_alloc, from libggml-base of llama-cpp-python)
on the same file, cold (file dropped from the page cache) and warm, then
runs Hearth's bench so both are measured in one go.

    ~/.cache/hearth/ref-venv/bin/python bench/gguf_open_llama_cpp.py MODEL.gguf [BUILD_DIR]
"""
import ctypes
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import llama_cpp


class Params(ctypes.Structure):
    _fields_ = [("no_alloc", ctypes.c_bool), ("ctx", ctypes.c_void_p)]


def drop(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)


def main() -> None:
    path = sys.argv[1]
    build = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(__file__).resolve().parents[1] / "build" / "dev"
    g = ctypes.CDLL(str(Path(llama_cpp.__file__).parent / "lib" / "libggml-base.so"))
    g.gguf_init_from_file.restype = ctypes.c_void_p
    g.gguf_init_from_file.argtypes = [ctypes.c_char_p, Params]
    g.gguf_free.argtypes = [ctypes.c_void_p]

    def open_once() -> float:
        t0 = time.perf_counter()
        ctx = g.gguf_init_from_file(path.encode(), Params(True, None))
        dt = (time.perf_counter() - t0) * 1000
        assert ctx, "llama.cpp refused the file"
        g.gguf_free(ctx)
        return dt

    drop(path)
    cold = open_once()
    warm = sorted(open_once() for _ in range(20))
    print(f"llama.cpp gguf_init_from_file: cold {cold:.2f} ms, warm median {statistics.median(warm):.2f} ms, "
          f"min {warm[0]:.2f} ms")
    subprocess.run([str(build / "bench" / "bench_gguf_open"), path], check=True)


if __name__ == "__main__":
    main()
