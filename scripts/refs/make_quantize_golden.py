#!/usr/bin/env python3
"""Writes the golden files of test_quantize_golden: what llama.cpp's own
quantizer (llama_model_quantize through llama-cpp-python, no importance
matrix) writes for three F16 models and six mixes.

The F16 models:
  smollm2  SmolLM2-135M-Instruct.Q4_1.gguf, dequantized to F16 by llama.cpp
           (ftype MOSTLY_F16 with allow_requantize: 2-D weights to F16,
           1-D tensors stay F32)
  gemma3   gemma-3-270m-q4_k_m.gguf, the same way
  synth    make_quant_synth_model.py's F16 with Llama 3.2 1B's tensor shapes
           (full vocabulary, 4 layers instead of 16; see that script)
and each is quantized to Q4_0, Q8_0, Q4_K_M, Q5_K_M, Q6_K and IQ4_XS.

For each output the golden file records the sha256 of the whole file, the
metadata keys in order, and per tensor (in file order) its name, type and
the first 16 hex digits of the sha256 of its data. For the dequantized F16
the same, so the test can check Hearth's own dequantization first.

Needs the reference venv (scripts/setup-reference) and the real models
(scripts/setup):
    ~/.cache/hearth/ref-venv/bin/python scripts/refs/make_quantize_golden.py
Output: tests/data/quantize/<model>.json, a few dozen KiB each (hashes, never
data; one tensor a line). Takes ~10 minutes on 2 busy cores.
"""
import argparse
import ctypes
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import gguf
import llama_cpp

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "quantize"
MIXES = ["Q4_0", "Q8_0", "Q4_K_M", "Q5_K_M", "Q6_K", "IQ4_XS"]
# llama.cpp's llama_ftype values (llama.h).
FTYPES = {"F16": 1, "Q4_0": 2, "Q8_0": 7, "Q4_K_M": 15, "Q5_K_M": 17, "Q6_K": 18, "IQ4_XS": 30}
MODELS = {
    "smollm2": "SmolLM2-135M-Instruct.Q4_1.gguf",
    "gemma3": "gemma-3-270m-q4_k_m.gguf",
}


def models_dir():
    if os.environ.get("HEARTH_MODELS_DIR"):
        return Path(os.environ["HEARTH_MODELS_DIR"])
    data = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    return Path(data) / "hearth" / "models"


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def quantize(src, dst, ftype, threads):
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = ftype
    params.nthread = threads
    params.allow_requantize = True
    rc = llama_cpp.llama_model_quantize(str(src).encode(), str(dst).encode(), ctypes.byref(params))
    if rc != 0:
        sys.exit(f"llama_model_quantize({src} -> {dst}, ftype {ftype}) failed: {rc}")


def describe(path):
    r = gguf.GGUFReader(str(path))
    tensors = []
    for t in r.tensors:
        digest = hashlib.sha256(t.data.tobytes()).hexdigest()[:16]
        tensors.append([t.name, t.tensor_type.name.lower(), digest])
    keys = [k for k in r.fields.keys() if not k.startswith("GGUF.")]
    return {"file_sha256": sha256_file(path), "keys": keys, "tensors": tensors}


def dump(golden):
    """JSON with one tensor (or key list) a line: small, and diffs stay readable."""
    def compact(desc):
        return ("{\n   \"file_sha256\": %s,\n   \"keys\": %s,\n   \"tensors\": [\n    %s\n   ]\n  }"
                % (json.dumps(desc["file_sha256"]), json.dumps(desc["keys"]),
                   ",\n    ".join(json.dumps(t) for t in desc["tensors"])))
    lines = []
    for k, v in golden.items():
        if k == "f16":
            lines.append(' "f16": ' + compact(v).replace("\n  ", "\n "))
        elif k == "mixes":
            mixes = ",\n".join('  %s: %s' % (json.dumps(m), compact(d)) for m, d in v.items())
            lines.append(' "mixes": {\n' + mixes + "\n }")
        else:
            lines.append(" %s: %s" % (json.dumps(k), json.dumps(v)))
    text = "{\n" + ",\n".join(lines) + "\n}\n"
    assert json.loads(text) == golden
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", nargs="*", default=None, help="model names (smollm2 gemma3 synth)")
    ap.add_argument("--work", type=Path, default=None,
                    help="keep the F16s and llama.cpp's outputs in this folder (default: a temporary one, removed)")
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    llama_cpp.llama_backend_init()
    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.work or Path(scratch)
        tmp.mkdir(parents=True, exist_ok=True)
        sources = {}
        for name, file in MODELS.items():
            path = models_dir() / file
            if not path.exists():
                sys.exit(f"{path} not found: run scripts/setup")
            sources[name] = path
        synth = tmp / "synth-f16.gguf"
        wanted = args.only is None or "synth" in args.only
        if wanted and (not synth.exists() or not args.work):
            subprocess.run([sys.executable, str(ROOT / "scripts" / "refs" / "make_quant_synth_model.py"), str(synth)],
                           check=True)
        sources["synth"] = synth
        for name, src in sources.items():
            if args.only and name not in args.only:
                continue
            print(f"{name}: {src.name}", flush=True)
            golden = {"source": src.name, "source_sha256": sha256_file(src),
                      "llama_cpp_python": llama_cpp.__version__, "mixes": {}}
            if name == "synth":
                f16 = src
            else:
                f16 = tmp / f"{name}-f16.gguf"
                quantize(src, f16, FTYPES["F16"], args.threads)
                golden["f16"] = describe(f16)
            for mix in MIXES:
                out = tmp / f"{name}-{mix}.gguf"
                quantize(f16, out, FTYPES[mix], args.threads)
                golden["mixes"][mix] = describe(out)
                if not args.work:
                    out.unlink()
                print(f"  {mix}: {golden['mixes'][mix]['file_sha256'][:16]}", flush=True)
            (OUT / f"{name}.json").write_text(dump(golden))


if __name__ == "__main__":
    main()
