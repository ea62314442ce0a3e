#!/usr/bin/env python3
"""llama.cpp's side of bench/compare: llama-bench's measurement, made through
llama-cpp-python's low-level API, for one model file. Prints one JSON object
per test (one per line) with llama-bench's field names, plus the peak RSS.

    ~/.cache/hearth/ref-venv/bin/python bench/llama_cpp_bench.py -m FILE [-p 512] [-n 128]
        [-d 0] [-t 2] [-r 5] [-b 512] [-c N] [--fa auto|on|off] [--no-warmup]

As llama-bench (tools/llama-bench) does it:
- the model is memory-mapped (load mode mmap), all layers on the CPU;
- each test gets its own context of n_prompt + n_gen + n_depth cells (-c overrides;
  llama.cpp rounds it up to a multiple of 256), n_batch = n_ubatch = -b,
  f16 K/V, flash attention "auto" unless --fa says (on the CPU auto means
  on; the resolved value is reported), no full-size SWA cache;
- pp: n_prompt random tokens (BOS first when the model adds one) decoded in
  batches of n_batch with llama_decode, logits of the last token only;
- tg: BOS (or a random token), then random tokens, one llama_decode each,
  synchronized after each; no sampling;
- a warm-up run (the whole prompt, or one generated token), then -r timed
  runs, each after clearing the KV cache; t/s per run, mean and sample
  standard deviation;
- -d D (llama-bench's --n-depth): before each timed run, D random tokens
  processed as a prompt, not timed (llama-bench does it once and restores
  the saved state for the other runs: the cache holds the same cells).
Unlike llama-bench no CPU threadpool is attached (llama-cpp-python does not
expose it); this build of ggml uses OpenMP, whose thread team persists
between graphs anyway.

Peak RSS (Linux): the process's VmHWM, restarted (/proc/self/clear_refs)
just before the context is created, read after the last run, so it covers
the loaded weights, the context and the runs but not transient loading
peaks; start_rss_bytes is the RSS after importing llama.cpp, before the model.
"""
import argparse
import ctypes
import json
import os
import random
import resource
import sys
import time

import llama_cpp as L

FA = {"auto": L.LLAMA_FLASH_ATTN_TYPE_AUTO, "on": L.LLAMA_FLASH_ATTN_TYPE_ENABLED,
      "off": L.LLAMA_FLASH_ATTN_TYPE_DISABLED}

_logs = []


@L.llama_log_callback
def _log(level, text, user_data):
    _logs.append(text.decode("utf-8", "replace"))


