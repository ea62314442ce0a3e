"""Small vocabularies made from scratch, for rules the real models do not
exercise: Phi-3's rstrip special tokens, lstrip <mask>, user-defined tokens,
SentencePiece unigram (t5) and SPM-style BPE (gemma4). Deterministic.
"""

import gguf

WORDS = ("the of and to in is was that for it with as his on be at by had are but from or have an they which one "
         "you were all we there when your can said use each she do how their if will up other about out many then "
         "them these so some her would make like into him time has two more write go see number no way could "
         "people my than first water hello world token model turn user system end code def return int main "
         "function class import print value string ing ed er ly tion ment ness able").split()
SUBWORDS = ["th", "he", "in", "er", "an", "re", "on", "at", "en", "nd", "ti", "es", "or", "te", "of", "ed", "is",
            "it", "al", "ar", "st", "to", "nt", "ng", "se", "ha", "as", "ou", "io", "le", "ve", "co", "me", "de",
            "hi", "ri", "ro", "ic", "ne", "ea", "ra", "ce"]
CJK = list("你好世界我爱日本語のテキストです한국어")
ASCII = [chr(c) for c in range(0x21, 0x7F)]
SPACE = "\u2581"


def _pieces():
    """Normal pieces in priority order, every prefix of a word before it."""
    seen = []

    def add(p):
        if p and p not in seen:
            seen.append(p)

    add(SPACE)
    for c in ASCII + CJK:
        add(c)
    for s in SUBWORDS:
        add(s)
    for w in WORDS:
        for word in (SPACE + w, w):
            for i in range(2, len(word) + 1):
                add(word[:i])
    for n in (2, 4, 8):
        add(SPACE * n)
    return seen


def _write(path, arch, model, tokens, types, scores=None, merges=None, extra=None):
    w = gguf.GGUFWriter(str(path), arch)
    for key, value in (extra or {}).items():
        if isinstance(value, bool):
            w.add_bool(key, value)
        elif isinstance(value, int):
            w.add_uint32(key, value)
        else:
            w.add_string(key, value)
    w.add_tokenizer_model(model)
    w.add_token_list(tokens)
    w.add_token_types(types)
    if scores is not None:
        w.add_token_scores(scores)
    if merges is not None:
        w.add_token_merges(merges)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


NORMAL, UNKNOWN, CONTROL, USER, UNUSED, BYTE = 1, 2, 3, 4, 5, 6


def _spm(path, arch, name, specials, add_space_prefix):
    tokens = ["<unk>", "<s>", "</s>"] + ["<0x%02X>" % b for b in range(256)]
    types = [UNKNOWN, CONTROL, CONTROL] + [BYTE] * 256
    for text, kind in specials:
        tokens.append(text)
        types.append(kind)
    pieces = _pieces()
    tokens += pieces
    types += [NORMAL] * len(pieces)
    # Longer pieces score higher, ties broken by order, so merges vary.
    scores = [0.0] * (len(tokens) - len(pieces)) + [len(p) * 1.5 - i * 0.001 for i, p in enumerate(pieces)]
    _write(path, arch, "llama", tokens, types, scores,
           extra={"general.name": name, "tokenizer.ggml.add_space_prefix": add_space_prefix,
                  "tokenizer.ggml.bos_token_id": 1, "tokenizer.ggml.eos_token_id": 2,
                  "tokenizer.ggml.unknown_token_id": 0})


# A SentencePiece-style normalisation map: the rules, compiled into the
# double-array trie (darts-clone units) plus NUL-terminated replacements that
# GGUF's tokenizer.ggml.precompiled_charsmap holds.
CHARSMAP_RULES = {
    "\u3000": " ", "\u00a0": " ", "\t": " ", "\ufb01": "fi", "\uff21": "A", "\uff41": "a", "\uff11": "1",
    "\u2460": "1", "\u2122": "TM", "e\u0301": "\u00e9", "\u2026": "...", "\u212b": "\u00c5", "\u200b": "",
    "\uff08": "(", "\uff09": ")", "\u3001": ",", "\u00bd": "1/2",
}


def _charsmap(rules):
    keys = sorted((k.encode(), v.encode()) for k, v in rules.items())
    blob = bytearray()
    value_of = {}
    for key, value in keys:
        value_of[key] = len(blob)
        blob += value + b"\0"
    # Trie of the keys: node -> {byte: child}; terminal nodes map to values.
    children, terminal = [{}], {}
    for key, _ in keys:
        node = 0
        for byte in key:
            if byte not in children[node]:
                children.append({})
                children[node][byte] = len(children) - 1
            node = children[node][byte]
        terminal[node] = value_of[key]
    units, used = {0: 0}, {0}
    index_of = {0: 0}
    queue = [0]
    while queue:
        node = queue.pop(0)
        p = index_of[node]
        labels = sorted(children[node]) + ([0] if node in terminal else [])
        offset = 1
        while any(((p ^ offset) ^ c) in used for c in labels):
            offset += 1
        assert offset < (1 << 21)
        units[p] = units.get(p, 0) | (offset << 10) | ((1 << 8) if node in terminal else 0)
        for c in labels:
            used.add((p ^ offset) ^ c)
        if node in terminal:
            units[p ^ offset] = (1 << 31) | terminal[node]
        for byte, child in sorted(children[node].items()):
            q = (p ^ offset) ^ byte
            index_of[child] = q
            units[q] = byte
            queue.append(child)
    # Whole blocks of 256 units, as darts-clone makes them: every
    # (base ^ byte) a lookup can compute stays inside the array.
    n = max(max(units), max(index_of[k] ^ ((units[index_of[k]] >> 10) & 0x1FFFFF) for k in index_of)) // 256 * 256 + 256
    array = b"".join((units.get(i, 0)).to_bytes(4, "little") for i in range(n))
    return (len(array)).to_bytes(4, "little") + array + bytes(blob)


