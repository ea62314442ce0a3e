#!/usr/bin/env python3
"""Writes the dequantization vectors of tests/core/test_quant_dequantize.cpp.

Every case is a short run of blocks of one tensor type together with the f32
values that the `gguf` package's gguf.quants.dequantize() gives for them:

* "model" cases: a few rows of a real tensor of each type found in the two
  real models (SmolLM2-135M-Instruct.Q4_1, gemma-3-270m-q4_k_m);
* "synthetic" cases: every listed type. Where gguf.quants can quantize the
  type, random floats (fixed seed) are quantized by it and the floats are
  kept too, so the test can check Hearth's quantizer gives the same bytes;
  otherwise the blocks are random bytes with sane f16 scale fields.

Output: tests/data/quant/dequant.json (the index) and dequant.bin (raw
blocks, expected f32 values and quantizer inputs, little-endian).

    ~/.cache/hearth/venv/bin/python scripts/refs/make_quant_vectors.py [MODELS_DIR]
"""
import json
import os
import sys
from pathlib import Path

import numpy as np
from gguf import GGMLQuantizationType as T
from gguf import GGUFReader
from gguf.constants import GGML_QUANT_SIZES
from gguf import quants

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "quant"
SEED = 20240603
MODELS = ["SmolLM2-135M-Instruct.Q4_1.gguf", "gemma-3-270m-q4_k_m.gguf"]
ROWS_PER_TENSOR = 2
MAX_ROW_ELEMENTS = 2048  # keep the committed files small

# The types the issue lists, and those gguf.quants can quantize itself.
SYNTHETIC = [T.F32, T.F16, T.BF16, T.Q4_0, T.Q4_1, T.Q5_0, T.Q5_1, T.Q8_0,
             T.Q2_K, T.Q3_K, T.Q4_K, T.Q5_K, T.Q6_K, T.IQ4_NL, T.IQ4_XS]
QUANTIZABLE = {T.BF16, T.Q4_0, T.Q4_1, T.Q5_0, T.Q5_1, T.Q8_0}
# Byte offsets of the f16 fields inside a block, per type (others are free).
HALF_FIELDS = {
    T.Q4_0: [0], T.Q4_1: [0, 2], T.Q5_0: [0], T.Q5_1: [0, 2], T.Q8_0: [0],
    T.Q2_K: [80, 82], T.Q3_K: [108], T.Q4_K: [0, 2], T.Q5_K: [0, 2],
    T.Q6_K: [208], T.IQ4_NL: [0], T.IQ4_XS: [0],
}


def type_name(qtype: T) -> str:
    """ggml's spelling: q4_0, q4_K, iq4_nl, bf16."""
    name = qtype.name.lower()
    return name[:-2] + "_K" if name.endswith("_k") else name


class Blob:
    def __init__(self):
        self.parts, self.size = [], 0

    def add(self, data: bytes) -> list[int]:
        at = self.size
        self.parts.append(data)
        self.size += len(data)
        pad = (-self.size) % 8
        if pad:
            self.parts.append(b"\0" * pad)
            self.size += pad
        return [at, len(data)]


