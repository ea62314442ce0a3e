#!/usr/bin/env python3
"""Writes small synthetic GGUF models (random weights, fixed seed) of each
architecture family the engine supports, in F32 and Q8_0.

The same bytes come out on every run, so logits that llama.cpp computed on
them once (synthetic_logits.py) stay valid references: the test suite runs
this script at test time instead of committing the model files.

    make_synthetic_models.py OUT_DIR [--only NAME ...]

Needs numpy and the `gguf` package (scripts/requirements.txt).
"""
import argparse
import os
import sys

import numpy as np
import gguf

VOCAB = 128
EMBD = 64
HEADS = 4
KV_HEADS = 2
HEAD_DIM = 16
FF = 128
CTX = 256

# name -> (architecture, layers, extra settings)
FAMILIES = {
    "llama": ("llama", 2, {"rope_freqs": True}),
    "qwen2": ("qwen2", 2, {"bias": True, "rope_linear": 2.0}),
    "qwen3": ("qwen3", 2, {"qk_norm": True, "yarn": 4.0}),
    "gemma2": ("gemma2", 3, {"window": 6}),
    "gemma3": ("gemma3", 7, {"window": 6, "qk_norm": True}),
    "phi3": ("phi3", 2, {"fused": True}),
}
TYPES = ("f32", "q8_0")


def rng_for(name):
    # One stream per family so that adding a family changes no other model.
    seed = sum(ord(c) * 31 ** i for i, c in enumerate(name)) % (2**31)
    return np.random.RandomState(seed)


def matrix(rng, n_in, n_out):
    # ggml shape [n_in, n_out] is a numpy array (n_out, n_in).
    return (rng.standard_normal((n_out, n_in)) / np.sqrt(n_in)).astype(np.float32)


def norm_weight(rng, n):
    return (1.0 + 0.1 * rng.standard_normal(n)).astype(np.float32)


def add_tokenizer(w):
    # llama.cpp wants a newline byte token and, for some families, the
    # family's end-of-turn marker to exist.
    tokens = ["<unk>", "<s>", "</s>", "<0x0A>", "<|end|>", "<|endoftext|>"]
    tokens += [f"t{i}" for i in range(len(tokens), VOCAB)]
    w.add_tokenizer_model("llama")
    w.add_token_list(tokens)
    w.add_token_scores([0.0] * VOCAB)
    w.add_token_types([2, 3, 3, 6, 3, 3] + [1] * (VOCAB - 6))
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_unk_token_id(0)
    w.add_add_bos_token(False)


def add_tensor(w, name, data, qtype):
    if qtype == "q8_0" and data.ndim == 2 and data.shape[1] % 32 == 0:
        q = gguf.quants.quantize(data, gguf.GGMLQuantizationType.Q8_0)
        w.add_tensor(name, q, raw_dtype=gguf.GGMLQuantizationType.Q8_0)
    else:
        w.add_tensor(name, data)


def write_model(path, name, qtype):
    arch, layers, opts = FAMILIES[name]
    rng = rng_for(name)
    w = gguf.GGUFWriter(path, arch)
    w.add_name(f"synthetic-{name}")
    w.add_context_length(CTX)
    w.add_embedding_length(EMBD)
    w.add_block_count(layers)
    w.add_feed_forward_length(FF)
    w.add_head_count(HEADS)
    w.add_head_count_kv(KV_HEADS)
    w.add_key_length(HEAD_DIM)
    w.add_value_length(HEAD_DIM)
    w.add_rope_dimension_count(HEAD_DIM)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_rope_freq_base(10000.0)
    w.add_file_type(gguf.LlamaFileType.ALL_F32 if qtype == "f32" else gguf.LlamaFileType.MOSTLY_Q8_0)
    if "window" in opts:
        w.add_sliding_window(opts["window"])
    if "rope_linear" in opts:
        w.add_rope_scaling_type(gguf.RopeScalingType.LINEAR)
        w.add_rope_scaling_factor(opts["rope_linear"])
    if "yarn" in opts:
        w.add_rope_scaling_type(gguf.RopeScalingType.YARN)
        w.add_rope_scaling_factor(opts["yarn"])
        w.add_rope_scaling_orig_ctx_len(CTX // 4)
    add_tokenizer(w)

    add_tensor(w, "token_embd.weight", rng.standard_normal((VOCAB, EMBD)).astype(np.float32), qtype)
    add_tensor(w, "output_norm.weight", norm_weight(rng, EMBD), qtype)
    if name in ("llama", "qwen2", "phi3"):  # the others tie the output to the embedding
        add_tensor(w, "output.weight", matrix(rng, EMBD, VOCAB), qtype)
    if opts.get("rope_freqs"):
        add_tensor(w, "rope_freqs.weight", (1.0 + rng.uniform(0, 3, HEAD_DIM // 2)).astype(np.float32), qtype)
    q_out, kv_out = HEADS * HEAD_DIM, KV_HEADS * HEAD_DIM
    for i in range(layers):
        b = f"blk.{i}."
        add_tensor(w, b + "attn_norm.weight", norm_weight(rng, EMBD), qtype)
        if opts.get("fused"):
            add_tensor(w, b + "attn_qkv.weight", matrix(rng, EMBD, q_out + 2 * kv_out), qtype)
        else:
            add_tensor(w, b + "attn_q.weight", matrix(rng, EMBD, q_out), qtype)
            add_tensor(w, b + "attn_k.weight", matrix(rng, EMBD, kv_out), qtype)
            add_tensor(w, b + "attn_v.weight", matrix(rng, EMBD, kv_out), qtype)
        if opts.get("bias"):
            add_tensor(w, b + "attn_q.bias", (0.1 * rng.standard_normal(q_out)).astype(np.float32), qtype)
            add_tensor(w, b + "attn_k.bias", (0.1 * rng.standard_normal(kv_out)).astype(np.float32), qtype)
            add_tensor(w, b + "attn_v.bias", (0.1 * rng.standard_normal(kv_out)).astype(np.float32), qtype)
        if opts.get("qk_norm"):
            add_tensor(w, b + "attn_q_norm.weight", norm_weight(rng, HEAD_DIM), qtype)
            add_tensor(w, b + "attn_k_norm.weight", norm_weight(rng, HEAD_DIM), qtype)
        add_tensor(w, b + "attn_output.weight", matrix(rng, q_out, EMBD), qtype)
        if arch.startswith("gemma"):
            add_tensor(w, b + "post_attention_norm.weight", norm_weight(rng, EMBD), qtype)
            add_tensor(w, b + "post_ffw_norm.weight", norm_weight(rng, EMBD), qtype)
        add_tensor(w, b + "ffn_norm.weight", norm_weight(rng, EMBD), qtype)
        if opts.get("fused"):
            add_tensor(w, b + "ffn_up.weight", matrix(rng, EMBD, 2 * FF), qtype)
        else:
            add_tensor(w, b + "ffn_gate.weight", matrix(rng, EMBD, FF), qtype)
            add_tensor(w, b + "ffn_up.weight", matrix(rng, EMBD, FF), qtype)
        add_tensor(w, b + "ffn_down.weight", matrix(rng, FF, EMBD), qtype)

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def model_names():
    return [f"{name}-{qtype}" for name in FAMILIES for qtype in TYPES]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir")
    ap.add_argument("--only", nargs="*", default=None)
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    for full in model_names():
        if args.only and full not in args.only:
            continue
        name, qtype = full.rsplit("-", 1)
        write_model(os.path.join(args.out_dir, full + ".gguf"), name, qtype)
    return 0


if __name__ == "__main__":
    sys.exit(main())
