#!/usr/bin/env python3
"""Prompt (pp) and generation (tg) tokens per second of Hearth's engine and
of llama.cpp (llama-cpp-python, scripts/setup-reference) on the same model
files and thread count, measured in one run, with the ratios.

    ~/.cache/hearth/ref-venv/bin/python bench/engine/compare.py \
        --build build/release -t 2 [-p 512] [-n 128] MODEL.gguf ...
"""
import argparse
import json
import os
import subprocess
import time

from llama_cpp import Llama


def llama_cpp(path, threads, pp, tg):
    llm = Llama(model_path=path, n_ctx=pp + tg + 16, n_batch=512, n_threads=threads, verbose=False)
    vocab = llm.n_vocab()
    prompt = [(i * 7919 + 13) % vocab for i in range(pp)]
    llm.reset()
    t0 = time.perf_counter()
    llm.eval(prompt)
    pp_ts = pp / (time.perf_counter() - t0)
    llm.reset()
    t0 = time.perf_counter()
    for i in range(tg):
        llm.eval([(i * 31 + 7) % vocab])
    tg_ts = tg / (time.perf_counter() - t0)
    return pp_ts, tg_ts


def hearth(binary, path, threads, pp, tg):
    out = subprocess.run([binary, path, "-t", str(threads), "-p", str(pp), "-n", str(tg)],
                         check=True, capture_output=True, text=True).stdout
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    pp_ts = next(r["avg_ts"] for r in rows if r["n_prompt"] > 0)
    tg_ts = next(r["avg_ts"] for r in rows if r["n_gen"] > 0)
    return pp_ts, tg_ts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="+")
    ap.add_argument("--build", default="build/release")
    ap.add_argument("-t", type=int, default=2)
    ap.add_argument("-p", type=int, default=512)
    ap.add_argument("-n", type=int, default=128)
    args = ap.parse_args()
    binary = os.path.join(args.build, "bench", "bench_engine")
    print(f"| model | test | llama.cpp t/s | Hearth t/s | ratio |\n|---|---|---|---|---|")
    for m in args.models:
        ref_pp, ref_tg = llama_cpp(m, args.t, args.p, args.n)
        our_pp, our_tg = hearth(binary, m, args.t, args.p, args.n)
        name = os.path.basename(m)
        print(f"| {name} | pp{args.p} | {ref_pp:.2f} | {our_pp:.2f} | {our_pp / ref_pp:.2f} |")
        print(f"| {name} | tg{args.n} | {ref_tg:.2f} | {our_tg:.2f} | {our_tg / ref_tg:.2f} |")


if __name__ == "__main__":
    main()
