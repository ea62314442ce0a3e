#!/usr/bin/env python3
"""Checks by hand that Hearth matches llama.cpp bit for bit on models of
other weight types than the two test models (the test suite does not need
llama.cpp). SmolLM2-135M Q4_1 is requantized with llama.cpp's own quantizer
to Q4_0, Q4_K_M, Q2_K, Q3_K_M, Q5_K_M, Q6_K, IQ4_NL and IQ4_XS (repacked,
tiled, vec_dot and tinyBLAS paths all get used); for each, greedy
continuations of a short prompt (fewer than 8 tokens), a longer one and a
chat turn must give the same tokens as llama.cpp, and the perplexity of a
slice of tests/data/engine/constitution.txt (n_ctx 128, 2 chunks) the same
value to six decimals.

    ~/.cache/hearth/ref-venv/bin/python scripts/refs/check_quant_variants.py [BUILD_DIR] [TYPE...]
"""
import ctypes
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import llama_cpp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from perplexity_golden import perplexity  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MODELS = Path(os.environ.get("HEARTH_MODELS_DIR", Path.home() / ".local/share/hearth/models"))
SOURCE = MODELS / "SmolLM2-135M-Instruct.Q4_1.gguf"
FTYPES = {"Q4_0": 2, "Q2_K": 10, "Q3_K_M": 12, "Q4_K_M": 15, "Q5_K_M": 17, "Q6_K": 18, "IQ4_NL": 25, "IQ4_XS": 30}
PROMPTS = ["The capital of France is",
           "Once upon a time, in a small village by the sea, there lived an old fisherman who",
           "<|im_start|>user\nWrite a haiku about autumn leaves.<|im_end|>\n<|im_start|>assistant\n"]
N_GEN = 32


def quantize(ftype: int, out: Path) -> None:
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = ftype
    params.allow_requantize = True
    params.nthread = 2
    rc = llama_cpp.llama_model_quantize(str(SOURCE).encode(), str(out).encode(), ctypes.byref(params))
    assert rc == 0, f"llama_model_quantize failed ({rc})"


def llama_greedy(llm: llama_cpp.Llama, text: str) -> list[int]:
    llm.reset()
    llm.eval(llm.tokenize(text.encode(), add_bos=True, special=True))
    out = []
    for _ in range(N_GEN):
        ptr = llama_cpp.llama_get_logits_ith(llm._ctx.ctx, -1)
        logits = np.ctypeslib.as_array(ctypes.cast(ptr, ctypes.POINTER(ctypes.c_float)), shape=(llm.n_vocab(),))
        tok = int(np.argmax(logits))
        out.append(tok)
        if llama_cpp.llama_vocab_is_eog(llm._model.vocab, tok):
            break
        llm.eval([tok])
    return out


def hearth(build: Path, *args: str) -> str:
    return subprocess.run([str(build / "app/cli/hearth"), *args], check=True, capture_output=True,
                          text=True).stdout


def main() -> int:
    build = Path(sys.argv[1]) if len(sys.argv) > 1 and not sys.argv[1] in FTYPES else ROOT / "build/dev"
    types = [a for a in sys.argv[1:] if a in FTYPES] or list(FTYPES)
    text = (ROOT / "tests/data/engine/constitution.txt").read_text(encoding="utf-8")[:4000]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        slice_file = Path(tmp) / "slice.txt"
        slice_file.write_text(text, encoding="utf-8")
        for name in types:
            path = Path(tmp) / f"smollm2-{name}.gguf"
            quantize(FTYPES[name], path)
            llm = llama_cpp.Llama(str(path), n_ctx=1024, n_batch=512, n_threads=2, logits_all=True, verbose=False)
            for prompt in PROMPTS:
                want = llama_greedy(llm, prompt)
                got = [int(t) for t in hearth(build, "run", "-m", str(path), "-p", prompt, "-n", str(len(want)),
                                              "--temp", "0", "--output", "ids", "-t", "2").split()]
                same = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
                ok = got == want
                failures += not ok
                print(f"{name:7s} greedy {'same' if ok else f'DIFFERS at token {same}'} ({len(want)} tokens): "
                      f"{prompt[:30]!r}")
            tokens = llm.tokenize(text.encode(), add_bos=True, special=False)
            add_bos = llm.metadata.get("tokenizer.ggml.add_bos_token", "false") == "true"
            want_ppl, chunks = perplexity(llm, tokens, 128, 2, llm.token_bos() if add_bos else None)
            out = hearth(build, "perplexity", "-m", str(path), "-f", str(slice_file), "-c", "128", "--chunks",
                         str(chunks), "-t", "2")
            got_ppl = float(re.findall(r"perplexity: ([0-9.]+)", out)[-1])
            ok = f"{got_ppl:.6f}" == f"{want_ppl:.6f}"
            failures += not ok
            print(f"{name:7s} perplexity {got_ppl:.6f} vs llama.cpp {want_ppl:.6f} {'same' if ok else 'DIFFERS'}")
            del llm
    print("all same" if failures == 0 else f"{failures} differences")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
