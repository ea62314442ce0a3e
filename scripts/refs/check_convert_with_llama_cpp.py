#!/usr/bin/env python3
"""Checks that llama.cpp loads what `hearth convert` writes for the real
all-MiniLM-L6-v2 (BERT) folder (scripts/setup fetches it into
~/.cache/hearth/hf) and computes the right embeddings from it:

* the tensor names are those the gguf package's BERT name map gives the
  Hugging Face names (an implementation independent of Hearth's);
* llama.cpp's loader accepts the F32 and Q8_0 files, its tokenizer (from the
  converted tokenizer.ggml.* keys) gives Hearth's ids for sample texts and
  the converter's check text;
* llama.cpp's mean-pooled, normalized embeddings match a numpy float64 BERT
  forward pass over the safetensors (cosine >= 0.99999 for F32, >= 0.999 for
  Q8_0).

llama.cpp runs with use_extra_bufts off: its AMX kernels die with SIGILL in
sandboxes that do not grant AMX tile state, whatever the file.

    ~/.cache/hearth/ref-venv/bin/python scripts/refs/check_convert_with_llama_cpp.py [BUILD_DIR]
Exit status 0 when every check passes, 77 when the source folder or the
build is missing (ctest reads that as "skipped").
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("HEARTH_CACHE_DIR", Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "hearth"))
SOURCE = CACHE / "hf" / "all-MiniLM-L6-v2"
TEXTS = ["This is an example sentence", "Each sentence is converted", "Hearth runs models offline.",
         "Ünïcödé and 中文 and emoji 🦙 work too"]


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    raw = path.read_bytes()
    n = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    out = {}
    for name, e in header.items():
        if name == "__metadata__":
            continue
        b, end = e["data_offsets"]
        dt = {"F32": np.float32, "F16": np.float16, "I64": np.int64}[e["dtype"]]
        out[name] = np.frombuffer(raw[8 + n + b:8 + n + end], dtype=dt).reshape(e["shape"]).astype(np.float64)
    return out


def bert_embedding(w: dict[str, np.ndarray], ids: list[int], cfg: dict) -> np.ndarray:
    """Mean-pooled, L2-normalized BERT output (float64)."""
    eps = cfg["layer_norm_eps"]
    heads = cfg["num_attention_heads"]

    def ln(x, p):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + eps) * w[p + ".weight"] + w[p + ".bias"]

    def lin(x, p):
        return x @ w[p + ".weight"].T + w[p + ".bias"]

    n = len(ids)
    x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:n] \
        + w["embeddings.token_type_embeddings.weight"][0]
    x = ln(x, "embeddings.LayerNorm")
    for layer in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{layer}."
        q, k, v = (lin(x, p + "attention.self." + s).reshape(n, heads, -1).transpose(1, 0, 2)
                   for s in ("query", "key", "value"))
        a = q @ k.transpose(0, 2, 1) / np.sqrt(q.shape[-1])
        a = np.exp(a - a.max(-1, keepdims=True))
        a /= a.sum(-1, keepdims=True)
        o = (a @ v).transpose(1, 0, 2).reshape(n, -1)
        x = ln(x + lin(o, p + "attention.output.dense"), p + "attention.output.LayerNorm")
        h = lin(x, p + "intermediate.dense")
        h = 0.5 * h * (1 + np.vectorize(__import__("math").erf)(h / np.sqrt(2)))
        x = ln(x + lin(h, p + "output.dense"), p + "output.LayerNorm")
    e = x.mean(0)
    return e / np.linalg.norm(e)


def hearth_ids(hearth: Path, model: Path, text: str) -> list[int]:
    out = subprocess.run([str(hearth), "tokenize", "--model", str(model), "--ids-only"], input=text.encode(),
                         capture_output=True, check=True).stdout.decode()
    return [int(t) for t in out.split()]


def main() -> int:
    build = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "dev"
    hearth = build / "app" / "cli" / "hearth"
    if not (SOURCE / "model.safetensors").is_file() or not hearth.is_file():
        print(f"skipped: needs {SOURCE} (scripts/setup) and {hearth}")
        return 77
    import gguf
    import llama_cpp
    import llama_cpp.llama_cpp as lc

    default_params = lc.llama_model_default_params

    def no_extra_buffers():
        p = default_params()
        p.use_extra_bufts = False
        return p

    lc.llama_model_default_params = no_extra_buffers
    cfg = json.loads((SOURCE / "config.json").read_text())
    weights = read_safetensors(SOURCE / "model.safetensors")
    name_map = gguf.get_tensor_name_map(gguf.MODEL_ARCH.BERT, cfg["num_hidden_layers"])
    expected = {name_map.get_name(n, try_suffixes=(".weight", ".bias")) for n in weights
                if n != "embeddings.position_ids" and not n.startswith("pooler.")}
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for outtype, min_cos in (("f32", 0.99999), ("q8_0", 0.999)):
            path = Path(tmp) / f"minilm-{outtype}.gguf"
            subprocess.run([str(hearth), "convert", str(SOURCE), "--outtype", outtype, "-o", str(path)], check=True,
                           stdout=subprocess.DEVNULL)
            names = {t.name for t in gguf.GGUFReader(path).tensors}
            if names != expected:
                print(f"{outtype}: tensor names differ: {sorted(names ^ expected)[:5]}")
                failures += 1
            llm = llama_cpp.Llama(model_path=str(path), embedding=True, verbose=False, n_ctx=512)
            for text in TEXTS:
                ids = llm.tokenize(text.encode(), add_bos=True, special=False)
                if ids != hearth_ids(hearth, path, text):
                    print(f"{outtype}: llama.cpp and hearth tokenize {text!r} differently")
                    failures += 1
                got = np.array(llm.embed(text, normalize=True), dtype=np.float64)
                want = bert_embedding(weights, ids, cfg)
                cos = float(got @ want / np.linalg.norm(got))
                status = "ok" if cos >= min_cos else "FAIL"
                failures += status == "FAIL"
                print(f"{outtype}: {text!r}: {len(ids)} tokens, cosine {cos:.7f} {status}")
            del llm
    print("all checks passed" if failures == 0 else f"{failures} checks failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
