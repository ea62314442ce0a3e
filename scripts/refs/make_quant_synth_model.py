#!/usr/bin/env python3
"""Writes the synthetic Llama-3.2-1B-shaped F16 GGUF that the quantize golden
files (make_quantize_golden.py) and test_quantize_golden use.

Every tensor has a Llama 3.2 1B tensor's shape: hidden 2048, FFN 8192,
32 query heads of 64 and 8 KV heads (GQA 4), the full vocabulary of 128256
and tied embeddings (token_embd.weight is also the output, so the mixes give
it the output tensor's type). Only the layer count is smaller: 4 instead of
16, to keep the F16 at ~1 GB and the golden run and test within minutes on
a loaded 2-core machine. The layer-dependent rules still see every case:
use_more_bits(i, 4) bumps layers 2 and 3 and leaves 0 and 1 (as it does
for a quarter of the real model's layers), and i < n/8 holds for none.

Values come from an integer hash (no numpy RNG, whose streams may change
between versions), shaped like weights: roughly normal, each row at its own
scale, a few outliers. Each element depends only on (tensor seed, row,
column), so rows are made in chunks (bounded memory) and the file is the
same bytes on every run and machine:

    make_quant_synth_model.py OUT.gguf

Needs numpy and the `gguf` package (scripts/requirements.txt).
"""
import sys

import numpy as np
import gguf

EMBD = 2048
FF = 8192
HEADS = 32
KV_HEADS = 8
HEAD_DIM = 64
LAYERS = 4
VOCAB = 128256
CHUNK = 1 << 22  # elements made at a time
CTX = 8192


def uniform(first, n, seed):
    """n floats in [0, 1) from a splitmix64-style hash of (first + i, seed)."""
    with np.errstate(over="ignore"):
        z = np.arange(first, first + n, dtype=np.uint64) + np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(40)).astype(np.float64) / float(1 << 24)


def matrix(n_in, n_out, seed):
    # ggml shape [n_in, n_out] is a numpy array (n_out, n_in).
    out = np.empty((n_out, n_in), dtype=np.float16)
    row_scale = 0.5 + 1.5 * uniform(0, n_out, seed + 7919)
    rows = max(1, CHUNK // n_in)
    for r0 in range(0, n_out, rows):
        r1 = min(n_out, r0 + rows)
        first, n = r0 * n_in, (r1 - r0) * n_in
        # Irwin-Hall of three hashes: bell-shaped, unit-ish variance
        x = uniform(first, n, seed) + uniform(first, n, seed + 1000003) + uniform(first, n, seed + 2000003)
        x = ((x - 1.5) * 2.0).reshape(r1 - r0, n_in) * row_scale[r0:r1, None] / np.sqrt(n_in)
        spikes = (uniform(first, n, seed + 104729) < 1e-4).reshape(r1 - r0, n_in)
        x[spikes] *= 12.0
        out[r0:r1] = x.astype(np.float16)
    return out


def norm(n, seed):
    return (1.0 + 0.2 * (uniform(0, n, seed) - 0.5)).astype(np.float32)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    w = gguf.GGUFWriter(sys.argv[1], "llama")
    w.add_name("synthetic Llama-3.2-1B shape")
    w.add_context_length(CTX)
    w.add_embedding_length(EMBD)
    w.add_block_count(LAYERS)
    w.add_feed_forward_length(FF)
    w.add_head_count(HEADS)
    w.add_head_count_kv(KV_HEADS)
    w.add_rope_dimension_count(HEAD_DIM)
    w.add_rope_freq_base(500000.0)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_vocab_size(VOCAB)
    w.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    tokens = ["<unk>", "<s>", "</s>", "<0x0A>"] + [f"t{i}" for i in range(4, VOCAB)]
    w.add_tokenizer_model("llama")
    w.add_token_list(tokens)
    w.add_token_scores([0.0] * VOCAB)
    w.add_token_types([2, 3, 3, 6] + [1] * (VOCAB - 4))
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    seed = 1
    kv = KV_HEADS * HEAD_DIM
    w.add_tensor("token_embd.weight", matrix(EMBD, VOCAB, seed))
    w.add_tensor("output_norm.weight", norm(EMBD, seed + 1))
    for i in range(LAYERS):
        seed = 100 * (i + 1)
        b = f"blk.{i}."
        w.add_tensor(b + "attn_norm.weight", norm(EMBD, seed))
        w.add_tensor(b + "attn_q.weight", matrix(EMBD, EMBD, seed + 1))
        w.add_tensor(b + "attn_k.weight", matrix(EMBD, kv, seed + 2))
        w.add_tensor(b + "attn_v.weight", matrix(EMBD, kv, seed + 3))
        w.add_tensor(b + "attn_output.weight", matrix(EMBD, EMBD, seed + 4))
        w.add_tensor(b + "ffn_norm.weight", norm(EMBD, seed + 5))
        w.add_tensor(b + "ffn_gate.weight", matrix(EMBD, FF, seed + 6))
        w.add_tensor(b + "ffn_up.weight", matrix(EMBD, FF, seed + 7))
        w.add_tensor(b + "ffn_down.weight", matrix(FF, EMBD, seed + 8))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    main()
