#!/usr/bin/env python3
"""Quantize speed, Hearth next to llama.cpp, on the same F16 model and mixes.

    ~/.cache/hearth/ref-venv/bin/python bench/quantize_vs_llama_cpp.py F16.gguf \
        [--hearth build/dev/app/cli/hearth] [--mixes Q4_0 Q4_K_M ...] [--threads N] [--runs R]

For each mix it runs `hearth quantize F16.gguf OUT TYPE --threads N` (or,
with --hearth pointing at build/dev/bench/bench_quantize, that program: the
same quantizer without the CLI, for a build that has not made the app) and
llama.cpp's llama_model_quantize (llama-cpp-python, nthread N) R times each,
alternating, and prints the best wall time of each, the ratio (llama.cpp /
Hearth: above 1 means Hearth is faster) and whether the two outputs are the
same bytes. Make an F16 with `hearth quantize MODEL.gguf F16.gguf F16
--allow-requantize`, or use scripts/refs/make_quant_synth_model.py.
"""
import argparse
import ctypes
import hashlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import llama_cpp

ROOT = Path(__file__).resolve().parents[1]
FTYPES = {"Q4_0": 2, "Q4_1": 3, "Q5_0": 8, "Q5_1": 9, "Q8_0": 7, "Q2_K": 10, "Q3_K_S": 11, "Q3_K_M": 12,
          "Q3_K_L": 13, "Q4_K_S": 14, "Q4_K_M": 15, "Q5_K_S": 16, "Q5_K_M": 17, "Q6_K": 18, "IQ4_NL": 25,
          "IQ4_XS": 30, "F16": 1, "BF16": 32}


def digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def run_llama(src, dst, ftype, threads):
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = ftype
    params.nthread = threads
    t0 = time.perf_counter()
    rc = llama_cpp.llama_model_quantize(str(src).encode(), str(dst).encode(), ctypes.byref(params))
    elapsed = time.perf_counter() - t0
    if rc != 0:
        sys.exit(f"llama.cpp failed on {src}")
    return elapsed


def run_hearth(exe, src, dst, mix, threads):
    cmd = [exe] if Path(exe).name.startswith("bench_quantize") else [exe, "quantize"]
    t0 = time.perf_counter()
    subprocess.run(cmd + [str(src), str(dst), mix, "--threads", str(threads)], check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model")
    ap.add_argument("--hearth", default=str(ROOT / "build" / "dev" / "app" / "cli" / "hearth"))
    ap.add_argument("--mixes", nargs="*", default=["Q4_0", "Q8_0", "Q4_K_M", "Q5_K_M", "Q6_K", "IQ4_XS"])
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    llama_cpp.llama_backend_init()
    size = os.path.getsize(args.model) / 2**20
    print(f"{Path(args.model).name}: {size:.0f} MiB, {args.threads} threads, best of {args.runs}")
    print(f"{'mix':8} {'hearth s':>9} {'llama.cpp s':>12} {'ratio':>6}  same bytes")
    with tempfile.TemporaryDirectory() as tmp:
        for mix in args.mixes:
            ours, theirs = Path(tmp) / "hearth.gguf", Path(tmp) / "llama.gguf"
            h, l = [], []
            for _ in range(args.runs):
                h.append(run_hearth(args.hearth, args.model, ours, mix, args.threads))
                l.append(run_llama(args.model, theirs, FTYPES[mix], args.threads))
            same = digest(ours) == digest(theirs)
            print(f"{mix:8} {min(h):9.2f} {min(l):12.2f} {min(l) / min(h):6.2f}  {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
