#!/usr/bin/env python3
"""Regenerates tests/data/engine/greedy_*.json: llama.cpp's greedy
continuations (64 tokens, stopping early at an end-of-generation token) of a
fixed set of prompts on the two real models.

Run with the reference venv (scripts/setup-reference):
    ~/.cache/hearth/ref-venv/bin/python scripts/refs/greedy_golden.py

Each entry keeps the prompt text, how it was tokenized (special tokens
parsed, BOS added when the model's metadata asks, as llama.cpp's CLI does),
the prompt token ids and the output ids, so the engine test needs no
tokenizer; a second test checks Hearth's tokenizer against prompt_ids.
"""
import ctypes
import json
import os
import sys

import jinja2
import numpy as np
from llama_cpp import Llama, __version__ as llama_cpp_version
import llama_cpp

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "tests", "data", "engine")
MODELS_DIR = os.environ.get("HEARTH_MODELS_DIR", os.path.expanduser("~/.local/share/hearth/models"))
N_GEN = 64

with open(os.path.join(OUT, "constitution.txt"), encoding="utf-8") as f:
    LONG_TEXT = f.read()[:2600]

RAW = [
    ("en-capital", "The capital of France is"),
    ("en-story", "Once upon a time, in a small village by the sea,"),
    ("en-recipe", "Here is a recipe for chocolate chip cookies.\n\nIngredients:\n"),
    ("en-numbers", "1, 1, 2, 3, 5, 8, 13, 21,"),
    ("zh-capital", "中国的首都是"),
    ("zh-story", "从前有一座山，山里有一座庙，"),
    ("code-python", 'def fibonacci(n):\n    """Return the n-th Fibonacci number."""\n'),
    ("code-c", "#include <stdio.h>\n\nint main(void) {\n"),
    ("code-js", "// Sort an array of numbers in ascending order\nfunction sortNumbers(arr) {"),
    ("en-long", LONG_TEXT),
]
CHAT = [
    ("chat-water", "What is the boiling point of water at sea level?"),
    ("chat-haiku", "Write a haiku about autumn leaves."),
    ("chat-nn", "Explain what a neural network is in two sentences."),
    ("chat-zh", "你好！请用中文介绍一下你自己。"),
]

MODELS = [
    ("smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"),
    ("gemma3", "gemma-3-270m-q4_k_m.gguf"),
]


def chat_prompt(llm, message):
    template = llm.metadata.get("tokenizer.chat_template")
    if template:
        env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True)
        return env.from_string(template).render(
            messages=[{"role": "user", "content": message}], add_generation_prompt=True,
            bos_token="", eos_token="")
    # Gemma 3's turn format (the 270M file carries no template).
    return f"<start_of_turn>user\n{message}<end_of_turn>\n<start_of_turn>model\n"


def greedy(llm, ids):
    llm.reset()
    llm.eval(ids)
    vocab = llm._model.vocab
    n_vocab = llm.n_vocab()
    out = []
    for _ in range(N_GEN):
        ptr = llama_cpp.llama_get_logits_ith(llm._ctx.ctx, -1)
        logits = np.ctypeslib.as_array(ctypes.cast(ptr, ctypes.POINTER(ctypes.c_float)), shape=(n_vocab,))
        tok = int(np.argmax(logits))
        out.append(tok)
        if llama_cpp.llama_vocab_is_eog(vocab, tok):
            break
        llm.eval([tok])
    return out


def main():
    for short, file in MODELS:
        path = os.path.join(MODELS_DIR, file)
        llm = Llama(model_path=path, n_ctx=1024, n_batch=512, n_threads=2, verbose=False)
        entries = []
        for name, text in RAW + [(n, None) for n, _ in CHAT]:
            kind = "raw"
            if text is None:
                kind = "chat"
                text = chat_prompt(llm, dict(CHAT)[name])
            ids = llm.tokenize(text.encode("utf-8"), add_bos=True, special=True)
            out = greedy(llm, ids)
            entries.append({"name": name, "kind": kind, "text": text, "prompt_ids": ids, "output_ids": out})
            print(f"{short} {name}: {len(ids)} prompt tokens -> {len(out)}: "
                  f"{llm.detokenize(out).decode('utf-8', 'replace')[:60]!r}")
        doc = {"model": file, "llama_cpp_python": llama_cpp_version, "n_gen": N_GEN,
               "tokenize": "add_special=True, parse_special=True", "prompts": entries}
        with open(os.path.join(OUT, f"greedy_{short}.json"), "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False, indent=1)
            f.write("\n")
        del llm
    return 0


if __name__ == "__main__":
    sys.exit(main())
