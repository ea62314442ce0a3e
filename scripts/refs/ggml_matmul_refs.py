#!/usr/bin/env python3
"""Writes tests/data/engine/matmul/ggml_matmul.{json,bin}: llama.cpp's own
matrix multiplications (ggml's CPU backend from llama-cpp-python, called
through ctypes) of quantized weights by f32 activations, for every weight
type Hearth multiplies with, at batch sizes that take each of ggml's x86
paths: vec_dot (one token, and batches below 8 for the K-quants), the tiled
K-quant kernel (8 tokens or more), tinyBLAS, and the repacked (interleaved)
weights of the "CPU_REPACK" buffer with their GEMV (leftover rows) and GEMM
(groups of four rows) kernels. Weights are placed in the repack buffer
exactly when llama.cpp would place them there on this machine (Q4_0, Q4_K,
IQ4_NL with a multiple of 8 rows; Q2_K too when the CPU has AVX-512).

The engine test (tests/core/test_matmul_ggml.cpp) multiplies the same
bytes and must give the same floats, bit for bit.

Needs the reference venv (scripts/setup-reference):
    ~/.cache/hearth/ref-venv/bin/python scripts/refs/ggml_matmul_refs.py
"""
import ctypes
import json
from pathlib import Path

import llama_cpp
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "engine" / "matmul"
LIB = Path(llama_cpp.__file__).parent / "lib"
SEED = 20917
N_IN = 512
ROWS = (24, 12)  # 24: repack-eligible (AVX-512 and AVX2 column groups); 12: not a multiple of 8
BATCHES = (1, 2, 4, 7, 8, 19)
TYPES = {"q4_0": 2, "q4_1": 3, "q5_0": 6, "q5_1": 7, "q8_0": 8, "q2_K": 10, "q3_K": 11, "q4_K": 12, "q5_K": 13,
         "q6_K": 14, "iq4_nl": 20, "iq4_xs": 23}


class InitParams(ctypes.Structure):
    _fields_ = [("mem_size", ctypes.c_size_t), ("mem_buffer", ctypes.c_void_p), ("no_alloc", ctypes.c_bool)]


class Ggml:
    def __init__(self) -> None:
        base = ctypes.CDLL(str(LIB / "libggml-base.so"), mode=ctypes.RTLD_GLOBAL)
        cpu = ctypes.CDLL(str(LIB / "libggml-cpu.so"), mode=ctypes.RTLD_GLOBAL)
        vp, i64, sz = ctypes.c_void_p, ctypes.c_int64, ctypes.c_size_t

        def fn(lib, name, res, args):
            f = getattr(lib, name)
            f.restype, f.argtypes = res, args
            return f

        self.init = fn(base, "ggml_init", vp, [InitParams])
        self.free = fn(base, "ggml_free", None, [vp])
        self.new2d = fn(base, "ggml_new_tensor_2d", vp, [vp, ctypes.c_int, i64, i64])
        self.mul_mat = fn(base, "ggml_mul_mat", vp, [vp, vp, vp])
        self.new_graph = fn(base, "ggml_new_graph", vp, [vp])
        self.expand = fn(base, "ggml_build_forward_expand", None, [vp, vp])
        self.overhead = fn(base, "ggml_tensor_overhead", sz, [])
        self.goverhead = fn(base, "ggml_graph_overhead", sz, [])
        self.alloc = fn(base, "ggml_backend_alloc_ctx_tensors_from_buft", vp, [vp, vp])
        self.buf_free = fn(base, "ggml_backend_buffer_free", None, [vp])
        self.tset = fn(base, "ggml_backend_tensor_set", None, [vp, vp, sz, sz])
        self.tget = fn(base, "ggml_backend_tensor_get", None, [vp, vp, sz, sz])
        self.compute = fn(base, "ggml_backend_graph_compute", ctypes.c_int, [vp, vp])
        self.row_size = fn(base, "ggml_row_size", sz, [ctypes.c_int, i64])
        self.quantize_chunk = fn(base, "ggml_quantize_chunk", sz, [ctypes.c_int, vp, vp, i64, i64, i64, vp])
        self.cpu_buft = fn(cpu, "ggml_backend_cpu_buffer_type", vp, [])
        # C++ symbols (ggml-cpu's repack buffer type and its registration)
        self.repack_buft = fn(cpu, "_Z35ggml_backend_cpu_repack_buffer_typev", vp, [])
        fn(cpu, "_Z39ggml_backend_cpu_get_extra_buffer_typesv", vp, [])()
        self.has_avx512 = fn(cpu, "ggml_cpu_has_avx512", ctypes.c_int, [])
        self.has_avx2 = fn(cpu, "ggml_cpu_has_avx2", ctypes.c_int, [])
        self.backend = fn(cpu, "ggml_backend_cpu_init", vp, [])()
        self.set_threads = fn(cpu, "ggml_backend_cpu_set_n_threads", None, [vp, ctypes.c_int])

    def repacked(self, type_name: str, rows: int) -> bool:
        """Whether llama.cpp puts these weights in its repack buffer here
        (ggml_repack_get_optimal_repack_type, x86 branches)."""
        if rows % 8:
            return False
        if type_name in ("q4_0", "q4_K", "iq4_nl"):
            return bool(self.has_avx2())
        if type_name == "q2_K":
            return bool(self.has_avx512())
        return False

    def quantize(self, type_id: int, w: np.ndarray) -> bytes:
        rows, k = w.shape
        out = np.zeros(self.row_size(type_id, k) * rows, dtype=np.uint8)
        self.quantize_chunk(type_id, w.ctypes.data, out.ctypes.data, 0, rows, k, None)
        return out.tobytes()

    def matmul(self, type_id: int, weights: bytes, rows: int, x: np.ndarray, repack: bool, threads: int) -> np.ndarray:
        self.set_threads(self.backend, threads)
        cw = self.init(InitParams(self.overhead() * 2, None, True))
        cc = self.init(InitParams(self.overhead() * 4 + self.goverhead(), None, True))
        w = self.new2d(cw, type_id, N_IN, rows)
        xt = self.new2d(cc, 0, N_IN, x.shape[0])
        y = self.mul_mat(cc, w, xt)
        bw = self.alloc(cw, self.repack_buft() if repack else self.cpu_buft())
        bc = self.alloc(cc, self.cpu_buft())
        wb = np.frombuffer(weights, dtype=np.uint8)
        self.tset(w, wb.ctypes.data, 0, wb.size)
        self.tset(xt, x.ctypes.data, 0, x.nbytes)
        graph = self.new_graph(cc)
        self.expand(graph, y)
        assert self.compute(self.backend, graph) == 0
        out = np.empty((x.shape[0], rows), dtype=np.float32)
        self.tget(y, out.ctypes.data, 0, out.nbytes)
        self.buf_free(bw)
        self.buf_free(bc)
        self.free(cw)
        self.free(cc)
        return out


