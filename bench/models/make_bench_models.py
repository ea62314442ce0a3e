#!/usr/bin/env python3
"""Writes the models the CPU speed comparisons run on (issue 7):

- llama1b-{q4_0,q4_k_m,q8_0}.gguf: random weights (fixed seed) in the shape
  of Llama-3.2-1B (16 layers, 2048 wide, 32 heads / 8 KV heads, FFN 8192,
  vocab 128256, tied output), written as F16 with the `gguf` package and
  quantized by llama.cpp itself;
- smollm2-{q4_0,q8_0,q4_k_m,f16}.gguf: SmolLM2-135M-Instruct re-quantized
  from the original Q4_1 file by llama.cpp.

    make_bench_models.py OUT_DIR [--only NAME ...]

Needs the reference venv (llama-cpp-python, scripts/setup-reference) for
llama.cpp's quantizer; about 3 GB of disk for the 1B intermediates.
"""
import argparse
import ctypes
import os
import sys

import numpy as np
import gguf

LLAMA1B = dict(layers=16, embd=2048, heads=32, kv_heads=8, ff=8192, vocab=128256, ctx=4096)
FTYPES = {"q4_0": 2, "q8_0": 7, "q4_k_m": 15, "f16": 1}  # llama_ftype values


def write_llama1b_f16(path):
    p = LLAMA1B
    rng = np.random.default_rng(1234)
    head_dim = p["embd"] // p["heads"]
    w = gguf.GGUFWriter(path, "llama")
    w.add_name("synthetic-llama-1b-shape")
    w.add_context_length(p["ctx"])
    w.add_embedding_length(p["embd"])
    w.add_block_count(p["layers"])
    w.add_feed_forward_length(p["ff"])
    w.add_head_count(p["heads"])
    w.add_head_count_kv(p["kv_heads"])
    w.add_rope_dimension_count(head_dim)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_rope_freq_base(500000.0)
    w.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    tokens = ["<unk>", "<s>", "</s>", "<0x0A>"] + [f"t{i}" for i in range(4, p["vocab"])]
    w.add_tokenizer_model("llama")
    w.add_token_list(tokens)
    w.add_token_scores([0.0] * p["vocab"])
    w.add_token_types([2, 3, 3, 6] + [1] * (p["vocab"] - 4))
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_unk_token_id(0)

    def mat(n_in, n_out):
        return (rng.standard_normal((n_out, n_in), dtype=np.float32) / np.sqrt(n_in)).astype(np.float16)

    def norm(n):
        return (1.0 + 0.1 * rng.standard_normal(n)).astype(np.float32)

    e, kv = p["embd"], p["kv_heads"] * head_dim
    w.add_tensor("token_embd.weight", mat(e, p["vocab"]))
    w.add_tensor("output_norm.weight", norm(e))
    for i in range(p["layers"]):
        b = f"blk.{i}."
        w.add_tensor(b + "attn_norm.weight", norm(e))
        w.add_tensor(b + "attn_q.weight", mat(e, e))
        w.add_tensor(b + "attn_k.weight", mat(e, kv))
        w.add_tensor(b + "attn_v.weight", mat(e, kv))
        w.add_tensor(b + "attn_output.weight", mat(e, e))
        w.add_tensor(b + "ffn_norm.weight", norm(e))
        w.add_tensor(b + "ffn_gate.weight", mat(e, p["ff"]))
        w.add_tensor(b + "ffn_up.weight", mat(e, p["ff"]))
        w.add_tensor(b + "ffn_down.weight", mat(p["ff"], e))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def quantize(src, dst, ftype):
    import llama_cpp

    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = ftype
    params.allow_requantize = True
    params.nthread = 2
    rc = llama_cpp.llama_model_quantize(src.encode(), dst.encode(), ctypes.byref(params))
    if rc != 0:
        raise RuntimeError(f"llama_model_quantize({src} -> {dst}) failed: {rc}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir")
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--smollm2", default=os.path.expanduser(
        "~/.local/share/hearth/models/SmolLM2-135M-Instruct.Q4_1.gguf"))
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    wanted = lambda name: not args.only or name in args.only  # noqa: E731

    for q in ("q4_0", "q8_0", "q4_k_m", "f16"):
        name = f"smollm2-{q}"
        out = os.path.join(args.out_dir, name + ".gguf")
        if wanted(name) and not os.path.exists(out):
            quantize(args.smollm2, out, FTYPES[q])

    todo = [q for q in ("q4_0", "q4_k_m", "q8_0") if wanted(f"llama1b-{q}")
            and not os.path.exists(os.path.join(args.out_dir, f"llama1b-{q}.gguf"))]
    if todo:
        f16 = os.path.join(args.out_dir, "llama1b-f16.gguf")
        if not os.path.exists(f16):
            write_llama1b_f16(f16)
        for q in todo:
            quantize(f16, os.path.join(args.out_dir, f"llama1b-{q}.gguf"), FTYPES[q])
        os.remove(f16)
    return 0


if __name__ == "__main__":
    sys.exit(main())