def _ugm_charsmap(path):
    tokens = ["<pad>", "</s>", "<unk>"]
    types = [CONTROL, CONTROL, UNKNOWN]
    pieces = _pieces()
    pieces += [p for p in ["\u00e9", SPACE + "\u00e9", "\u00c5", "fi", SPACE + "TM", "..."] if p not in pieces]
    tokens += pieces
    types += [NORMAL] * len(pieces)
    scores = [0.0] * 3 + [-2.0 - i * 0.01 - (3.0 if len(p) == 1 else 0.0) for i, p in enumerate(pieces)]
    w = gguf.GGUFWriter(str(path), "t5")
    w.add_string("general.name", "unigram with charsmap")
    w.add_bool("tokenizer.ggml.add_space_prefix", True)
    w.add_tokenizer_model("t5")
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_scores(scores)
    w.add_precompiled_charsmap(_charsmap(CHARSMAP_RULES))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def _ugm(path):
    tokens = ["<pad>", "</s>", "<unk>"]
    types = [CONTROL, CONTROL, UNKNOWN]
    for text in ["<extra_id_0>", "<sep>"]:
        tokens.append(text)
        types.append(USER)
    pieces = _pieces()
    tokens += pieces
    types += [NORMAL] * len(pieces)
    scores = [0.0] * 5 + [-2.0 - i * 0.01 - (3.0 if len(p) == 1 else 0.0) for i, p in enumerate(pieces)]
    _write(path, "t5", "t5", tokens, types, scores,
           extra={"general.name": "unigram synthetic", "tokenizer.ggml.add_space_prefix": True,
                  "tokenizer.ggml.remove_extra_whitespaces": True})


def _gemma4(path):
    tokens = ["<pad>", "<eos>", "<bos>", "<unk>", "<start_of_turn>", "<end_of_turn>", "\n", "\n\n"]
    types = [CONTROL, CONTROL, CONTROL, UNKNOWN, CONTROL, CONTROL, NORMAL, NORMAL]
    tokens += ["<0x%02X>" % b for b in range(256)]
    types += [BYTE] * 256
    base = [SPACE] + ASCII + CJK
    tokens += base
    types += [NORMAL] * len(base)
    merges = []
    for w in WORDS:
        for word in (SPACE + w, w):
            for i in range(2, len(word) + 1):
                left, right, joined = word[:i - 1], word[i - 1], word[:i]
                if joined not in tokens:
                    tokens.append(joined)
                    types.append(NORMAL)
                    merges.append(f"{left} {right}")
    _write(path, "gemma4", "gemma4", tokens, types, merges=merges,
           extra={"general.name": "gemma4 synthetic", "tokenizer.ggml.bos_token_id": 2,
                  "tokenizer.ggml.eos_token_id": 1, "tokenizer.ggml.unknown_token_id": 3,
                  "tokenizer.ggml.padding_token_id": 0, "tokenizer.ggml.pre": "gemma4"})


def write_all(folder):
    """Writes the vocabularies into `folder`; yields (name, path)."""
    phi3 = folder / "spm-phi3.gguf"
    _spm(phi3, "phi3", "Phi-3 Mini Synthetic",
         [("<|user|>", CONTROL), ("<|assistant|>", CONTROL), ("<|system|>", CONTROL), ("<|end|>", CONTROL),
          ("<|endoftext|>", CONTROL), ("<tag>", USER), ("[multimodal]", USER), ("<unused7>", CONTROL)], True)
    yield "spm-phi3", phi3
    mask = folder / "spm-mask.gguf"
    _spm(mask, "nomic-bert-moe", "masked synthetic",
         [("<mask>", CONTROL), ("<|im_start|>", CONTROL), ("<|im_end|>", CONTROL), ("  ", USER), ("\n\n", USER)],
         False)
    yield "spm-mask", mask
    ugm = folder / "ugm.gguf"
    _ugm(ugm)
    yield "ugm", ugm
    ugm_map = folder / "ugm-charsmap.gguf"
    _ugm_charsmap(ugm_map)
    yield "ugm-charsmap", ugm_map
    g4 = folder / "gemma4.gguf"
    _gemma4(g4)
    yield "gemma4", g4