def activations(rng: np.random.Generator, n: int) -> np.ndarray:
    """n rows of N_IN: bell-shaped values at several scales, outliers (as
    real activations have), and rows whose largest magnitude occurs with
    both signs (the tie rule of the Q8_K quantizers)."""
    x = rng.standard_normal((n, N_IN)).astype(np.float32)
    for r in range(n):
        x[r] *= np.float32(rng.choice([0.05, 1.0, 7.0]))
        if r % 3 == 1:
            x[r, rng.integers(0, N_IN, 4)] *= np.float32(40.0)
        if r % 5 == 2:
            m = np.float32(np.abs(x[r]).max() * 1.5)
            x[r, 3], x[r, 200], x[r, 300], x[r, 301] = m, -m, -m, m
    return x


def weights(rng: np.random.Generator, rows: int) -> np.ndarray:
    w = rng.standard_normal((rows, N_IN)).astype(np.float32)
    w *= rng.uniform(0.01, 0.2, (rows, 1)).astype(np.float32)
    w[:, rng.integers(0, N_IN, 6)] *= np.float32(8.0)
    return w


def main() -> None:
    g = Ggml()
    rng = np.random.default_rng(SEED)
    parts, size = [], 0

    def add(data: bytes) -> list[int]:
        nonlocal size
        at = size
        parts.append(data + b"\0" * ((-len(data)) % 8))
        size += len(parts[-1])
        return [at, len(data)]

    x = activations(rng, max(BATCHES))
    shared_x = add(x.tobytes())
    cases = []
    for name, tid in TYPES.items():
        for rows in ROWS:
            wq = g.quantize(tid, weights(rng, rows))
            repack = g.repacked(name, rows)
            entry = {"type": name, "rows": rows, "repacked": repack, "weights": add(wq), "outputs": []}
            for batch in BATCHES:
                y = g.matmul(tid, wq, rows, np.ascontiguousarray(x[:batch]), repack, threads=2)
                y1 = g.matmul(tid, wq, rows, np.ascontiguousarray(x[:batch]), repack, threads=1)
                assert np.array_equal(y.view(np.uint32), y1.view(np.uint32)), (name, rows, batch)
                entry["outputs"].append({"batch": batch, "y": add(y.tobytes())})
            cases.append(entry)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "ggml_matmul.bin").write_bytes(b"".join(parts))
    index = {"generator": "scripts/refs/ggml_matmul_refs.py", "llama_cpp_python": llama_cpp.__version__,
             "seed": SEED, "data": "ggml_matmul.bin", "n_in": N_IN, "x": shared_x,
             "cpu": {"avx2": bool(g.has_avx2()), "avx512": bool(g.has_avx512())}, "cases": cases}
    (OUT / "ggml_matmul.json").write_text(json.dumps(index, indent=1) + "\n")
    print(f"{len(cases)} weight matrices, {size} bytes -> {OUT}")


if __name__ == "__main__":
    main()
