#!/usr/bin/env python3
"""Checks that llama.cpp loads what gguf::Writer writes (run by hand; the
test suite does not need llama.cpp).

1. Both real models are read by gguf::File and written again by
   gguf::Writer (the gguf_rewrite tool); the copy must be byte-identical to
   the original, and llama.cpp must load it and give the same logits.
2. A synthetic file with every value type, alignment 64 and tensors of
   mixed types is parsed by llama.cpp's own GGUF reader (gguf_init_from_file
   in libggml-base, through ctypes); keys, values, tensor types and offsets
   must be what was written.

    ~/.cache/hearth/ref-venv/bin/python scripts/refs/check_writer_with_llama_cpp.py [BUILD_DIR]
"""
import ctypes
import filecmp
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import llama_cpp
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
MODELS = Path(os.environ.get("HEARTH_MODELS_DIR", Path.home() / ".local/share/hearth/models"))


def logits(path: Path, prompt: str) -> np.ndarray:
    llm = llama_cpp.Llama(str(path), n_ctx=64, logits_all=True, verbose=False, n_threads=2)
    llm.eval(llm.tokenize(prompt.encode()))
    return np.array(llm.scores[: llm.n_tokens])


def check_model(tool: Path, name: str, tmp: Path) -> None:
    src = MODELS / name
    dst = tmp / name
    subprocess.run([str(tool), str(src), str(dst)], check=True)
    assert filecmp.cmp(src, dst, shallow=False), f"{name}: the rewritten file differs from the original"
    a, b = logits(src, "The capital of France is"), logits(dst, "The capital of France is")
    assert np.array_equal(a, b), f"{name}: llama.cpp gives other logits for the rewritten file"
    dst.unlink()
    print(f"{name}: rewritten byte-identical, llama.cpp loads it, same logits ({a.shape[0]} tokens)")


def check_synthetic(tool: Path, tmp: Path) -> None:
    path = tmp / "synthetic.gguf"
    subprocess.run([str(tool), "--synthetic", str(path)], check=True)
    g = ctypes.CDLL(str(Path(llama_cpp.__file__).parent / "lib" / "libggml-base.so"))

    class Params(ctypes.Structure):
        _fields_ = [("no_alloc", ctypes.c_bool), ("ctx", ctypes.c_void_p)]

    g.gguf_init_from_file.restype = ctypes.c_void_p
    g.gguf_init_from_file.argtypes = [ctypes.c_char_p, Params]
    for fn, res in [("gguf_get_n_kv", ctypes.c_int64), ("gguf_get_n_tensors", ctypes.c_int64),
                    ("gguf_get_alignment", ctypes.c_size_t), ("gguf_get_data_offset", ctypes.c_size_t)]:
        getattr(g, fn).restype = res
        getattr(g, fn).argtypes = [ctypes.c_void_p]
    g.gguf_find_key.restype = ctypes.c_int64
    g.gguf_find_key.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    for fn, res in [("gguf_get_val_u64", ctypes.c_uint64), ("gguf_get_val_f64", ctypes.c_double),
                    ("gguf_get_val_str", ctypes.c_char_p), ("gguf_get_val_i16", ctypes.c_int16),
                    ("gguf_get_tensor_offset", ctypes.c_size_t), ("gguf_get_tensor_type", ctypes.c_int),
                    ("gguf_get_tensor_name", ctypes.c_char_p), ("gguf_get_arr_n", ctypes.c_size_t)]:
        getattr(g, fn).restype = res
        getattr(g, fn).argtypes = [ctypes.c_void_p, ctypes.c_int64]
    ctx = g.gguf_init_from_file(str(path).encode(), Params(True, None))
    assert ctx, "llama.cpp's gguf reader refused the synthetic file"
    key = lambda k: g.gguf_find_key(ctx, k.encode())
    assert g.gguf_get_n_kv(ctx) == 16 and g.gguf_get_n_tensors(ctx) == 6
    assert g.gguf_get_alignment(ctx) == 64 and g.gguf_get_data_offset(ctx) % 64 == 0
    assert g.gguf_get_val_u64(ctx, key("t.u64")) == 18000000000000000000
    assert g.gguf_get_val_f64(ctx, key("t.f64")) == -1e300
    assert g.gguf_get_val_i16(ctx, key("t.i16")) == -30000
    assert g.gguf_get_val_str(ctx, key("t.str")) == b"hello"
    assert g.gguf_get_arr_n(ctx, key("t.arr.str")) == 3
    types, offset = [0, 1, 2, 8, 12, 14], 0
    row_bytes = {0: 1024, 1: 512, 2: 144, 8: 272, 12: 144, 14: 210}
    for i, t in enumerate(types):
        assert g.gguf_get_tensor_name(ctx, i) == f"tensor.{i}".encode()
        assert g.gguf_get_tensor_type(ctx, i) == t
        assert g.gguf_get_tensor_offset(ctx, i) == offset, (i, g.gguf_get_tensor_offset(ctx, i), offset)
        offset += (row_bytes[t] * (i + 1) + 63) // 64 * 64
    print("synthetic file: llama.cpp's gguf reader accepts it; keys, types and offsets as written")


def main() -> None:
    build = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "dev"
    tool = build / "tests" / "core" / "gguf_rewrite"
    with tempfile.TemporaryDirectory() as tmp:
        check_synthetic(tool, Path(tmp))
        for name in ["SmolLM2-135M-Instruct.Q4_1.gguf", "gemma-3-270m-q4_k_m.gguf"]:
            check_model(tool, name, Path(tmp))


if __name__ == "__main__":
    main()
