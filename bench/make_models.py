#!/usr/bin/env python3
"""Makes the model files the engine benchmarks run on (issue 7's set) and
caches them outside the repository, in ~/.cache/hearth/bench-models (or
$HEARTH_CACHE_DIR/bench-models). Idempotent: a file is only made when it is
missing or was made by a different recipe (a .json sidecar records it).

    ~/.cache/hearth/ref-venv/bin/python bench/make_models.py [--list] [--only NAME ...] [--threads N]

Prints "NAME PATH" per model. The set:

- smollm2-q4_1: SmolLM2-135M-Instruct.Q4_1.gguf as downloaded (used in
  place, from ~/.local/share/hearth/models or $HEARTH_MODELS_DIR).
- smollm2-{q4_0,q8_0,q4_k_m,f16}: that file requantized by llama.cpp
  (llama_model_quantize with allow_requantize: each tensor dequantized to
  f32, then quantized with llama.cpp's per-tensor type rules; SmolLM2's
  576-wide rows are not multiples of 256, so llama.cpp's Q4_K_M falls back
  to legacy quants for most of its tensors, as it would for anyone).
- llama1b-{q4_0,q4_k_m,q6_k,q8_0}: a synthetic model of Llama-3.2-1B's shape
  (16 layers, 2048 wide, 32 heads / 8 KV heads of 64, FFN 8192, vocab
  128256, tied output, llama3 rope factors), random weights from a fixed
  seed, written as F16 with the gguf package (llama1b-f16, kept) and
  quantized from it by llama_model_quantize. Its tokenizer is a byte-level
  BPE of Llama 3's layout (pre "llama-bpe", 128000 tokens made by 127744
  merges, 256 special tokens), so llama.cpp and Hearth both load it.

Needs the reference venv (llama-cpp-python, gguf, numpy): scripts/setup-reference.
"""
import argparse
import ctypes
import json
import os
import sys

import numpy as np

RECIPE_VERSION = 1  # bump when a recipe below changes: cached files are then remade


