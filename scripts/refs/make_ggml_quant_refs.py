#!/usr/bin/env python3
"""Writes the quantizer golden files of tests/core/test_quant_quantize.cpp:
the bytes llama.cpp's own reference quantizers (quantize_row_*_ref in
libggml-base, called through ctypes) write for fixed-seed inputs.

Inputs mix bell-shaped values at several scales with the cases rounding
code trips on: an all-zero block, values exactly halfway between two
quants, one large outlier, a constant block, negative extremes, subnormals.

Needs the reference venv (scripts/setup-reference):
    ~/.cache/hearth/ref-venv/bin/python scripts/refs/make_ggml_quant_refs.py
Output: tests/data/quant/ggml_quantize.json + ggml_quantize.bin (one f32
input shared by all cases, then each type's output bytes).
"""
import ctypes
import json
from pathlib import Path

import llama_cpp
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "quant"
SEED = 7211
# type name, elements per block, bytes per block, ggml function
TYPES = [
    ("q4_0", 32, 18, "quantize_row_q4_0_ref"),
    ("q4_1", 32, 20, "quantize_row_q4_1_ref"),
    ("q5_0", 32, 22, "quantize_row_q5_0_ref"),
    ("q5_1", 32, 24, "quantize_row_q5_1_ref"),
    ("q8_0", 32, 34, "quantize_row_q8_0_ref"),
    ("q8_1", 32, 36, "quantize_row_q8_1_ref"),
    ("q2_K", 256, 84, "quantize_row_q2_K_ref"),
    ("q3_K", 256, 110, "quantize_row_q3_K_ref"),
    ("q4_K", 256, 144, "quantize_row_q4_K_ref"),
    ("q5_K", 256, 176, "quantize_row_q5_K_ref"),
    ("q6_K", 256, 210, "quantize_row_q6_K_ref"),
    ("q8_K", 256, 292, "quantize_row_q8_K_ref"),
    ("iq4_nl", 32, 18, "quantize_row_iq4_nl_ref"),
    ("iq4_xs", 256, 136, "quantize_row_iq4_xs_ref"),
    ("f16", 1, 2, "ggml_fp32_to_fp16_row"),
    ("bf16", 1, 2, "ggml_fp32_to_bf16_row_ref"),
]
# What ggml_quantize_chunk (llama-quantize) calls without an importance
# matrix, where it is not the row reference above: (type, bytes per 256
# elements, function(src, dst, nrow, n_per_row, imatrix)).
CHUNK_TYPES = [
    ("iq4_nl", 144, "quantize_iq4_nl"),
    ("iq4_xs", 136, "quantize_iq4_xs"),
]


def inputs(rng: np.random.Generator, n: int) -> np.ndarray:
    """n floats (a multiple of 256) in groups of 32 with different traits."""
    groups = []
    for g in range(n // 32):
        kind = g % 8
        scale = np.float32(rng.choice([1e-4, 0.03, 1.0, 50.0]))
        x = rng.standard_normal(32).astype(np.float32) * scale
        if kind == 1:
            x[:] = 0.0
        elif kind == 2:  # exact halves of a step after scaling: rounding ties
            x = (rng.integers(-254, 255, 32).astype(np.float32) / 2) * np.float32(scale / 64)
            x[0] = np.float32(127) * np.float32(scale / 64)
        elif kind == 3:
            x[rng.integers(0, 32)] = scale * 40
        elif kind == 4:
            x[:] = np.float32(-scale)
        elif kind == 5:
            x = np.abs(x) + scale  # all positive: min > 0
        elif kind == 6:
            x = rng.uniform(-1, 1, 32).astype(np.float32) * np.float32(1e-39)  # subnormal
        groups.append(x)
    return np.concatenate(groups).astype(np.float32)


def main() -> None:
    lib = ctypes.CDLL(str(Path(llama_cpp.__file__).parent / "lib" / "libggml-base.so"))
    rng = np.random.default_rng(SEED)
    parts, size, cases = [], 0, []

    def add(data: bytes) -> list[int]:
        nonlocal size
        at = size
        parts.append(data + b"\0" * ((-len(data)) % 8))
        size += len(parts[-1])
        return [at, len(data)]

    n = 4096
    x = inputs(rng, n)
    shared_input = add(x.tobytes())
    for name, block, nbytes, fn_name in TYPES:
        out = (ctypes.c_uint8 * (n // block * nbytes))()  # zeroed: q8_K leaves bsums of zero blocks unset
        fn = getattr(lib, fn_name)
        fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]
        fn.restype = None
        fn(x.ctypes.data, ctypes.addressof(out), n)
        cases.append({"type": name, "function": fn_name, "output": add(bytes(out))})
    for name, nbytes, fn_name in CHUNK_TYPES:
        out = (ctypes.c_uint8 * (n // 256 * nbytes))()
        fn = getattr(lib, fn_name)
        fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p]
        fn.restype = ctypes.c_size_t
        fn(x.ctypes.data, ctypes.addressof(out), n // 256, 256, None)
        cases.append({"type": name, "function": fn_name, "chunk": True, "output": add(bytes(out))})
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "ggml_quantize.bin").write_bytes(b"".join(parts))
    index = {"generator": "scripts/refs/make_ggml_quant_refs.py", "llama_cpp_python": llama_cpp.__version__,
             "seed": SEED, "data": "ggml_quantize.bin", "elements": n, "input": shared_input, "cases": cases}
    (OUT / "ggml_quantize.json").write_text(json.dumps(index, indent=1) + "\n")
    print(f"{len(cases)} cases, {size} bytes -> {OUT}")


if __name__ == "__main__":
    main()
