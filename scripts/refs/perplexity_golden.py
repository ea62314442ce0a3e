#!/usr/bin/env python3
"""Regenerates tests/data/engine/perplexity_*.json: llama.cpp's perplexity
of tests/data/engine/constitution.txt on the two real models, computed the
way llama-perplexity does (chunks of n_ctx from an empty cache, BOS first
when the model adds one, the second half of each chunk scored).

Run with the reference venv (scripts/setup-reference):
    ~/.cache/hearth/ref-venv/bin/python scripts/refs/perplexity_golden.py

Stores the text's token ids (llama.cpp's tokenizer: add_special=True,
parse_special=False, as llama-perplexity), and the perplexity for the short
slice the test runs (n_ctx 128, a few chunks) and for the whole text at
n_ctx 512.
"""
import json
import os
import sys

import numpy as np
from llama_cpp import Llama, __version__ as llama_cpp_version

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "tests", "data", "engine")
MODELS_DIR = os.environ.get("HEARTH_MODELS_DIR", os.path.expanduser("~/.local/share/hearth/models"))
MODELS = [
    ("smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf", 4),
    ("gemma3", "gemma-3-270m-q4_k_m.gguf", 2),
]


def perplexity(llm, tokens, n_ctx, max_chunks, bos):
    chunks = len(tokens) // n_ctx
    if max_chunks is not None:
        chunks = min(chunks, max_chunks)
    first = n_ctx // 2
    nll, count = 0.0, 0
    for c in range(chunks):
        batch = list(tokens[c * n_ctx:(c + 1) * n_ctx])
        if bos is not None:
            batch[0] = bos
        llm.reset()
        llm.eval(batch)
        logits = np.array(llm.scores[:n_ctx], dtype=np.float32)
        for j in range(first, n_ctx - 1):
            row = logits[j]
            m = row.max()
            s = np.exp(row - m, dtype=np.float32).astype(np.float64).sum()
            nll -= float(row[tokens[c * n_ctx + j + 1]] - m) - np.log(s)
            count += 1
    return float(np.exp(nll / count)), chunks


def main():
    with open(os.path.join(OUT, "constitution.txt"), encoding="utf-8") as f:
        text = f.read()
    for short, file, slice_chunks in MODELS:
        llm = Llama(model_path=os.path.join(MODELS_DIR, file), n_ctx=512, n_batch=512, n_threads=2,
                    logits_all=True, verbose=False)
        tokens = llm.tokenize(text.encode("utf-8"), add_bos=True, special=False)
        add_bos = llm.metadata.get("tokenizer.ggml.add_bos_token", "false") == "true"
        bos = llm.token_bos() if add_bos else None
        ppl_slice, n_slice = perplexity(llm, tokens, 128, slice_chunks, bos)
        ppl_full, n_full = perplexity(llm, tokens, 512, None, bos)
        doc = {"model": file, "llama_cpp_python": llama_cpp_version, "bos": bos if bos is not None else -1,
               "slice": {"n_ctx": 128, "chunks": n_slice, "perplexity": ppl_slice},
               "full": {"n_ctx": 512, "chunks": n_full, "perplexity": ppl_full},
               "tokens": tokens}
        print(f"{short}: {len(tokens)} tokens; slice ppl {ppl_slice:.4f} ({n_slice} chunks of 128); "
              f"full ppl {ppl_full:.4f} ({n_full} chunks of 512)")
        with open(os.path.join(OUT, f"perplexity_{short}.json"), "w") as f:
            json.dump(doc, f)
            f.write("\n")
        del llm
    return 0


if __name__ == "__main__":
    sys.exit(main())
