#!/usr/bin/env python3
"""Writes what `hearth info --json --tensors` must print for the two real
models (tests/data/info/*.json, checked by tests/app/test_cli_info.cpp),
computed independently with the `gguf` package's GGUFReader.

    ~/.cache/hearth/venv/bin/python scripts/refs/make_info_expectations.py [MODELS_DIR]
"""
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

from gguf import GGUFReader, LlamaFileType

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "info"
MODELS = {"smollm2": "SmolLM2-135M-Instruct.Q4_1.gguf", "gemma3": "gemma-3-270m-q4_k_m.gguf"}


def type_name(qtype) -> str:
    name = qtype.name.lower()
    return name[:-2] + "_K" if name.endswith("_k") else name


def value(reader: GGUFReader, key: str):
    field = reader.fields.get(key)
    return None if field is None else field.contents()


def int_or_max(reader: GGUFReader, key: str) -> int:
    v = value(reader, key)
    if v is None:
        return 0
    return max(v) if isinstance(v, list) else int(v)


def file_type(reader: GGUFReader, mix: list) -> str:
    ft = value(reader, "general.file_type")
    if ft is not None:
        try:
            return LlamaFileType(int(ft) & ~1024).name.removeprefix("MOSTLY_").replace("GUESSED", "")
        except ValueError:
            pass
    return mix[0]["type"].upper() if mix else ""


def expectations(path: Path) -> dict:
    r = GGUFReader(path)
    arch = value(r, "general.architecture") or ""
    usage = defaultdict(lambda: [0, 0, 0])  # tensors, bytes, type id
    tensors = []
    for t in r.tensors:
        u = usage[type_name(t.tensor_type)]
        u[0] += 1
        u[1] += int(t.n_bytes)
        u[2] = int(t.tensor_type)
        tensors.append({"name": t.name, "type": type_name(t.tensor_type), "shape": [int(s) for s in t.shape],
                        "offset": int(t.data_offset) - int(r.data_offset), "bytes": int(t.n_bytes)})
    mix = [{"type": k, "tensors": v[0], "bytes": v[1]}
           for k, v in sorted(usage.items(), key=lambda kv: (-kv[1][1], kv[1][2]))]
    head_count = int_or_max(r, f"{arch}.attention.head_count")
    tokens = value(r, "tokenizer.ggml.tokens")
    return {
        "file_size": path.stat().st_size,
        "gguf_version": int(value(r, "GGUF.version")),
        "splits": 1,
        "architecture": arch,
        "name": value(r, "general.name") or "",
        "file_type": file_type(r, mix),
        "parameters": sum(int(t.n_elements) for t in r.tensors),
        "tensor_count": len(r.tensors),
        "tensor_bytes": sum(int(t.n_bytes) for t in r.tensors),
        "type_mix": mix,
        "context_length": int_or_max(r, f"{arch}.context_length"),
        "embedding_length": int_or_max(r, f"{arch}.embedding_length"),
        "block_count": int_or_max(r, f"{arch}.block_count"),
        "head_count": head_count,
        "head_count_kv": int_or_max(r, f"{arch}.attention.head_count_kv") or head_count,
        "feed_forward_length": int_or_max(r, f"{arch}.feed_forward_length"),
        "vocab_size": len(tokens) if tokens is not None else int_or_max(r, f"{arch}.vocab_size"),
        "tokenizer_model": value(r, "tokenizer.ggml.model") or "",
        "tokenizer_pre": value(r, "tokenizer.ggml.pre") or "",
        "has_chat_template": "tokenizer.chat_template" in r.fields,
        "tensors": tensors,
    }


def main() -> None:
    models_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(
        os.environ.get("HEARTH_MODELS_DIR", Path.home() / ".local/share/hearth/models"))
    OUT.mkdir(parents=True, exist_ok=True)
    for short, fname in MODELS.items():
        exp = {"model": fname, "generator": "scripts/refs/make_info_expectations.py", **expectations(models_dir / fname)}
        (OUT / f"{short}.json").write_text(json.dumps(exp, indent=None, separators=(",", ":")) + "\n")
        print(f"{short}: {exp['tensor_count']} tensors, {exp['file_type']}")


if __name__ == "__main__":
    main()