def rss_now():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def reset_peak():
    """True when the peak could be restarted (Linux only)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def peak_rss():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return maxrss if sys.platform == "darwin" else maxrss * 1024


class Tokens:
    """Random ids over the whole vocabulary, as llama-bench draws them."""

    def __init__(self, model, seed):
        vocab = L.llama_model_get_vocab(model)
        self.n_vocab = L.llama_vocab_n_tokens(vocab)
        self.bos = L.llama_vocab_bos(vocab) if L.llama_vocab_get_add_bos(vocab) else -1
        self.rng = random.Random(seed)

    def next(self):
        return self.rng.randrange(self.n_vocab)

    def first(self):
        return self.bos if self.bos >= 0 else self.next()


def run_prompt(ctx, tokens, n_prompt, n_batch):
    """Continues the sequence: positions follow what the cache holds."""
    buf = (L.llama_token * n_batch)()
    done = 0
    while done < n_prompt:
        n = min(n_prompt - done, n_batch)
        for i in range(n):
            buf[i] = tokens.first() if done == 0 and i == 0 else tokens.next()
        if L.llama_decode(ctx, L.llama_batch_get_one(buf, n)) != 0:
            raise RuntimeError("llama_decode failed on a prompt batch")
        done += n
    L.llama_synchronize(ctx)


def run_gen(ctx, tokens, n_gen):
    buf = (L.llama_token * 1)()
    buf[0] = tokens.first()
    for _ in range(n_gen):
        if L.llama_decode(ctx, L.llama_batch_get_one(buf, 1)) != 0:
            raise RuntimeError("llama_decode failed on a generated token")
        L.llama_synchronize(ctx)
        buf[0] = tokens.next()


def run_once(ctx, tokens, n_prompt, n_gen, n_batch, n_depth=0):
    L.llama_memory_clear(L.llama_get_memory(ctx), False)
    if n_depth > 0:
        run_prompt(ctx, tokens, n_depth, n_batch)
    if n_prompt > 0:
        run_prompt(ctx, tokens, n_prompt, n_batch)
    if n_gen > 0:
        run_gen(ctx, tokens, n_gen)


def context_params(args, n_prompt, n_gen):
    cp = L.llama_context_default_params()
    cp.n_ctx = args.c if args.c > 0 else n_prompt + n_gen + args.d
    cp.n_batch = args.b
    cp.n_ubatch = args.b
    cp.n_threads = args.t
    cp.n_threads_batch = args.t
    cp.flash_attn_type = FA[args.fa]
    cp.swa_full = False
    cp.no_perf = True
    return cp


def flash_attn_resolved(requested):
    """1 or 0: what "auto" became (llama.cpp logs it while making the context)."""
    for line in reversed(_logs):
        if "Flash Attention enabled" in line:
            return 1
        if "Flash Attention disabled" in line or "Flash Attention was auto, set to disabled" in line:
            return 0
    return {"on": 1, "off": 0}.get(requested, -1)


def bench_test(model, facts, args, n_prompt, n_gen):
    lifetime = not reset_peak()
    _logs.clear()
    ctx = L.llama_init_from_model(model, context_params(args, n_prompt, n_gen))
    if not ctx:
        raise RuntimeError("llama_init_from_model failed")
    fa = flash_attn_resolved(args.fa)
    tokens = Tokens(model, args.seed)
    if not args.no_warmup:
        run_once(ctx, tokens, n_prompt, 0 if n_prompt > 0 else min(n_gen, 1), args.b)
    samples = []
    for _ in range(args.r):
        if args.d > 0:
            run_once(ctx, tokens, 0, 0, args.b, n_depth=args.d)  # the depth, not timed
            t0 = time.perf_counter_ns()
            if n_prompt > 0:
                run_prompt(ctx, tokens, n_prompt, args.b)
            if n_gen > 0:
                run_gen(ctx, tokens, n_gen)
        else:
            t0 = time.perf_counter_ns()
            run_once(ctx, tokens, n_prompt, n_gen, args.b)
        samples.append(time.perf_counter_ns() - t0)
    peak = peak_rss()
    n_ctx = L.llama_n_ctx(ctx)
    L.llama_free(ctx)
    ts = [1e9 * (n_prompt + n_gen) / ns for ns in samples]
    mean = sum(ts) / len(ts)
    sd = (sum((x - mean) ** 2 for x in ts) / (len(ts) - 1)) ** 0.5 if len(ts) > 1 else 0.0
    mean_ns = sum(samples) / len(samples)
    sd_ns = (sum((x - mean_ns) ** 2 for x in samples) / (len(samples) - 1)) ** 0.5 if len(samples) > 1 else 0.0
    return dict(facts, n_batch=args.b, n_ubatch=args.b, n_threads=args.t, type_k="f16", type_v="f16",
                n_gpu_layers=0, flash_attn=fa, flash_attn_requested=args.fa, load_mode="mmap",
                n_prompt=n_prompt, n_gen=n_gen, n_depth=args.d, n_ctx=n_ctx,
                test_time=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                avg_ns=round(mean_ns), stddev_ns=round(sd_ns), avg_ts=mean, stddev_ts=sd,
                peak_rss_bytes=peak, peak_rss_is_lifetime=lifetime, samples_ns=samples, samples_ts=ts)


def load(path):
    mp = L.llama_model_default_params()
    mp.load_mode = L.LLAMA_LOAD_MODE_MMAP
    model = L.llama_model_load_from_file(path.encode(), mp)
    if not model:
        raise RuntimeError(f"llama.cpp could not load {path}")
    desc = ctypes.create_string_buffer(128)
    L.llama_model_desc(model, desc, len(desc))
    facts = {"build_version": f"llama-cpp-python {L.__version__}",
             "cpu_info": L.llama_print_system_info().decode().strip(), "gpu_info": "", "backends": "CPU",
             "model_filename": path, "model_type": desc.value.decode(), "model_size": L.llama_model_size(model),
             "model_n_params": L.llama_model_n_params(model)}
    return model, facts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-m", required=True, help="GGUF model file")
    ap.add_argument("-p", type=int, default=512, help="prompt tokens (0: no pp test)")
    ap.add_argument("-n", type=int, default=128, help="generated tokens (0: no tg test)")
    ap.add_argument("-d", type=int, default=0, help="tokens in the cache before each test (llama-bench's -d)")
    ap.add_argument("-t", type=int, default=os.cpu_count(), help="threads")
    ap.add_argument("-r", type=int, default=5, help="timed runs per test")
    ap.add_argument("-b", type=int, default=512, help="n_batch and n_ubatch")
    ap.add_argument("-c", type=int, default=0, help="context cells (default n_prompt + n_gen)")
    ap.add_argument("--fa", choices=sorted(FA), default="auto", help="flash attention (default auto, as llama-bench)")
    ap.add_argument("--no-warmup", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.r < 1 or args.d < 0:
        ap.error("-r must be at least 1 and -d at least 0")
    L.llama_log_set(_log, None)
    L.llama_backend_init()
    start = rss_now()
    model, facts = load(args.m)
    for n_prompt, n_gen in ((args.p, 0), (0, args.n)):
        if n_prompt + n_gen > 0:
            row = bench_test(model, facts, args, n_prompt, n_gen)
            row["start_rss_bytes"] = start
            print(json.dumps(row), flush=True)
    L.llama_model_free(model)
    return 0


if __name__ == "__main__":
    sys.exit(main())
