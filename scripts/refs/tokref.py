"""Helpers for tokenizer golden files (see make_tokenizer_refs.py).

File format (what tests/core/tokenizer_refs.cpp reads): Qt's qCompress
framing - a 4-byte big-endian length of the uncompressed data, then a zlib
stream. Inside, unsigned LEB128 varints and raw byte strings:

  corpus file:  "HTKC1" varint(n) n x (varint(len) bytes)
  ids file:     "HTKI2" varint(stride)
                varint(n_variants) n_variants x (varint(len) name varint(add_special) varint(parse_special))
                varint(n_cases) n_cases x n_variants x (varint(n_ids) ids..., detok)
                The cases are corpus[0], corpus[stride], ...; a variant is a
                tokenizer (a pre-tokenizer name, or "" for the file's own) and
                a mode. detok is varint(0) when llama.cpp's detokenization of
                the ids (remove_special=false, unparse_special=parse_special)
                equals the input text, else varint(1 + len) bytes.
"""

import ctypes
import struct
import zlib


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def write_qcompressed(path, payload):
    with open(path, "wb") as f:
        f.write(struct.pack(">I", len(payload)))
        f.write(zlib.compress(payload, 9))


def write_corpus(path, cases):
    out = bytearray(b"HTKC1")
    out += varint(len(cases))
    for c in cases:
        out += varint(len(c)) + c
    write_qcompressed(path, bytes(out))


class Reference:
    """llama.cpp (through llama-cpp-python) on one GGUF vocabulary."""

    def __init__(self, path):
        import llama_cpp

        self._lib = llama_cpp
        self._llm = llama_cpp.Llama(model_path=str(path), vocab_only=True, verbose=False)
        self._vocab = llama_cpp.llama_model_get_vocab(self._llm.model)

    def tokenize(self, text, add_special, parse_special):
        n_max = len(text) * 2 + 16
        buf = (self._lib.llama_token * n_max)()
        n = self._lib.llama_tokenize(self._vocab, text, len(text), buf, n_max, add_special, parse_special)
        if n < 0:
            raise RuntimeError("token buffer too small")
        return list(buf[:n])

    def detokenize(self, ids, unparse_special):
        arr = (self._lib.llama_token * max(1, len(ids)))(*ids)
        size = 64 + 64 * len(ids)
        while True:
            buf = ctypes.create_string_buffer(size)
            n = self._lib.llama_detokenize(self._vocab, arr, len(ids), buf, size, False, unparse_special)
            if n >= 0:
                return buf.raw[:n]
            size = -n + 16


def piece_bytes(self_ref, token, special):
    buf = ctypes.create_string_buffer(256)
    n = self_ref._lib.llama_token_to_piece(self_ref._vocab, token, buf, 256, 0, special)
    if n < 0:
        buf = ctypes.create_string_buffer(-n)
        n = self_ref._lib.llama_token_to_piece(self_ref._vocab, token, buf, -n, 0, special)
    return buf.raw[:n]


def fnv1a(data, h=0xCBF29CE484222325):
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def vocab_facts(reference):
    """One line of facts about a vocabulary, as llama.cpp reports them:
    special ids, add flags, the end-of-generation set, and FNV-1a checksums
    over every token's attribute and piece (rendered and not)."""
    lib, v = reference._lib, reference._vocab
    n = lib.llama_vocab_n_tokens(v)
    eog = [i for i in range(n) if lib.llama_vocab_is_eog(v, i)]
    attrs = fnv1a(b"".join(int(lib.llama_vocab_get_attr(v, i)).to_bytes(4, "little") for i in range(n)))
    pieces = 0xCBF29CE484222325
    plain = 0xCBF29CE484222325
    for i in range(n):
        p = piece_bytes(reference, i, True)
        pieces = fnv1a(len(p).to_bytes(4, "little") + p, pieces)
        p = piece_bytes(reference, i, False)
        plain = fnv1a(len(p).to_bytes(4, "little") + p, plain)
    fields = {
        "n": n, "bos": lib.llama_vocab_bos(v), "eos": lib.llama_vocab_eos(v), "eot": lib.llama_vocab_eot(v),
        "sep": lib.llama_vocab_sep(v), "pad": lib.llama_vocab_pad(v),
        "add_bos": int(lib.llama_vocab_get_add_bos(v)), "add_eos": int(lib.llama_vocab_get_add_eos(v)),
        "eog": ",".join(map(str, eog)), "attrs": "%016x" % attrs, "pieces": "%016x" % pieces,
        "plain_pieces": "%016x" % plain,
    }
    return " ".join(f"{k}={val}" for k, val in fields.items())


def write_ids(path, cases, variants, stride=1):
    """variants: list of (name, Reference, add_special, parse_special)."""
    out = bytearray(b"HTKI2")
    out += varint(stride)
    out += varint(len(variants))
    for name, _, add_special, parse_special in variants:
        out += varint(len(name)) + name.encode() + varint(int(add_special)) + varint(int(parse_special))
    subset = cases[::stride]
    out += varint(len(subset))
    for text in subset:
        for _, reference, add_special, parse_special in variants:
            ids = reference.tokenize(text, add_special, parse_special)
            out += varint(len(ids))
            for i in ids:
                out += varint(i)
            detok = reference.detokenize(ids, parse_special)
            out += varint(0) if detok == text else varint(1 + len(detok)) + detok
    write_qcompressed(path, bytes(out))


def relabel_gguf(src, dst, changes):
    """Copies the metadata of a tensor-less GGUF, replacing the keys in `changes`."""
    import gguf

    reader = gguf.GGUFReader(src)
    arch = reader.fields["general.architecture"].contents()
    writer = gguf.GGUFWriter(dst, arch)
    for key, field in reader.fields.items():
        if key.startswith("GGUF.") or key == "general.architecture":
            continue
        if key in changes:
            continue
        vtype = field.types[0]
        sub = field.types[-1] if vtype == gguf.GGUFValueType.ARRAY else None
        writer.add_key_value(key, field.contents(), vtype, sub)
    for key, value in changes.items():
        if isinstance(value, bool):
            writer.add_bool(key, value)
        elif isinstance(value, int):
            writer.add_uint32(key, value)
        else:
            writer.add_string(key, value)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
