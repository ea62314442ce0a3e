#!/usr/bin/env python3
"""Builds the seed corpus of the GGUF fuzzer (scripts/fuzz-gguf) from the
real models' headers, plus a libFuzzer dictionary of their keys. The seeds
are small so the fuzzer runs fast: each real header is re-encoded with its
arrays cut to a few elements and its tensors shrunk to one row, in several
variants (everything; keys only; tensors only; the raw first 4 KiB).

    ~/.cache/hearth/venv/bin/python scripts/refs/make_fuzz_corpus.py SEED_DIR DICT_FILE [MODELS_DIR]
"""
import os
import struct
import sys
from pathlib import Path

from gguf import GGUFReader, GGUFValueType
from gguf.constants import GGML_QUANT_SIZES

MODELS = ["SmolLM2-135M-Instruct.Q4_1.gguf", "gemma-3-270m-q4_k_m.gguf"]
MAX_ARRAY = 8
ALIGN = 32
SCALAR = {GGUFValueType.UINT8: "<B", GGUFValueType.INT8: "<b", GGUFValueType.UINT16: "<H",
          GGUFValueType.INT16: "<h", GGUFValueType.UINT32: "<I", GGUFValueType.INT32: "<i",
          GGUFValueType.FLOAT32: "<f", GGUFValueType.BOOL: "<?", GGUFValueType.UINT64: "<Q",
          GGUFValueType.INT64: "<q", GGUFValueType.FLOAT64: "<d"}


def gstr(b: bytes) -> bytes:
    return struct.pack("<Q", len(b)) + b


def encode_field(field) -> bytes:
    """Key, type and value of a reader field, arrays cut to MAX_ARRAY items."""
    out = gstr(field.name.encode()) + struct.pack("<I", field.types[0])
    if field.types[0] == GGUFValueType.ARRAY:
        elem = field.types[1]
        items = field.data[:MAX_ARRAY]
        out += struct.pack("<IQ", elem, len(items))
        for idx in items:
            part = field.parts[idx]
            out += gstr(bytes(part)) if elem == GGUFValueType.STRING else part.tobytes()
    elif field.types[0] == GGUFValueType.STRING:
        out += gstr(bytes(field.parts[field.data[0]]))
    else:
        out += field.parts[field.data[0]].tobytes()
    return out


def encode(fields, tensors) -> bytes:
    """A GGUF v3 file: the given fields, and each tensor shrunk to one row
    (two for matrices) of one block, with zero data."""
    head = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(fields))
    head += b"".join(encode_field(f) for f in fields)
    offset, sizes = 0, []
    for t in tensors:
        block, nbytes = GGML_QUANT_SIZES[t.tensor_type]
        ne = [block] if len(t.shape) == 1 else [block, 2]
        head += gstr(t.name.encode()) + struct.pack("<I", len(ne)) + b"".join(struct.pack("<q", n) for n in ne)
        head += struct.pack("<IQ", int(t.tensor_type), offset)
        size = nbytes * (1 if len(ne) == 1 else 2)
        sizes.append(size)
        offset += (size + ALIGN - 1) // ALIGN * ALIGN
    head += b"\0" * ((-len(head)) % ALIGN)
    return head + b"\0" * offset


def main() -> None:
    out, dict_file = Path(sys.argv[1]), Path(sys.argv[2])
    models = Path(sys.argv[3]) if len(sys.argv) > 3 else Path(
        os.environ.get("HEARTH_MODELS_DIR", Path.home() / ".local/share/hearth/models"))
    out.mkdir(parents=True, exist_ok=True)
    keys = set()
    for name in MODELS:
        path = models / name
        r = GGUFReader(path)
        fields = [f for f in r.fields.values() if not f.name.startswith("GGUF.")]
        keys.update(f.name for f in fields)
        stem = name.split("-")[0].lower()
        arch = [f for f in fields if f.name == "general.architecture"]
        (out / f"{stem}-all.gguf").write_bytes(encode(fields, r.tensors))
        (out / f"{stem}-keys.gguf").write_bytes(encode(fields, []))
        (out / f"{stem}-tensors.gguf").write_bytes(encode(arch, r.tensors[:40]))
        (out / f"{stem}-few.gguf").write_bytes(encode(fields[:6], r.tensors[:3]))
        with open(path, "rb") as f:
            (out / f"{stem}-prefix.gguf").write_bytes(f.read(4096))
    with open(dict_file, "w") as d:
        for k in sorted(keys) + ["GGUF", "general.alignment", "split.count", "split.no"]:
            d.write('"' + k.replace("\\", "\\\\").replace('"', '\\"') + '"\n')
    print(f"seeds and dictionary in {out}")


if __name__ == "__main__":
    main()