def cache_dir():
    base = os.environ.get("HEARTH_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "hearth")
    return os.path.join(base, "bench-models")


def models_dir():
    return os.environ.get("HEARTH_MODELS_DIR") or os.path.join(
        os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share"), "hearth", "models")


SMOLLM2 = "SmolLM2-135M-Instruct.Q4_1.gguf"
# name -> (file name in the cache, how it is made)
SMOLLM2_QUANTS = {"q4_0": "Q4_0", "q8_0": "Q8_0", "q4_k_m": "Q4_K_M", "f16": "F16"}
LLAMA1B_QUANTS = {"q4_0": "Q4_0", "q4_k_m": "Q4_K_M", "q6_k": "Q6_K", "q8_0": "Q8_0"}
FTYPES = {"F16": 1, "Q4_0": 2, "Q8_0": 7, "Q4_K_M": 15, "Q6_K": 18}  # llama_ftype

SUITES = {
    "issue7": ["smollm2-q4_1", "smollm2-q4_0", "smollm2-q8_0", "smollm2-q4_k_m", "smollm2-f16",
               "llama1b-q4_0", "llama1b-q4_k_m", "llama1b-q8_0"],
    # issue 15's AVX2 table adds the 1B shape in Q6_K
    "issue15": ["smollm2-q4_1", "smollm2-q4_0", "smollm2-q8_0", "smollm2-q4_k_m", "smollm2-f16",
                "llama1b-q4_0", "llama1b-q4_k_m", "llama1b-q6_k", "llama1b-q8_0"],
}


def all_names():
    return (["smollm2-q4_1"] + [f"smollm2-{q}" for q in SMOLLM2_QUANTS] + ["llama1b-f16"] +
            [f"llama1b-{q}" for q in LLAMA1B_QUANTS])


def path_of(name):
    if name == "smollm2-q4_1":
        return os.path.join(models_dir(), SMOLLM2)
    family, quant = name.split("-", 1)
    if family == "smollm2":
        return os.path.join(cache_dir(), f"SmolLM2-135M-Instruct.{SMOLLM2_QUANTS[quant]}.gguf")
    label = "F16" if quant == "f16" else LLAMA1B_QUANTS[quant]
    return os.path.join(cache_dir(), f"synthetic-llama-3.2-1b-shape.{label}.gguf")


def recipe_of(name):
    """What a cached file is made from; a file made otherwise is remade."""
    family, quant = name.split("-", 1)
    if family == "smollm2":
        src = path_of("smollm2-q4_1")
        st = os.stat(src)
        return {"version": RECIPE_VERSION, "from": os.path.basename(src), "source_size": st.st_size,
                "how": f"llama_model_quantize(allow_requantize) to {SMOLLM2_QUANTS[quant]}"}
    if quant == "f16":
        return {"version": RECIPE_VERSION, "how": "gguf writer, random weights", "seed": SEED}
    return {"version": RECIPE_VERSION, "from": os.path.basename(path_of("llama1b-f16")),
            "how": f"llama_model_quantize to {LLAMA1B_QUANTS[quant]}"}


def is_current(name):
    path = path_of(name)
    if name == "smollm2-q4_1":
        return os.path.exists(path)
    try:
        with open(path + ".json") as f:
            return os.path.exists(path) and json.load(f) == recipe_of(name)
    except (OSError, ValueError):
        return False


def quantize(src, dst, label, threads):
    import llama_cpp as L

    @L.llama_log_callback
    def quiet(level, text, user_data):
        pass

    L.llama_log_set(quiet, None)
    params = L.llama_model_quantize_default_params()
    params.nthread = threads
    params.ftype = FTYPES[label]
    params.allow_requantize = True
    tmp = dst + ".part"
    if L.llama_model_quantize(src.encode(), tmp.encode(), ctypes.byref(params)) != 0:
        raise RuntimeError(f"llama_model_quantize failed on {src} -> {label}")
    os.replace(tmp, dst)


def make(name, threads):
    path = path_of(name)
    if name == "smollm2-q4_1":
        if not os.path.exists(path):
            raise SystemExit(f"missing {path}: run scripts/setup to fetch the models")
        return
    os.makedirs(cache_dir(), exist_ok=True)
    family, quant = name.split("-", 1)
    print(f"making {name} ...", file=sys.stderr, flush=True)
    if family == "smollm2":
        make("smollm2-q4_1", threads)
        quantize(path_of("smollm2-q4_1"), path, SMOLLM2_QUANTS[quant], threads)
    elif quant == "f16":
        write_llama1b_f16(path + ".part")
        os.replace(path + ".part", path)
    else:
        if not is_current("llama1b-f16"):
            make("llama1b-f16", threads)
        quantize(path_of("llama1b-f16"), path, LLAMA1B_QUANTS[quant], threads)
    with open(path + ".json", "w") as f:
        json.dump(recipe_of(name), f, indent=1)
        f.write("\n")


def ensure(names, threads=2):
    """Makes what is missing; returns {name: path}."""
    for name in names:
        if not is_current(name):
            make(name, threads)
    return {name: path_of(name) for name in names}


# --- the synthetic Llama-3.2-1B-shaped model --------------------------------

SEED = 20241
N_VOCAB, N_EMBD, N_LAYER, N_HEAD, N_HEAD_KV, N_FF = 128256, 2048, 16, 32, 8, 8192
HEAD_DIM = N_EMBD // N_HEAD
N_SPECIAL = 256


def bytes_to_unicode():
    """GPT-2's byte-level alphabet: printable bytes stand for themselves, the
    others are moved to code points from 256 up, so no token holds a space."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAC + 1)) + list(range(0xAE, 0xFF + 1))
    chars, extra = {}, 0
    for b in range(256):
        if b in keep:
            chars[b] = chr(b)
        else:
            chars[b] = chr(256 + extra)
            extra += 1
    return [chars[b] for b in range(256)]


def llama3_vocab():
    """128000 byte-level BPE tokens (256 bytes, every pair of them, then
    triples) with the merges that make them, and Llama 3's 256 specials."""
    base = bytes_to_unicode()
    tokens = list(base)
    merges = []
    for a in base:
        for b in base:
            tokens.append(a + b)
            merges.append(f"{a} {b}")
    n_triples = N_VOCAB - N_SPECIAL - len(tokens)
    pairs = tokens[256:256 + 65536]
    for i in range(n_triples):
        pair, c = pairs[i // 256], base[i % 256]
        tokens.append(pair + c)
        merges.append(f"{pair} {c}")
    named = {0: "<|begin_of_text|>", 1: "<|end_of_text|>", 4: "<|finetune_right_pad_id|>",
             6: "<|start_header_id|>", 7: "<|end_header_id|>", 8: "<|eom_id|>", 9: "<|eot_id|>",
             10: "<|python_tag|>"}
    reserved = 0
    for i in range(N_SPECIAL):
        if i in named:
            tokens.append(named[i])
        else:
            tokens.append(f"<|reserved_special_token_{reserved}|>")
            reserved += 1
    types = [1] * (N_VOCAB - N_SPECIAL) + [3] * N_SPECIAL  # normal, control
    return tokens, types, merges


def llama3_rope_factors():
    """Llama 3.1/3.2's rope scaling (factor 32, low 1, high 4, original
    context 8192) as the per-dimension divisors llama.cpp reads from
    rope_freqs.weight."""
    base, factor, low, high, orig = 500000.0, 32.0, 1.0, 4.0, 8192
    out = []
    for i in range(0, HEAD_DIM, 2):
        freq = 1.0 / base ** (i / HEAD_DIM)
        wavelen = 2 * np.pi / freq
        if wavelen < orig / high:
            out.append(1.0)
        elif wavelen > orig / low:
            out.append(factor)
        else:
            smooth = (orig / wavelen - low) / (high - low)
            out.append(1.0 / ((1 - smooth) / factor + smooth))
    return np.array(out, dtype=np.float32)


def llama1b_tensors():
    """(name, numpy shape, kind) in file order; numpy shape is (rows, row length)."""
    kv = N_HEAD_KV * HEAD_DIM
    yield "token_embd.weight", (N_VOCAB, N_EMBD), "embd"
    yield "rope_freqs.weight", (HEAD_DIM // 2,), "rope"
    for i in range(N_LAYER):
        b = f"blk.{i}."
        yield b + "attn_norm.weight", (N_EMBD,), "norm"
        yield b + "attn_q.weight", (N_EMBD, N_EMBD), "matrix"
        yield b + "attn_k.weight", (kv, N_EMBD), "matrix"
        yield b + "attn_v.weight", (kv, N_EMBD), "matrix"
        yield b + "attn_output.weight", (N_EMBD, N_EMBD), "matrix"
        yield b + "ffn_norm.weight", (N_EMBD,), "norm"
        yield b + "ffn_gate.weight", (N_FF, N_EMBD), "matrix"
        yield b + "ffn_up.weight", (N_FF, N_EMBD), "matrix"
        yield b + "ffn_down.weight", (N_EMBD, N_FF), "matrix"
    yield "output_norm.weight", (N_EMBD,), "norm"


def tensor_data(rng, shape, kind):
    if kind == "rope":
        return llama3_rope_factors()
    if kind == "norm":
        return (1.0 + 0.05 * rng.standard_normal(shape, dtype=np.float32)).astype(np.float32)
    scale = 0.02 if kind == "embd" else 1.0 / np.sqrt(shape[1])
    out = np.empty(shape, dtype=np.float16)
    for r in range(0, shape[0], 4096):  # bounded f32 temporaries
        out[r:r + 4096] = rng.standard_normal((min(4096, shape[0] - r), shape[1]), dtype=np.float32) * scale
    return out


def write_llama1b_f16(path):
    import gguf

    w = gguf.GGUFWriter(path, "llama")
    w.add_name("synthetic Llama-3.2-1B shape (random weights)")
    w.add_context_length(131072)
    w.add_embedding_length(N_EMBD)
    w.add_block_count(N_LAYER)
    w.add_feed_forward_length(N_FF)
    w.add_head_count(N_HEAD)
    w.add_head_count_kv(N_HEAD_KV)
    w.add_key_length(HEAD_DIM)
    w.add_value_length(HEAD_DIM)
    w.add_rope_dimension_count(HEAD_DIM)
    w.add_rope_freq_base(500000.0)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_vocab_size(N_VOCAB)
    w.add_file_type(FTYPES["F16"])
    tokens, types, merges = llama3_vocab()
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("llama-bpe")
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_merges(merges)
    w.add_bos_token_id(128000)
    w.add_eos_token_id(128009)
    w.add_add_bos_token(True)
    for name, shape, kind in llama1b_tensors():
        dtype = np.float16 if kind in ("embd", "matrix") else np.float32
        w.add_tensor_info(name, shape, np.dtype(dtype), int(np.prod(shape)) * np.dtype(dtype).itemsize)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_ti_data_to_file()
    rng = np.random.default_rng(SEED)
    for name, shape, kind in llama1b_tensors():
        w.write_tensor_data(tensor_data(rng, shape, kind))
    w.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", help="names (default: all); see --list")
    ap.add_argument("--suite", choices=sorted(SUITES), help="the models of a suite")
    ap.add_argument("--list", action="store_true", help="print the names and paths, make nothing")
    ap.add_argument("--threads", type=int, default=2, help="threads for quantizing (default 2)")
    args = ap.parse_args()
    names = args.only or (SUITES[args.suite] if args.suite else all_names())
    unknown = [n for n in names if n not in all_names()]
    if unknown:
        ap.error(f"unknown model(s) {unknown}; known: {all_names()}")
    paths = {n: path_of(n) for n in names} if args.list else ensure(names, args.threads)
    for name, path in paths.items():
        state = "" if not args.list else ("  (ready)" if is_current(name) else "  (to make)")
        print(f"{name} {path}{state}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
