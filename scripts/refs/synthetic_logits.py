#!/usr/bin/env python3
"""Regenerates tests/data/engine/synthetic/: llama.cpp's logits at 16
positions for every synthetic model of make_synthetic_models.py.

Run with the reference venv (scripts/setup-reference):
    ~/.cache/hearth/ref-venv/bin/python scripts/refs/synthetic_logits.py

Writes NAME.logits (16 x vocab little-endian f32, position-major) per model
and manifest.json (token ids, shapes, llama-cpp-python version).
"""
import json
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_synthetic_models as synth  # noqa: E402

from llama_cpp import Llama, __version__ as llama_cpp_version  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "tests", "data", "engine", "synthetic")
POSITIONS = 16


def tokens():
    rng = np.random.RandomState(1234)
    return [1] + [int(t) for t in rng.randint(3, synth.VOCAB, POSITIONS - 1)]


def main():
    os.makedirs(OUT, exist_ok=True)
    ids = tokens()
    manifest = {"llama_cpp_python": llama_cpp_version, "tokens": ids, "vocab": synth.VOCAB, "models": []}
    with tempfile.TemporaryDirectory() as tmp:
        for full in synth.model_names():
            name, qtype = full.rsplit("-", 1)
            path = os.path.join(tmp, full + ".gguf")
            synth.write_model(path, name, qtype)
            llm = Llama(model_path=path, n_ctx=64, n_batch=64, n_threads=2, logits_all=True, verbose=False)
            llm.eval(ids)
            logits = np.array(llm.scores[:POSITIONS], dtype="<f4")
            logits.tofile(os.path.join(OUT, full + ".logits"))
            manifest["models"].append({"name": full, "max_abs_logit": float(np.abs(logits).max())})
            print(f"{full}: max |logit| {np.abs(logits).max():.4f}")
            del llm
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
