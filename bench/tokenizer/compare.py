#!/usr/bin/env python3
"""Tokenization throughput on one core, Hearth next to llama.cpp, on the same
texts and models. Run with the reference interpreter after building:

  ~/.cache/hearth/ref-venv/bin/python bench/tokenizer/compare.py [--build build/release] [--runs 5]

Texts: "english", the licence texts in /usr/share/common-licenses (about 100
pages of prose, when present), and "mixed", the tokenizer test corpus (many
scripts, code, emoji, odd white space). Both are encoded as one string,
without special tokens; the best of --runs timings is reported. The ids of
both implementations are compared too.
"""

import argparse
import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "refs"))

import tokenizer_corpus  # noqa: E402

LICENSES = ["GPL-1", "GPL-2", "GPL-3", "LGPL-2", "LGPL-2.1", "LGPL-3", "Apache-2.0", "Artistic", "BSD", "CC0-1.0",
            "GFDL-1.2", "GFDL-1.3", "MPL-1.1", "MPL-2.0"]


def texts():
    out = {}
    folder = pathlib.Path("/usr/share/common-licenses")
    english = b"".join((folder / n).read_bytes() for n in LICENSES if (folder / n).is_file())
    if english:
        out["english"] = english
    out["mixed"] = b"\n".join(tokenizer_corpus.cases())
    return out


def models():
    xdg = os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share"))
    folder = pathlib.Path(os.environ.get("HEARTH_MODELS_DIR", pathlib.Path(xdg) / "hearth" / "models"))
    return {"SmolLM2-135M (BPE)": folder / "SmolLM2-135M-Instruct.Q4_1.gguf",
            "gemma-3-270m (SPM)": folder / "gemma-3-270m-q4_k_m.gguf"}


def llama_cpp_rate(model, text, runs):
    import llama_cpp

    llm = llama_cpp.Llama(model_path=str(model), vocab_only=True, verbose=False)
    best = 1e30
    ids = None
    for _ in range(runs):
        t0 = time.perf_counter()
        ids = llm.tokenize(text, add_bos=False, special=False)
        best = min(best, time.perf_counter() - t0)
    return len(text) / best / 1e6, ids


def hearth_rate(build, model, path, runs):
    out = subprocess.run([str(build / "bench" / "bench_tokenizer"), str(model), str(path), str(runs)],
                         check=True, capture_output=True, text=True).stdout
    fields = dict(f.split("=") for f in out.split())
    return float(fields["mb_per_s"])


def hearth_ids(build, model, text):
    out = subprocess.run([str(build / "app" / "cli" / "hearth"), "tokenize", "--model", str(model), "--ids-only",
                          "--no-add-special"], input=text, check=True, capture_output=True).stdout
    return [int(x) for x in out.split()]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=str(ROOT / "build" / "dev"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    build = pathlib.Path(args.build)
    print(f"{'model':22} {'text':8} {'bytes':>8} {'llama.cpp MB/s':>15} {'Hearth MB/s':>12} {'ratio':>6}  ids")
    with tempfile.TemporaryDirectory() as tmp:
        for text_name, text in texts().items():
            path = pathlib.Path(tmp) / f"{text_name}.txt"
            path.write_bytes(text)
            for model_name, model in models().items():
                if not model.is_file():
                    continue
                ref_rate, ref_ids = llama_cpp_rate(model, text, args.runs)
                rate = hearth_rate(build, model, path, args.runs)
                same = "same" if (build / "app" / "cli" / "hearth").exists() and hearth_ids(build, model, text) == ref_ids else "?"
                print(f"{model_name:22} {text_name:8} {len(text):>8} {ref_rate:>15.2f} {rate:>12.2f} "
                      f"{rate / ref_rate:>5.2f}x  {same}")


if __name__ == "__main__":
    main()