def dequantize(raw: np.ndarray, qtype: T, n: int) -> np.ndarray:
    block, nbytes = GGML_QUANT_SIZES[qtype]
    rows = raw.reshape(-1, n // block * nbytes)
    return quants.dequantize(rows, qtype).astype(np.float32).reshape(-1)


def model_cases(models_dir: Path, blob: Blob) -> list[dict]:
    cases = []
    for fname in MODELS:
        path = models_dir / fname
        if not path.exists():
            sys.exit(f"missing real model {path} (run scripts/setup)")
        reader = GGUFReader(path)
        seen = set()
        for t in reader.tensors:
            if t.tensor_type in seen or t.tensor_type not in GGML_QUANT_SIZES:
                continue
            row_elems = int(t.shape[0])
            if row_elems > MAX_ROW_ELEMENTS:
                continue
            seen.add(t.tensor_type)
            data = np.asarray(t.data)
            n_rows = int(np.prod([int(s) for s in t.shape[1:]])) if len(t.shape) > 1 else 1
            rows = sorted({0, n_rows // 2})[:ROWS_PER_TENSOR]
            block, nbytes = GGML_QUANT_SIZES[t.tensor_type]
            row_bytes = row_elems // block * nbytes
            flat = data.reshape(-1).view(np.uint8)
            raw = np.concatenate([flat[r * row_bytes:(r + 1) * row_bytes] for r in rows])
            expected = dequantize(raw, t.tensor_type, row_elems)
            cases.append({
                "name": f"{fname.split('-')[0].lower()}:{t.name}",
                "type": type_name(t.tensor_type),
                "source": "model", "model": fname, "tensor": t.name,
                "rows": rows, "row_elements": row_elems, "elements": row_elems * len(rows),
                "raw": blob.add(raw.tobytes()), "expected": blob.add(expected.tobytes()),
            })
    return cases


def synthetic_floats(rng: np.random.Generator, n: int) -> np.ndarray:
    """Bell-shaped values with the cases quantizers trip on: an all-zero
    block, a block with one outlier, a constant block, tiny values."""
    x = (rng.standard_normal(n) * rng.choice([0.02, 1.0, 30.0], size=n // 32).repeat(32)).astype(np.float32)
    x[0:32] = 0.0
    if n >= 128:
        x[32:64] = rng.standard_normal(32).astype(np.float32) * 1e-3
        x[40] = 5.0
        x[64:96] = -0.75
        x[96:128] = rng.uniform(-1, 1, 32).astype(np.float32) * 1e-6
    assert x.dtype == np.float32
    return x


def random_blocks(rng: np.random.Generator, qtype: T, n: int) -> np.ndarray:
    block, nbytes = GGML_QUANT_SIZES[qtype]
    raw = rng.integers(0, 256, size=(n // block, nbytes), dtype=np.uint8)
    scales = rng.choice([0.0, 1e-6, 2e-3, 0.05, 1.0, 300.0], size=(n // block, 2)) * rng.choice([-1.0, 1.0], size=(n // block, 2))
    for k, off in enumerate(HALF_FIELDS[qtype]):
        raw[:, off:off + 2] = scales[:, k].astype(np.float16).view(np.uint8).reshape(-1, 2)
    return raw.reshape(-1)


def float_patterns(rng: np.random.Generator, qtype: T, n: int) -> np.ndarray:
    """Raw f32/f16/bf16 values: random bit patterns plus special values."""
    if qtype == T.F32:
        x = rng.standard_normal(n).astype(np.float32) * np.float32(10.0) ** rng.integers(-40, 38, n).astype(np.float32)
        x[:6] = [0.0, -0.0, np.inf, -np.inf, 1e-45, -3.4e38]
        return x.view(np.uint8)
    bits = rng.integers(0, 1 << 16, n, dtype=np.uint16)
    bits[:8] = [0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x7c00, 0xfc00, 0x7bff]
    return bits.view(np.uint8)


def synthetic_cases(blob: Blob) -> list[dict]:
    rng = np.random.default_rng(SEED)
    cases = []
    for qtype in SYNTHETIC:
        block, _ = GGML_QUANT_SIZES[qtype]
        n = 256 if block == 1 else (block * 8 if block == 32 else block * 4)
        case = {"name": f"synthetic:{type_name(qtype)}", "type": type_name(qtype), "source": "synthetic",
                "elements": n}
        if qtype in QUANTIZABLE:
            x = synthetic_floats(rng, n)
            raw = quants.quantize(x.reshape(1, -1), qtype).reshape(-1)
            case["input"] = blob.add(x.tobytes())
        else:
            raw = float_patterns(rng, qtype, n) if block == 1 else random_blocks(rng, qtype, n)
        case["raw"] = blob.add(raw.tobytes())
        case["expected"] = blob.add(dequantize(raw, qtype, n).tobytes())
        cases.append(case)
    return cases


def main() -> None:
    models_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(
        os.environ.get("HEARTH_MODELS_DIR", Path.home() / ".local/share/hearth/models"))
    blob = Blob()
    cases = model_cases(models_dir, blob) + synthetic_cases(blob)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "dequant.bin").write_bytes(b"".join(blob.parts))
    index = {"generator": "scripts/refs/make_quant_vectors.py", "seed": SEED, "data": "dequant.bin", "cases": cases}
    (OUT / "dequant.json").write_text(json.dumps(index, indent=1) + "\n")
    print(f"{len(cases)} cases, {blob.size} bytes -> {OUT}")


if __name__ == "__main__":
    main()
